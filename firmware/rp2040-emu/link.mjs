#!/usr/bin/env node
// Two RP2040 boards on a link cable, in one process: two rp2040js instances of the same UF2, each
// with its own sticks file, an SSD1306 answering on its I2C0 and its UART1 report read, and their
// UART0s wired to each other by this harness — TX of one to RX of the other, both ways:
//
//   - a byte written to one board's UART0 leaves at the baud rate that board programmed (10 bit
//     times, 8N1, one after another) and reaches the other board's receive FIFO --delay-ms after
//     its last bit; a byte that finds the 32-byte FIFO full is lost (an overrun, counted);
//   - impairments from a seeded PRNG: --drop-ppm (bytes lost), --flip-ppm (one bit flipped);
//     --cut-s A-B (every byte sent between A and B seconds is lost: the cable pulled and put back);
//   - board 2 starts --offset-ms after board 1 (two boards never power up in the same µs).
//
// The boards run in time order, the one behind first, in slices of at most 20 µs of board time.
// Board i's stick samples and buttons come from its file, line k at its k-th conversion of
// channel 0, as run.mjs does. The cost per poll that read the sticks (ticks + draw phases) is timed
// from the phase pins on each board's clock.
//
// usage: node link.mjs IMAGE.uf2 --sticks A --sticks B [--frames N] [--delay-ms D] [--drop-ppm P]
//                      [--flip-ppm P] [--cut-s A-B] [--offset-ms O] [--seed S] [--timeout-s S]
//                      [--json FILE]
//
// Prints each board's report lines prefixed `board N:`, then per board `board N frame F
// state-hash: 0x…` for F = 600 (and 3,600 when --frames reaches it) and the counters. Exit status
// 0 when both boards reported frame N's hash of their match (or, with --cut-s, of a second match),
// nothing panicked; 1 otherwise; 2 on bad usage. The hashes' equality with each other and the
// host's replay is scripts/ci-link.sh's check.
import fs from 'node:fs';
import { RP2040, ConsoleLogger, LogLevel } from 'rp2040js';
import { FLASH_BASE, NS_PER_CYCLE, SSD1306, BUTTON_PINS, MARKERS, loadUf2, loadSticks } from './board.mjs';

function usage(msg) {
  if (msg) console.error(`rp2040-link: ${msg}`);
  console.error(
    'usage: node link.mjs IMAGE.uf2 --sticks A --sticks B [--frames N] [--delay-ms D] [--drop-ppm P] [--flip-ppm P] [--cut-s A-B] [--offset-ms O] [--seed S] [--timeout-s S] [--json FILE]',
  );
  process.exit(2);
}

function parseArgs(argv) {
  const o = { sticks: [], frames: 600, delayMs: 0, dropPpm: 0, flipPpm: 0, cut: null, offsetMs: 3.3, seed: 38, timeoutS: 900 };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
    const num = (lo, hi) => {
      const v = Number(val());
      if (!Number.isFinite(v) || v < lo || v > hi) usage(`${a} must be ${lo}..${hi}`);
      return v;
    };
    if (a === '--sticks') o.sticks.push(val());
    else if (a === '--frames') o.frames = num(1, 36000);
    else if (a === '--delay-ms') o.delayMs = num(0, 1000);
    else if (a === '--drop-ppm') o.dropPpm = num(0, 1e6);
    else if (a === '--flip-ppm') o.flipPpm = num(0, 1e6);
    else if (a === '--offset-ms') o.offsetMs = num(0, 1000);
    else if (a === '--seed') o.seed = num(0, 2 ** 31);
    else if (a === '--timeout-s') o.timeoutS = num(1, 36000);
    else if (a === '--json') o.json = val();
    else if (a === '--cut-s') {
      const m = /^([0-9.]+)-([0-9.]+)$/.exec(val());
      if (!m || !(Number(m[1]) < Number(m[2]))) usage('--cut-s A-B (seconds, A < B)');
      o.cut = [Number(m[1]) * 1e9, Number(m[2]) * 1e9];
    } else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else rest.push(a);
  }
  if (rest.length !== 1) usage('give one UF2 image');
  if (o.sticks.length !== 2) usage('give --sticks twice (board 1, board 2)');
  o.uf2 = rest[0];
  return o;
}

const opts = parseArgs(process.argv.slice(2));
let failed = false;
const fail = (msg) => {
  console.log(`FAIL: ${msg}`);
  failed = true;
};

// A small seeded PRNG (xorshift32) for the wire's impairments.
let rng = opts.seed >>> 0 || 1;
const random = () => {
  rng ^= rng << 13;
  rng >>>= 0;
  rng ^= rng >>> 17;
  rng ^= rng << 5;
  rng >>>= 0;
  return rng / 2 ** 32;
};

class Board {
  constructor(n, sticksFile, startNs) {
    this.n = n;
    this.startNs = startNs;
    this.sticks = loadSticks(sticksFile);
    this.mcu = new RP2040();
    this.mcu.logger = new ConsoleLogger(LogLevel.Error);
    this.image = loadUf2(opts.uf2, this.mcu.flash);
    this.mcu.core.PC = FLASH_BASE;
    this.mcu.core.SP = 0x20042000;
    this.inputs = 0; // conversions of channel 0 = inputs read
    this.report = [];
    this.hashes = new Map(); // `${match}:${frame}` → hash
    this.matches = []; // { match, seat, from }
    this.lost = [];
    this.desyncs = [];
    this.counters = null;
    this.stopped = false;
    this.instructions = 0;
    this.asleepNs = 0;
    this.work = []; // cycles per poll that read the sticks (ticks + draw)
    this.rx = []; // [arrivalGlobalNs, byte]
    this.lineFreeNs = 0;
    this.overruns = 0;
    const mcu = this.mcu;
    const adcRead = mcu.adc.onADCRead;
    mcu.adc.onADCRead = (channel) => {
      if (channel === 0) {
        const [lx, ly, rx, ry, buttons] = this.sticks[Math.min(this.inputs, this.sticks.length - 1)];
        mcu.adc.channelValues[0] = lx;
        mcu.adc.channelValues[1] = ly;
        mcu.adc.channelValues[2] = rx;
        mcu.adc.channelValues[3] = ry;
        for (const [bit, pin] of BUTTON_PINS) mcu.gpio[pin].setInputValue(!(buttons & bit));
        this.inputs++;
      }
      adcRead(channel);
    };
    for (const [, pin] of BUTTON_PINS) mcu.gpio[pin].setInputValue(true);
    // The panel: every byte acknowledged after 9 bit times (frames are not decoded here).
    const i2c = mcu.i2c[0];
    const bitNs = () => (i2c.fsClockHighPeriod + i2c.fsClockLowPeriod) * NS_PER_CYCLE;
    const later = (ns, fn) => mcu.clock.createAlarm(fn).schedule(ns);
    i2c.onStart = () => later(bitNs(), () => i2c.completeStart());
    i2c.onConnect = (address, mode) => later(9 * bitNs(), () => i2c.completeConnect(address === SSD1306 && mode === 0));
    i2c.onWriteByte = () => later(9 * bitNs(), () => i2c.completeWrite(true));
    i2c.onStop = () => later(bitNs(), () => i2c.completeStop());
    // The report on UART1.
    let line = '';
    mcu.uart[1].onByte = (b) => {
      if (b !== 10) return void (line += String.fromCharCode(b));
      const l = line.replace(/\r$/, '');
      line = '';
      this.line(l);
    };
    mcu.onBreak = (code) => {
      this.stopped = true;
      fail(`board ${n}: breakpoint (bkpt ${code}) at 0x${mcu.core.PC.toString(16)}`);
    };
    // The phase pins: the ticks phase that read the sticks, plus the draw after it.
    let risen = {};
    let poll = null;
    const close = () => {
      if (poll && poll.ticked) this.work.push(poll.ticks + poll.draw);
      poll = null;
    };
    this.closePoll = close;
    for (const [name, pin] of Object.entries(MARKERS)) {
      mcu.gpio[pin].addListener((state) => {
        if (state === 1) {
          risen[name] = mcu.clock.nanos;
          if (name === 'ticks') close(), (poll = { ticked: false, ticks: 0, draw: 0 });
          return;
        }
        if (state !== 0 || risen[name] === undefined) return;
        const dur = Math.round((mcu.clock.nanos - risen[name]) / NS_PER_CYCLE);
        risen[name] = undefined;
        if (!poll) return;
        if (name === 'sticks') poll.ticked = true;
        if (name === 'ticks') poll.ticks = dur;
        if (name === 'draw') poll.draw = dur;
      });
    }
  }
  get nowNs() {
    return this.startNs + this.mcu.clock.nanos;
  }
  line(l) {
    this.report.push(l);
    console.log(`board ${this.n}: ${l}`);
    if (l.startsWith('PANIC')) fail(`board ${this.n} panicked: ${l}`);
    let m = /^link: match (\d+) up, seat (\d) of 2, frame 0 at input (\d+)/.exec(l);
    if (m) this.matches.push({ match: Number(m[1]), seat: Number(m[2]), from: Number(m[3]), atNs: this.nowNs });
    m = /^link frame (\d+) state-hash: (0x[0-9a-f]{16}) (.*)$/.exec(l);
    if (m) {
      const match = this.matches.length ? this.matches[this.matches.length - 1].match : 0;
      this.hashes.set(`${match}:${m[1]}`, m[2]);
      const c = {};
      const f = m[3].split(' ');
      for (let i = 0; i + 1 < f.length; i += 2) c[f[i]] = Number(f[i + 1]);
      this.counters = c;
    }
    if (l.startsWith('link: lost')) this.lost.push(this.nowNs);
    if (l.startsWith('link: DESYNC')) this.desyncs.push(l);
  }
  // Run until global time `untilNs` (board time), instruction by instruction while awake.
  run(untilNs) {
    const core = this.mcu.core;
    const clock = this.mcu.clock;
    const until = untilNs - this.startNs;
    while (!this.stopped && clock.nanos < until) {
      this.deliver();
      if (core.waiting) {
        let dt = clock.nanosToNextAlarm;
        const nextByte = this.rx.length ? this.rx[0][0] - this.startNs - clock.nanos : Infinity;
        dt = Math.min(dt, until - clock.nanos, Math.max(1, nextByte));
        if (!(dt > 0)) dt = 1;
        this.asleepNs += dt;
        clock.tick(dt);
      } else {
        const cycles = core.executeInstruction();
        clock.tick(cycles * NS_PER_CYCLE);
        this.instructions++;
      }
    }
  }
  deliver() {
    const uart = this.mcu.uart[0];
    while (this.rx.length && this.rx[0][0] <= this.nowNs) {
      const [, b] = this.rx.shift();
      if (uart.rxFIFO.full) this.overruns++;
      else uart.feedByte(b);
    }
  }
}

const boards = [new Board(1, opts.sticks[0], 0), new Board(2, opts.sticks[1], opts.offsetMs * 1e6)];
for (const b of boards) console.log(`image: ${opts.uf2}: ${b.image.blocks} UF2 blocks, ${b.image.bytes} bytes of flash (board ${b.n})`);
const wire = [
  { sent: 0, lost: 0, flipped: 0, cut: 0 },
  { sent: 0, lost: 0, flipped: 0, cut: 0 },
];
boards.forEach((from, i) => {
  const to = boards[1 - i];
  const uart = from.mcu.uart[0];
  const w = wire[i];
  uart.onByte = (b) => {
    const now = from.nowNs;
    const byteNs = (10 * 1e9) / (uart.baudRate || 115200);
    const start = Math.max(now, from.lineFreeNs);
    from.lineFreeNs = start + byteNs;
    w.sent++;
    if (opts.cut && now >= opts.cut[0] && now < opts.cut[1]) return void w.cut++;
    if (opts.dropPpm && random() * 1e6 < opts.dropPpm) return void w.lost++;
    if (opts.flipPpm && random() * 1e6 < opts.flipPpm) {
      b ^= 1 << Math.floor(random() * 8);
      w.flipped++;
    }
    to.rx.push([from.lineFreeNs + opts.delayMs * 1e6, b]);
  };
});

// Done when both boards reported frame N of their (last expected) match.
const wantMatch = opts.cut ? 2 : 1;
const want = Math.floor(opts.frames / 600) * 600 || opts.frames;
const done = () => boards.every((b) => b.hashes.has(`${wantMatch}:${want}`));
const SLICE_NS = 20_000;
const wallEnd = Date.now() + opts.timeoutS * 1000;
const boardEnd = ((opts.cut ? opts.cut[1] / 1e9 : 0) + opts.frames / 60 + 20) * 1e9;
const t0 = Date.now();
let n = 0;
while (!failed && !done()) {
  const [a, b] = boards[0].nowNs <= boards[1].nowNs ? boards : [boards[1], boards[0]];
  a.run(Math.max(a.nowNs, b.nowNs) + SLICE_NS);
  if (boards.some((x) => x.stopped)) break;
  if ((++n & 0x3ff) === 0) {
    if (a.nowNs > boardEnd) fail(`no frame ${want} of match ${wantMatch} after ${(a.nowNs / 1e9).toFixed(1)} s of board time`);
    else if (Date.now() > wallEnd) fail(`no frame ${want} of match ${wantMatch} after ${opts.timeoutS} s of wall time`);
  }
}
const wallS = (Date.now() - t0) / 1000;

// --- results --------------------------------------------------------------------------------
const stat = (xs) => {
  let sum = 0;
  let max = 0;
  for (const x of xs) (sum += x), (max = Math.max(max, x));
  return { mean: xs.length ? Math.round(sum / xs.length) : 0, max, count: xs.length };
};
const out = { boards: [], wire, wallS };
for (const b of boards) {
  b.closePoll();
  const m = b.matches.find((x) => x.match === wantMatch) || b.matches[b.matches.length - 1];
  for (const f of [600, 3600].filter((f) => f <= want)) {
    const h = b.hashes.get(`${wantMatch}:${f}`);
    if (h) console.log(`board ${b.n} match ${wantMatch} frame ${f} state-hash: ${h}`);
    else fail(`board ${b.n}: no state-hash of frame ${f} in match ${wantMatch}`);
  }
  const w = stat(b.work);
  const c = b.counters || {};
  console.log(`board ${b.n} seat: ${m ? m.seat : '?'}, match ${m ? m.match : '?'} from input ${m ? m.from : '?'}`);
  console.log(`board ${b.n} rollbacks: ${c.rollbacks} deepest ${c.deepest} resimulated ${c.resimulated} stalls ${c.stalls} skips ${c.skips} checks ${c.checks} desyncs ${c.desyncs} packets ${c.packets} dropped ${c.dropped} rx-lost ${c['rx-lost']} dropped-ns ${c['dropped-ns']} max-ticks-per-poll ${c['max-ticks-per-poll']}`);
  console.log(`board ${b.n} cycles-frame-work (sticks + ticks + draw): mean ${w.mean} max ${w.max} (${w.count} polls)`);
  console.log(`board ${b.n} links-lost: ${b.lost.length}${b.lost.length ? ` (at ${b.lost.map((t) => (t / 1e9).toFixed(3)).join(', ')} s)` : ''}, desyncs reported: ${b.desyncs.length}, uart-overruns: ${b.overruns}`);
  out.boards.push({ n: b.n, matches: b.matches, hashes: Object.fromEntries(b.hashes), counters: c, work: w, lost: b.lost, desyncs: b.desyncs, overruns: b.overruns, boardS: b.mcu.clock.nanos / 1e9, asleep: b.asleepNs / b.mcu.clock.nanos, instructions: b.instructions });
}
for (const [i, w] of wire.entries()) console.log(`wire ${['1→2', '2→1'][i]}: ${w.sent} bytes sent, ${w.lost} dropped, ${w.flipped} flipped, ${w.cut} lost to the cut`);
console.log(`wall-time: ${wallS.toFixed(1)} s for ${(boards[0].mcu.clock.nanos / 1e9).toFixed(2)} s of board time`);
if (opts.json) fs.writeFileSync(opts.json, JSON.stringify(out, null, 1));
console.log(failed ? 'rp2040-link: FAIL' : 'rp2040-link: ok');
process.exit(failed ? 1 : 0);
