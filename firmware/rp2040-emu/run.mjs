#!/usr/bin/env node
// Runs the RP2040 board image — the very .uf2 a user copies to the RPI-RP2 drive — on rp2040js
// (the RP2040 emulator behind Wokwi: Cortex-M0+ core, timer, ADC, GPIO, I2C, UART), with the
// board's peripherals driven and watched from here:
//
//   - the sticks: the ADC's channel values, and the buttons: pin levels on GP2/GP3/GP6/GP7, set
//     tick by tick from a sticks file (`hopkit-sim sticks` format: `lx ly rx ry buttons` per
//     line). A tick starts when the board starts a conversion on channel 0 (it converts channels
//     0–3 once per tick, then reads the buttons), so tick t gets line t however its timing falls;
//   - the buttons held at power-on (--boot-buttons BITS, same bits): pressed from reset until the
//     first tick's line sets them (FIRE held chooses the level of solids, docs/firmware.md);
//   - the display: an SSD1306 at 0x3C on I2C0, answering every byte after 9 bit times of the bus
//     rate the board programmed; its commands and data are decoded into the panel's 128×64 memory,
//     a frame is complete when page 7's last byte arrives, and each frame is tagged with the tick
//     count when its first page began;
//   - the report: UART1 lines (`tick N state-hash: 0x…`), printed as they come;
//   - the cost: the phase pins GP18 (ticks), GP19 (sticks), GP20 (draw), GP21 (flush) timed on the
//     emulator's clock (125 MHz, 8 ns a cycle), and the time the core sleeps in `wfe`.
//
// usage: node run.mjs IMAGE.uf2 --sticks FILE [--ticks N] [--boot-buttons BITS] [--host-frames FILE]
//                     [--png-dir DIR] [--png-ticks T,T,…] [--flip-byte N] [--timeout-s S] [--json FILE]
//
// Exit status: 0 when the board reported every 600th tick up to N, nothing panicked and (with
// --host-frames) every captured frame equals the host's rendering of its tick; 1 otherwise; 2 on
// bad usage. Output lines are plain `key: value` text for scripts/ci-rp2040.sh.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { RP2040, ConsoleLogger, LogLevel } from 'rp2040js';

import { FAMILY_RP2040, FLASH_BASE, NS_PER_CYCLE, SSD1306, BUTTON_PINS, MARKERS, loadUf2, loadSticks, Ssd1306 } from './board.mjs';

function usage(msg) {
  if (msg) console.error(`rp2040-emu: ${msg}`);
  console.error(
    'usage: node run.mjs IMAGE.uf2 --sticks FILE [--ticks N] [--boot-buttons BITS] [--host-frames FILE] [--png-dir DIR] [--png-ticks T,…] [--flip-byte N] [--timeout-s S] [--json FILE]',
  );
  process.exit(2);
}

function parseArgs(argv) {
  const o = { ticks: 3600, bootButtons: 0, pngTicks: [], flipByte: -1, timeoutS: 600 };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
    if (a === '--sticks') o.sticks = val();
    else if (a === '--ticks') o.ticks = Number(val());
    else if (a === '--boot-buttons') o.bootButtons = Number(val());
    else if (a === '--host-frames') o.hostFrames = val();
    else if (a === '--png-dir') o.pngDir = val();
    else if (a === '--png-ticks') o.pngTicks = val().split(',').map(Number);
    else if (a === '--flip-byte') o.flipByte = Number(val());
    else if (a === '--timeout-s') o.timeoutS = Number(val());
    else if (a === '--json') o.json = val();
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else rest.push(a);
  }
  if (rest.length !== 1) usage('give one UF2 image');
  if (!o.sticks) usage('--sticks FILE is required');
  if (!Number.isInteger(o.ticks) || o.ticks < 1 || o.ticks > 36000) usage('--ticks must be 1..36000');
  if (!Number.isInteger(o.bootButtons) || o.bootButtons < 0 || o.bootButtons > 15) usage('--boot-buttons must be 0..15');
  o.uf2 = rest[0];
  return o;
}

// --- PNG (8-bit grey, no external dependency) ------------------------------------------------
const crcTable = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
/** The 128×64 panel memory (page-major, LSB on top) as an RGB PNG scaled `scale`×. */
function framePng(gddram, scale = 4) {
  const w = 128 * scale;
  const h = 64 * scale;
  const on = [0x9f, 0xe8, 0xff]; // the light blue of common SSD1306 modules
  const off = [0x08, 0x0c, 0x12];
  const rows = Buffer.alloc(h * (1 + w * 3));
  for (let y = 0; y < h; y++) {
    const py = Math.floor(y / scale);
    const row = y * (1 + w * 3);
    rows[row] = 0;
    for (let x = 0; x < w; x++) {
      const px = Math.floor(x / scale);
      const lit = (gddram[(py >> 3) * 128 + px] >> (py & 7)) & 1;
      const c = lit ? on : off;
      rows.set(c, row + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// --- the run --------------------------------------------------------------------------------
const opts = parseArgs(process.argv.slice(2));
const sticks = loadSticks(opts.sticks);
if (sticks.length < opts.ticks) usage(`${opts.sticks} has ${sticks.length} ticks, fewer than --ticks ${opts.ticks}`);

const mcu = new RP2040();
mcu.logger = new ConsoleLogger(LogLevel.Error);
const image = loadUf2(opts.uf2, mcu.flash);
console.log(`image: ${opts.uf2}: ${image.blocks} UF2 blocks, ${image.bytes} bytes of flash`);
// No boot ROM: start where the ROM would hand over, at boot2 in flash, with the ROM's stack.
mcu.core.PC = FLASH_BASE;
mcu.core.SP = 0x20042000;

const clock = mcu.clock;
const nowNs = () => clock.nanos;
let tick = 0; // ticks the board has started (conversions on channel 0)
let failed = false;
const fail = (msg) => {
  console.log(`FAIL: ${msg}`);
  failed = true;
};

// Sticks and buttons: a new tick's inputs when its first conversion starts.
const adcRead = mcu.adc.onADCRead;
mcu.adc.onADCRead = (channel) => {
  if (channel === 0) {
    const [lx, ly, rx, ry, buttons] = sticks[Math.min(tick, sticks.length - 1)];
    mcu.adc.channelValues[0] = lx;
    mcu.adc.channelValues[1] = ly;
    mcu.adc.channelValues[2] = rx;
    mcu.adc.channelValues[3] = ry;
    for (const [bit, pin] of BUTTON_PINS) mcu.gpio[pin].setInputValue(!(buttons & bit)); // pressed = low
    tick++;
  }
  adcRead(channel);
};
for (const [bit, pin] of BUTTON_PINS) mcu.gpio[pin].setInputValue(!(opts.bootButtons & bit));

// The I2C bus: bytes take 9 bit times at the rate in the controller's fast-mode SCL counts.
const i2c = mcu.i2c[0];
const panel = new Ssd1306();
const bitNs = () => (i2c.fsClockHighPeriod + i2c.fsClockLowPeriod) * NS_PER_CYCLE;
const later = (ns, fn) => clock.createAlarm(fn).schedule(ns);
let txn = null; // { control }
let frameTick = -1; // ticks started when the frame being received began (its page-0 window)
panel.onFrameStart = () => (frameTick = tick);
const frames = []; // { tick, bytes }
let busBytes = 0;
let nacks = 0;
i2c.onStart = () => later(bitNs(), () => i2c.completeStart());
i2c.onConnect = (address, mode) => {
  const ack = address === SSD1306 && mode === 0;
  if (!ack) nacks++;
  txn = { control: null };
  later(9 * bitNs(), () => i2c.completeConnect(ack));
};
i2c.onWriteByte = (b) => {
  busBytes++;
  if (txn.control === null) {
    txn.control = b; // 0x00: commands follow; 0x40: display data follows
  } else if (txn.control & 0x40) {
    if (panel.data(b)) {
      frames.push({ tick: frameTick, bytes: Uint8Array.from(panel.gddram) });
      frameTick = -1;
    }
  } else {
    panel.command(b);
  }
  later(9 * bitNs(), () => i2c.completeWrite(true));
};
i2c.onStop = () => later(bitNs(), () => i2c.completeStop());

// The report on UART1.
let line = '';
const report = [];
const hashes = new Map();
mcu.uart[1].onByte = (b) => {
  if (b !== 10) {
    line += String.fromCharCode(b);
    return;
  }
  const l = line.replace(/\r$/, '');
  line = '';
  report.push(l);
  console.log(`board: ${l}`);
  const m = /^tick (\d+) state-hash: (0x[0-9a-f]{16})/.exec(l);
  if (m) hashes.set(Number(m[1]), m[2]);
  if (l.startsWith('PANIC')) fail(`the board panicked: ${l}`);
};
let stopped = false;
mcu.onBreak = (code) => {
  stopped = true;
  fail(`breakpoint (bkpt ${code}) at 0x${mcu.core.PC.toString(16)}`);
};

// The phase pins: per poll that ran a tick, its ticks phase (sticks included) and the draw after it.
const durations = { sticks: [], ticks: [], draw: [], flush: [], frameWork: [] };
const risen = {};
let poll = null; // { ticked, ticks, draw } of the latest poll that ran a tick
let worst = null; // { work, ticks, draw, tick } of the poll with the most frame work
const closePoll = () => {
  if (poll && poll.ticked) {
    const work = poll.ticks + poll.draw;
    durations.frameWork.push(work);
    if (!worst || work > worst.work) worst = { work, ticks: poll.ticks, draw: poll.draw, tick: poll.tick };
  }
  poll = null;
};
for (const [name, pin] of Object.entries(MARKERS)) {
  mcu.gpio[pin].addListener((state) => {
    if (state === 1) {
      risen[name] = nowNs();
      if (name === 'ticks') closePoll(), (poll = { ticked: false, ticks: 0, draw: 0, tick: 0 });
      return;
    }
    if (state !== 0 || risen[name] === undefined) return;
    const dur = Math.round((nowNs() - risen[name]) / NS_PER_CYCLE);
    risen[name] = undefined;
    if (name === 'sticks' && poll) (poll.ticked = true), (poll.tick = tick);
    if (name === 'ticks' && poll) poll.ticks = dur;
    if (name === 'draw' && poll) poll.draw = dur;
    if (name !== 'ticks' || (poll && poll.ticked)) durations[name].push(dur);
  });
}

// Run: instruction by instruction while awake, straight to the next event while asleep.
const want = Math.floor(opts.ticks / 600) * 600 || opts.ticks;
const endNs = (opts.ticks / 60 + 2) * 1e9;
const wallEnd = Date.now() + opts.timeoutS * 1000;
let asleepNs = 0;
let instructions = 0;
let n = 0;
const core = mcu.core;
while (!stopped && !failed && !hashes.has(want)) {
  if (core.waiting) {
    const dt = clock.nanosToNextAlarm;
    if (dt <= 0) {
      fail('the core sleeps with nothing left to wake it');
      break;
    }
    asleepNs += dt;
    clock.tick(dt);
  } else {
    const cycles = core.executeInstruction();
    clock.tick(cycles * NS_PER_CYCLE);
    instructions++;
  }
  if ((++n & 0xfffff) === 0) {
    if (clock.nanos > endNs) fail(`no report of tick ${want} after ${(clock.nanos / 1e9).toFixed(1)} s of board time (ticks started: ${tick})`);
    else if (Date.now() > wallEnd) fail(`no report of tick ${want} after ${opts.timeoutS} s of wall time (ticks started: ${tick})`);
  }
}
const boardNs = clock.nanos;

// --- results --------------------------------------------------------------------------------
for (const t of [600, 3600].filter((t) => t <= want)) {
  if (hashes.has(t)) console.log(`emulator tick ${t}: state-hash: ${hashes.get(t)}`);
  else fail(`no state-hash line for tick ${t}`);
}
closePoll();
const stat = (xs) => {
  let sum = 0;
  let max = 0;
  for (const x of xs) (sum += x), (max = Math.max(max, x));
  return { mean: xs.length ? Math.round(sum / xs.length) : 0, max, count: xs.length };
};
const sticksC = stat(durations.sticks);
const ticksC = stat(durations.ticks);
const drawC = stat(durations.draw);
const flushC = stat(durations.flush);
const workC = stat(durations.frameWork);
const asleep = asleepNs / boardNs;
console.log(`board-time: ${(boardNs / 1e9).toFixed(3)} s, ${instructions} instructions executed`);
console.log(`i2c: ${(1e9 / (9 * bitNs()) * 9 / 1000).toFixed(0)} kHz SCL, ${busBytes} bytes to 0x3c, ${nacks} unanswered addresses, ${frames.length} frames`);
console.log(`cycles-sticks: mean ${sticksC.mean} max ${sticksC.max}`);
console.log(`cycles-ticks (sticks + buttons + tick): mean ${ticksC.mean} max ${ticksC.max}`);
console.log(`cycles-draw: mean ${drawC.mean} max ${drawC.max}`);
console.log(`cycles-flush-pass: mean ${flushC.mean} max ${flushC.max} (${flushC.count} passes)`);
console.log(`cycles-frame-work (sticks + tick + draw): mean ${workC.mean} max ${workC.max} (${workC.count} polls)`);
if (worst) console.log(`worst-frame: tick ${worst.tick}: ticks ${worst.ticks} + draw ${worst.draw} cycles`);
console.log(`asleep: ${(asleep * 100).toFixed(1)} %`);

// Frames: pictures, and the comparison with the host's rendering.
// For each --png-ticks T: the first frame drawn at or after tick T.
if (opts.pngDir) {
  fs.mkdirSync(opts.pngDir, { recursive: true });
  for (const t of opts.pngTicks) {
    const f = frames.find((f) => f.tick >= t);
    if (!f) continue;
    const file = path.join(opts.pngDir, `oled-tick-${f.tick}.png`);
    fs.writeFileSync(file, framePng(f.bytes));
    console.log(`png: ${file}`);
  }
}
if (opts.hostFrames) {
  if (opts.flipByte >= 0 && frames.length > 0) {
    const f = frames[Math.floor(frames.length / 2)];
    f.bytes[opts.flipByte % 1024] ^= 0x01;
    console.log(`negative control: flipped bit 0 of byte ${opts.flipByte % 1024} in the frame of tick ${f.tick}`);
  }
  const host = fs.readFileSync(opts.hostFrames);
  let compared = 0;
  let differ = 0;
  for (const f of frames) {
    if (f.tick < 1 || f.tick * 1024 > host.length) continue;
    const h = host.subarray((f.tick - 1) * 1024, f.tick * 1024);
    compared++;
    if (!h.equals(Buffer.from(f.bytes))) {
      differ++;
      // Say whether it is a neighbouring tick's picture (a timing mix-up, not a drawing error).
      if (differ <= 3)
        for (let k = Math.max(1, f.tick - 3); k <= f.tick + 3 && k * 1024 <= host.length; k++)
          if (k !== f.tick && host.subarray((k - 1) * 1024, k * 1024).equals(Buffer.from(f.bytes)))
            console.log(`  (the frame of tick ${f.tick} equals the host's frame after tick ${k})`);
      if (differ <= 3) {
        let px = 0;
        for (let i = 0; i < 1024; i++) for (let b = h[i] ^ f.bytes[i]; b; b &= b - 1) px++;
        console.log(`frame of tick ${f.tick}: ${px} pixels differ from the host's rendering`);
      }
    }
  }
  console.log(`frames-compared: ${compared}, differing: ${differ}`);
  if (compared === 0) fail('no frame to compare with the host');
  if (differ > 0) fail(`${differ} of ${compared} frames differ from the host's rendering`);
}
if (opts.json) {
  fs.writeFileSync(
    opts.json,
    JSON.stringify({ hashes: Object.fromEntries(hashes), cycles: { sticks: sticksC, ticks: ticksC, draw: drawC, flush: flushC, frameWork: workC }, asleep, frames: frames.length, boardNs, report }, null, 1),
  );
}
console.log(failed ? 'rp2040-emu: FAIL' : 'rp2040-emu: ok');
process.exit(failed ? 1 : 0);
