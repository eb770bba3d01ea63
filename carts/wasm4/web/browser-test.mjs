// Plays the bundled WASM-4 cart (hopkit.html, made by `w4 bundle --html`) in headless Chromium
// with a fixed key script, frame by frame, and writes down what the cart says it read.
//
//   node browser-test.mjs PAGE.html OUT_DIR [--tour] [--screenshot FILE.png] [--disk FILE] [--record]
//
// Frame-locked: before the page's scripts run, `requestAnimationFrame` is replaced by a queue
// that this script steps with timestamps exactly 1/60 s apart, so WASM-4's runtime runs exactly
// one `update` per step (its loop runs one update per 1000/60 ms of timestamps) and a key pressed
// between two steps is in the gamepad byte of the next update. A run is therefore the same bytes
// every time, and so is its picture (`--screenshot`, taken right after the hash tick: the stale
// picture check of docs/wasm4-browser.png in scripts/ci-wasm4.sh).
//
// The cart traces every gamepad byte it read as run-length lines (`pad 0x21 x588`) and, every 600
// ticks, `state-hash: 0x… tick N`. The byte stream is rebuilt from the cart's own trace (and must
// be the script's) and written to OUT_DIR/gamepad.bin (one byte per tick, WASM-4 bit layout)
// together with the cart's hash line in OUT_DIR/cart-hash.txt. `hopkit-sim hash --gamepad
// OUT_DIR/gamepad.bin` must print the same hash (scripts/ci-wasm4.sh compares them).
//
// Chromium is the system one (Debian's `chromium` package, or $CHROMIUM); nothing is downloaded.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const [page_path, out_dir, ...rest] = process.argv.slice(2);
if (!page_path || !out_dir) {
  console.error('usage: node browser-test.mjs PAGE.html OUT_DIR [--tour] [--screenshot FILE.png] [--disk FILE] [--record]');
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
// say `ghost: from disk`. The disk's first M bytes (read back out of localStorage) go to
// OUT_DIR/disk.ghost, and the disk as the runtime stored it (zero-padded to 4-byte groups) to
// OUT_DIR/disk-stored.ghost, for `hopkit-sim hash --gamepad … --ghost …`.
const record = rest.includes('--record');
// --tour: play TOUR (30 s: both ramps, a drop, the wall) and take the hash at tick 1800, instead
// of SCRIPT and tick 600.
const tour = rest.includes('--tour');
const HASH_TICK = tour ? 1800 : 600;
const MAX_STEPS = 20_000;

// WASM-4's gamepad keys: arrows are the d-pad, X is BUTTON_1 (jump), Z BUTTON_2 (fire).
const UP = 'ArrowUp', DOWN = 'ArrowDown', LEFT = 'ArrowLeft', RIGHT = 'ArrowRight', X = 'KeyX', Z = 'KeyZ';

// The key script: [keys held, frames]. 14.5 s in all; the cart's tick 600 (10 s) falls in the
// long strafe-jump.
const SCRIPT = [
  [[], 60], //                 nothing held
  [[UP], 90], //               run forward up to the ground max speed
  [[RIGHT, X], 540], //        strafe-jump right, turning right: past the ground max
  [[LEFT, X, Z], 120], //      strafe-jump left, firing
  [[], 60], //                 let go
];

// The tour of the cart's level (hopkit_demo::level::Level::Plain: the floor, two ramps and the
// walls), 31 s: along −Z, turn to +X, up the 20° ramp and over its 5.8 m drop to the east wall;
// south, west, then south up the 30° ramp and over its drop, firing; then strafe-jumps. The
// hash at tick 1800 covers all of it; `level_tour` (carts/wasm4/examples) checks the bytes
// visit every part. The native runtime's run (scripts/ci-wasm4-native.sh) drives the same
// legs closed-loop (scripts/wasm4-native-tour.py), as real-time key events cannot hit frames.
const TOUR = [
  [[], 60],
  [[UP], 174], //              to z ≈ −24
  [[RIGHT], 41], //            turn right 90°: facing +X
  [[UP], 330], //              up the 20° ramp, off its high edge, into the east wall
  [[RIGHT], 41], //            facing +Z
  [[UP], 100], //              to z ≈ −7
  [[RIGHT], 41], //            facing −X
  [[UP], 380], //              to x ≈ −22
  [[LEFT], 41], //             facing +Z
  [[UP, Z], 250], //           up the 30° ramp and off its high edge, firing
  [[RIGHT, X], 440], //        strafe-jumps
];

// Record mode's flight: [keys held, frames], ≈ 6 s (turns, a climb with the guns, a missile).
const RECORD_SCRIPT = [
  [[LEFT], 72],
  [[UP, X], 90],
  [[], 30],
  [[RIGHT, Z], 18],
  [[RIGHT], 72],
  [[DOWN], 48],
  [[], 30],
];
const COMBO = [DOWN, X, Z];

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
  // Frame-locked runtime (see the top): installed in every document, before its scripts.
  await page.evaluateOnNewDocument(() => {
    const w4 = { t: null, queue: [], lines: [] };
    window.requestAnimationFrame = (cb) => {
      w4.queue.push(cb);
      return w4.queue.length;
    };
    const log = console.log.bind(console);
    console.log = (...a) => {
      w4.lines.push(a.join(' '));
      log(...a);
    };
    // Run `n` frames; returns the console lines they printed.
    window.__w4step = (n) => {
      for (let i = 0; i < n; i++) {
        // The first step lies 1 s after the loop started: the runtime resynchronises its clock
        // to it (a gap ≥ 200 ms) and runs one update; then one update per 1000/60 ms step.
        w4.t = w4.t === null ? performance.now() + 1000 : w4.t + 1000 / 60;
        for (const cb of w4.queue.splice(0)) cb(w4.t);
      }
      return w4.lines.splice(0);
    };
    // True once the runtime's loop waits for its first frame.
    window.__w4ready = () => w4.queue.length > 0;
  });
  const lines = [];
  page.on('pageerror', (e) => lines.push(`pageerror: ${e.message}`));
  // Run `n` frames; returns the lines they printed (also kept in `lines`).
  const step = async (n) => {
    const got = await page.evaluate((n) => window.__w4step(n), n);
    lines.push(...got);
    return got;
  };
  // Press `keys`, run until a printed line satisfies `pred` (at most MAX_STEPS frames), release.
  const hold_until = async (keys, pred, what) => {
    for (const k of keys) await page.keyboard.down(k);
    let found = null;
    for (let i = 0; i < MAX_STEPS && found === null; i++) found = (await step(1)).find(pred) ?? null;
    for (const k of keys) await page.keyboard.up(k);
    if (found === null) throw new Error(`no ${what} within ${MAX_STEPS} frames`);
    return found;
  };
  // Play `script`, [keys, frames] by [keys, frames]; `at_tick(line)` is called right after the
  // frame that prints the hash line of HASH_TICK (before the next frame runs).
  const play = async (script, at_tick) => {
    for (const [keys, frames] of script) {
      for (const k of keys) await page.keyboard.down(k);
      for (let i = 0; i < frames; i++) {
        const hit = (await step(1)).find((l) => l.startsWith('state-hash:') && l.endsWith(` tick ${HASH_TICK}`));
        if (hit) await at_tick(hit);
      }
      for (const k of keys) await page.keyboard.up(k);
    }
  };
  const start = async () => {
    // Wait until the runtime has loaded the cart and its loop waits for a frame; focus the page.
    for (let i = 0; i < 200 && !(await page.evaluate(() => window.__w4ready())); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!(await page.evaluate(() => window.__w4ready()))) throw new Error('the runtime never asked for a frame');
    await page.mouse.click(320, 320);
  };
  await page.goto(pathToFileURL(resolve(page_path)).href, { waitUntil: 'load' });
  if (disk) {
    const bytes = [...readFileSync(disk)];
    await page.evaluate((z85) => {
      const prefix = document.getElementById('wasm4-disk-prefix')?.textContent;
      if (!prefix) throw new Error('no #wasm4-disk-prefix in the page');
      localStorage.setItem(`${prefix}-disk`, z85);
    }, z85(bytes));
    await page.reload({ waitUntil: 'load' });
  }
  await start();
  if (record) {
    await step(60);
    await hold_until(COMBO, (l) => l === 'record mode', '"record mode" line');
    await play(RECORD_SCRIPT, async () => {});
    const done = await hold_until(COMBO, (l) => l.startsWith('recorded '), '"recorded N ticks, M bytes" line');
    // The cart restarts on its disk in the same frame.
    const ghost_after = lines.slice(lines.indexOf(done)).find((l) => l.startsWith('ghost: '));
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
    writeFileSync(join(out_dir, 'disk-stored.ghost'), Buffer.from(bytes));
    writeFileSync(join(out_dir, 'recorded.txt'), `${done}\n`);
    console.log(`browser: ${done}; the cart restarted with "${ghost_after}"; disk ${bytes.length} bytes in localStorage`);
    if (ghost_after !== 'ghost: from disk') {
      console.error(`after recording the cart says "${ghost_after}", expected "ghost: from disk"`);
      failed = true;
    }
    // The next start: the runtime reads the disk back from localStorage.
    lines.length = 0;
    await page.reload({ waitUntil: 'load' });
    await start();
  }

  const script = tour ? TOUR : SCRIPT;
  let cart_line = null;
  await play(script, async (line) => {
    cart_line = line;
    // The picture at the hash tick (frame-locked: the same pixels every run).
    if (shot) {
      mkdirSync(dirname(resolve(shot)), { recursive: true });
      await page.screenshot({ path: shot });
    }
  });
  if (cart_line === null) throw new Error(`no "tick ${HASH_TICK}" hash line: the script is too short`);

  // Rebuild the bytes the cart read up to its hash line, in the last run (after the last
  // `ghost:` line the cart traces at start).
  const first = lines.findLastIndex((l) => l.startsWith('ghost: '));
  const ghost = first >= 0 ? lines[first] : '(no ghost line)';
  const bytes = [];
  for (const l of lines.slice(Math.max(first, 0))) {
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
  // Frame-locked: the cart read exactly the script's bytes.
  const BITS = { [UP]: 64, [DOWN]: 128, [LEFT]: 16, [RIGHT]: 32, [X]: 1, [Z]: 2 };
  const want = script.flatMap(([keys, n]) => Array(n).fill(keys.reduce((b, k) => b | BITS[k], 0))).slice(0, HASH_TICK);
  if (bytes.length !== HASH_TICK || bytes.some((b, i) => b !== want[i])) {
    const at = bytes.findIndex((b, i) => b !== want[i]);
    console.error(`the cart read other bytes than the script's (${bytes.length} ticks; first difference at tick ${at})`);
    failed = true;
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
