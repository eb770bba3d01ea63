// What run.mjs (one board) and link.mjs (two boards on a link cable) share: the UF2 loader, the
// sticks file, the SSD1306 stub on I2C0, the phase pins' timing.
import fs from 'node:fs';

export const FAMILY_RP2040 = 0xe48bff56;
export const FLASH_BASE = 0x10000000;
export const NS_PER_CYCLE = 8; // rp2040js runs its core at 125 MHz
export const SSD1306 = 0x3c;
export const BUTTON_PINS = [
  [1, 2], // JUMP  → GP2
  [2, 3], // FIRE  → GP3
  [4, 6], // LEFT_STICK  → GP6
  [8, 7], // RIGHT_STICK → GP7
];
export const MARKERS = { ticks: 18, sticks: 19, draw: 20, flush: 21 };

// --- UF2 → flash (read independently of the repository's own converter) -------------------
export function loadUf2(file, flash) {
  const data = fs.readFileSync(file);
  if (data.length === 0 || data.length % 512 !== 0) throw new Error(`${file}: not a whole number of 512-byte UF2 blocks`);
  const total = data.length / 512;
  let bytes = 0;
  for (let b = 0; b < total; b++) {
    const blk = data.subarray(b * 512, b * 512 + 512);
    const w = (o) => blk.readUInt32LE(o);
    if (w(0) !== 0x0a324655 || w(4) !== 0x9e5d5157 || w(508) !== 0x0ab16f30) throw new Error(`${file}: block ${b}: bad magic`);
    if (!(w(8) & 0x2000) || w(28) !== FAMILY_RP2040) throw new Error(`${file}: block ${b}: not an RP2040 block (family 0x${w(28).toString(16)})`);
    if (w(20) !== b || w(24) !== total) throw new Error(`${file}: block ${b}: numbered ${w(20)} of ${w(24)}, expected ${b} of ${total}`);
    const addr = w(12);
    const size = w(16);
    if (size > 476 || addr < FLASH_BASE || addr + size > FLASH_BASE + flash.length) throw new Error(`${file}: block ${b}: payload outside flash`);
    flash.set(blk.subarray(32, 32 + size), addr - FLASH_BASE);
    bytes += size;
  }
  return { blocks: total, bytes };
}

// --- sticks file ---------------------------------------------------------------------------
export function loadSticks(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const ticks = [];
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '').trim();
    if (line === '' || line.startsWith('#')) return;
    const f = line.split(/[ \t]+/).map(Number);
    if (f.length !== 5 || f.some((v) => !Number.isInteger(v) || v < 0) || f.slice(0, 4).some((v) => v > 4095) || f[4] > 15)
      throw new Error(`${file}:${i + 1}: expected "lx ly rx ry buttons" (counts 0..4095, buttons 0..15)`);
    ticks.push(f);
  });
  return ticks;
}

// --- SSD1306 on the emulated I2C0 -----------------------------------------------------------
// Argument counts of the commands the panel takes (fundamental, scrolling, addressing, hardware
// configuration and timing tables of the SSD1306 datasheet); a command not listed takes none.
const ARGS = { 0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xa8: 1, 0xd3: 1, 0xda: 1, 0xd5: 1, 0xd9: 1, 0xdb: 1, 0x8d: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5, 0xa3: 2 };
export class Ssd1306 {
  constructor() {
    this.gddram = new Uint8Array(1024);
    this.colStart = 0;
    this.colEnd = 127;
    this.pageStart = 0;
    this.pageEnd = 7;
    this.col = 0;
    this.page = 0;
    this.mode = 2; // page addressing after reset
    this.commands = []; // every command, with its arguments
    this.on = false;
    this.pending = null; // command waiting for arguments
    this.onFrameStart = () => {}; // a page window starting at page 0 was set
  }
  command(b) {
    if (this.pending) {
      this.pending.args.push(b);
      if (this.pending.args.length < ARGS[this.pending.op]) return;
      this.apply(this.pending.op, this.pending.args);
      this.pending = null;
      return;
    }
    if (ARGS[b]) this.pending = { op: b, args: [] };
    else this.apply(b, []);
  }
  apply(op, args) {
    this.commands.push([op, ...args]);
    if (op === 0x20) this.mode = args[0] & 3;
    else if (op === 0x21) [this.colStart, this.colEnd, this.col] = [args[0] & 127, args[1] & 127, args[0] & 127];
    else if (op === 0x22) {
      [this.pageStart, this.pageEnd, this.page] = [args[0] & 7, args[1] & 7, args[0] & 7];
      if (this.page === 0) this.onFrameStart();
    }
    else if (op === 0xaf) this.on = true;
    else if (op === 0xae) this.on = false;
    else if (op >= 0xb0 && op <= 0xb7) this.page = op & 7;
  }
  /** One display-RAM byte; returns true when it was the last byte of the window (frame end). */
  data(b) {
    this.gddram[this.page * 128 + this.col] = b;
    if (this.mode !== 0) {
      this.col = (this.col + 1) & 127;
      return false;
    }
    if (this.col < this.colEnd) {
      this.col++;
      return false;
    }
    this.col = this.colStart;
    const last = this.page === 7;
    this.page = this.page < this.pageEnd ? this.page + 1 : this.pageStart;
    return last;
  }
}

