// Plays the bundled WASM-4 cart (hopkit.html, made by `w4 bundle --html`) in headless Chromium
// with a fixed key script, and writes down what the cart says it read.
//
//   node browser-test.mjs PAGE.html OUT_DIR [--screenshot FILE.png] [--disk FILE] [--record]
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
  console.error('usage: node browser-test.mjs PAGE.html OUT_DIR [--screenshot FILE.png] [--disk FILE] [--record]');
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
// --record: first fly a recording in the cart's record mode with RECORD_SCRIPT (DOWN + X + Z held
// until the cart traces `record mode`, the flight, the combo again until it traces `recorded N
// ticks, M bytes`), let the cart write it to its disk (`diskw`: the runtime stores it in
// localStorage) and restart on it, then reload the page and play SCRIPT as usual: the cart must
// say `ghost: your recording`. The disk's first M bytes (read back out of localStorage) go to
// OUT_DIR/disk.ghost, for `hopkit-sim hash --gamepad … --ghost OUT_DIR/disk.ghost`.
const record = rest.includes('--record');
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

// Record mode's flight: [keys held, milliseconds], ≈ 6 s (turns, a climb with the guns, a missile).
const RECORD_SCRIPT = [
  [['ArrowLeft'], 1200],
  [['ArrowUp', 'KeyX'], 1500],
  [[], 500],
  [['ArrowRight', 'KeyZ'], 300],
  [['ArrowRight'], 1200],
  [['ArrowDown'], 800],
  [[], 500],
];
const COMBO = ['ArrowDown', 'KeyX', 'KeyZ'];

const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';

// Z85 back to bytes (a multiple of 4: the runtime's groups).
function unz85(text) {
  const out = [];
  for (let i = 0; i + 5 <= text.length; i += 5) {
    let v = 0;
    for (let k = 0; k < 5; k++) {
      const d = Z85.indexOf(text[i + k]);
      if (d < 0) throw new Error(`not Z85: ${JSON.stringify(text[i + k])}`);
      v = v * 85 + d;
    }
    out.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
  }
  return out;
}

// Z85 in 4-byte groups, zero-padded: the web runtime's disk encoding (what its `diskw` stores).
function z85(bytes) {
  const abc = Z85;
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
  // With --record, only the hash of the run after the reload counts.
  let armed = !record;
  const got_hash = new Promise((r) => (resolve_hash = r));
  const waiters = [];
  // Resolves with the first console line (from now on) that `pred` accepts.
  const line_where = (pred, what) =>
    Promise.race([
      new Promise((r) => waiters.push({ pred, r })),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${TIMEOUT_MS} ms`)), TIMEOUT_MS)),
    ]);
  page.on('console', (msg) => {
    const text = msg.text();
    lines.push(text);
    for (const w of waiters.splice(0)) {
      if (w.pred(text)) w.r(text);
      else waiters.push(w);
    }
    if (armed && text.startsWith('state-hash:') && text.endsWith(` tick ${HASH_TICK}`)) resolve_hash(text);
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
  if (record) {
    await new Promise((r) => setTimeout(r, 1000)); // the page starts
    const hold_until = async (keys, pred, what) => {
      const seen = line_where(pred, what);
      for (const k of keys) await page.keyboard.down(k);
      const l = await seen;
      for (const k of keys) await page.keyboard.up(k);
      return l;
    };
    await hold_until(COMBO, (l) => l === 'record mode', '"record mode" line');
    for (const [keys, ms] of RECORD_SCRIPT) {
      for (const k of keys) await page.keyboard.down(k);
      await new Promise((r) => setTimeout(r, ms));
      for (const k of keys) await page.keyboard.up(k);
    }
    const restarted = line_where((l) => l.startsWith('ghost: '), 'restart after recording');
    const done = await hold_until(COMBO, (l) => l.startsWith('recorded '), '"recorded N ticks, M bytes" line');
    const ghost_after = await restarted;
    const m = /^recorded (\d+) ticks, (\d+) bytes$/.exec(done);
    if (!m) throw new Error(`unexpected line: ${done}`);
    const len = Number(m[2]);
    const stored = await page.evaluate(() => {
      const prefix = document.getElementById('wasm4-disk-prefix')?.textContent;
      return prefix ? localStorage.getItem(`${prefix}-disk`) : null;
    });
    if (!stored) throw new Error('the cart wrote nothing to its disk (localStorage)');
    const bytes = unz85(stored);
    if (bytes.length < len) throw new Error(`the disk holds ${bytes.length} bytes, the cart recorded ${len}`);
    mkdirSync(out_dir, { recursive: true });
    writeFileSync(join(out_dir, 'disk.ghost'), Buffer.from(bytes.slice(0, len)));
    writeFileSync(join(out_dir, 'recorded.txt'), `${done}\n`);
    console.log(`browser: ${done}; the cart restarted with "${ghost_after}"; disk ${bytes.length} bytes in localStorage`);
    if (ghost_after !== 'ghost: your recording') {
      console.error(`after recording the cart says "${ghost_after}", expected "ghost: your recording"`);
      failed = true;
    }
    // The next start: the runtime reads the disk back from localStorage.
    armed = true;
    await page.reload({ waitUntil: 'load' });
    await page.mouse.click(320, 320);
  }

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
