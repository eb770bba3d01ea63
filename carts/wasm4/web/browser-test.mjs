// Plays the bundled WASM-4 cart (hopkit.html, made by `w4 bundle --html`) in headless Chromium
// with a fixed key script, and writes down what the cart says it read.
//
//   node browser-test.mjs PAGE.html OUT_DIR [--screenshot FILE.png] [--disk FILE]
//
// The cart traces every gamepad byte it read as run-length lines (`pad 0x21 x588`) and, every 600
// ticks, `state-hash: 0x… tick N`. Key events in a browser do not land on exact frames, so this
// script never assumes which frame a key reached: it rebuilds the byte stream from the cart's own
// trace and writes it to OUT_DIR/gamepad.bin (one byte per tick, WASM-4 bit layout) together with
// the cart's hash line in OUT_DIR/cart-hash.txt. `hopkit-sim hash --gamepad OUT_DIR/gamepad.bin`
// must print the same hash (scripts/ci-wasm4.sh compares them).
//
// Chromium is the system one (Debian's `chromium` package, or $CHROMIUM); nothing is downloaded.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const [page_path, out_dir, ...rest] = process.argv.slice(2);
if (!page_path || !out_dir) {
  console.error('usage: node browser-test.mjs PAGE.html OUT_DIR [--screenshot FILE.png] [--disk FILE]');
  process.exit(2);
}
// --disk FILE: before the run, put FILE's bytes on the cart's disk (the web runtime keeps it in
// localStorage, Z85-encoded, under `<disk prefix>-disk`) and reload the page, as a player's
// saved recording would be found at the next start. The cart traces which ghost it flies first.
const opt = (name) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : null;
};
const shot = opt('--screenshot');
const disk = opt('--disk');
const HASH_TICK = 600;
const TIMEOUT_MS = 120_000;

// The key script: [keys held, milliseconds]. 14.5 s in all; the cart's tick 600 (10 s) falls in
// the long strafe-jump. Arrow keys are WASM-4's d-pad, X is BUTTON_1 (jump), Z BUTTON_2 (fire).
const SCRIPT = [
  [[], 1000], //                         the page starts (keys before the first frames are lost)
  [['ArrowUp'], 1500], //                run forward up to the ground max speed
  [['ArrowRight', 'KeyX'], 9000], //     strafe-jump right, turning right: past the ground max
  [['ArrowLeft', 'KeyX', 'KeyZ'], 2000], // strafe-jump left, firing
  [[], 1000], //                         let go
];

// Z85 in 4-byte groups, zero-padded: the web runtime's disk encoding (what its `diskw` stores).
function z85(bytes) {
  const abc = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
  const b = [...bytes];
  while (b.length % 4) b.push(0);
  let out = '';
  for (let i = 0; i < b.length; i += 4) {
    let v = ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
    let s = '';
    for (let k = 0; k < 5; k++) {
      s = abc[v % 85] + s;
      v = Math.floor(v / 85);
    }
    out += s;
  }
  return out;
}

const profile = mkdtempSync(join(tmpdir(), 'hopkit-chromium-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // Keep requestAnimationFrame at full rate in a headless, never-focused window.
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
    `--user-data-dir=${profile}`,
  ],
});
let failed = false;
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 640, height: 640 });
  const lines = [];
  let resolve_hash;
  const got_hash = new Promise((r) => (resolve_hash = r));
  page.on('console', (msg) => {
    const text = msg.text();
    lines.push(text);
    if (text.startsWith('state-hash:') && text.endsWith(` tick ${HASH_TICK}`)) resolve_hash(text);
  });
  page.on('pageerror', (e) => lines.push(`pageerror: ${e.message}`));
  await page.goto(pathToFileURL(resolve(page_path)).href, { waitUntil: 'load' });
  if (disk) {
    const bytes = [...readFileSync(disk)];
    await page.evaluate((z85, bytes) => {
      const prefix = document.getElementById('wasm4-disk-prefix')?.textContent;
      if (!prefix) throw new Error('no #wasm4-disk-prefix in the page');
      localStorage.setItem(`${prefix}-disk`, z85);
    }, z85(bytes), bytes);
    await page.reload({ waitUntil: 'load' });
  }
  // WASM-4 listens for keys on the window; give the page focus first.
  await page.mouse.click(320, 320);

  const play = (async () => {
    for (const [keys, ms] of SCRIPT) {
      for (const k of keys) await page.keyboard.down(k);
      await new Promise((r) => setTimeout(r, ms));
      for (const k of keys) await page.keyboard.up(k);
    }
  })();
  const timeout = new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`no "tick ${HASH_TICK}" hash line within ${TIMEOUT_MS} ms`)), TIMEOUT_MS),
  );
  const cart_line = await Promise.race([got_hash, timeout]);
  // The picture at tick 600: strafe-jumping right, past the ground max speed.
  if (shot) await page.screenshot({ path: shot });
  await play;

  // Rebuild the bytes the cart read up to its hash line, in the last run (after the last
  // `ghost:` line the cart traces at start; a reload starts a new run).
  const start = lines.findLastIndex((l) => l.startsWith('ghost: '));
  const ghost = start >= 0 ? lines[start] : '(no ghost line)';
  const bytes = [];
  for (const l of lines.slice(Math.max(start, 0))) {
    const m = /^pad 0x([0-9a-f]{2}) x(\d+)$/.exec(l);
    if (m) {
      for (let i = 0; i < Number(m[2]); i++) bytes.push(parseInt(m[1], 16));
    }
    if (l === cart_line) break;
  }
  mkdirSync(out_dir, { recursive: true });
  writeFileSync(join(out_dir, 'gamepad.bin'), Buffer.from(bytes));
  const hash = cart_line.replace(/ tick \d+$/, '');
  writeFileSync(join(out_dir, 'cart-hash.txt'), `${hash}\n`);
  writeFileSync(join(out_dir, 'ghost.txt'), `${ghost}\n`);
  console.log(`browser: ${ghost}`);
  writeFileSync(join(out_dir, 'console.txt'), `${lines.join('\n')}\n`);
  const distinct = new Set(bytes);
  console.log(`browser: ${lines.filter((l) => l.startsWith('pad ')).length} pad runs, ${bytes.length} ticks, ${distinct.size} distinct gamepad bytes`);
  console.log(`browser (cart in Chromium): ${hash}`);
  if (bytes.length !== HASH_TICK) {
    console.error(`expected ${HASH_TICK} traced ticks before the hash line, got ${bytes.length}`);
    failed = true;
  }
  if (distinct.size < 3) {
    console.error('the key script did not reach the cart (fewer than 3 distinct gamepad bytes)');
    failed = true;
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
