import { randomFillSync } from 'node:crypto';

// Random bytes are drawn 4 KiB at a time: one syscall-backed fill per ~250 ids instead of two per id.
const POOL = Buffer.allocUnsafe(4096);
let poolOffset = POOL.length;
function random(n: number): Buffer {
  if (poolOffset + n > POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const out = Buffer.from(POOL.subarray(poolOffset, poolOffset + n));
  poolOffset += n;
  return out;
}

/**
 * Time-ordered ids (UUIDv7 layout: 48-bit ms timestamp, then randomness), rendered as
 * `<prefix>_<32 hex>`. Time order keeps newest-first pages cheap; the prefix tells a reader
 * what an id names.
 */
let lastMs = 0;
let seq = 0;

export function uuidv7(now = Date.now()): string {
  // A counter in rand_a keeps ids monotonic within one millisecond in this process.
  if (now <= lastMs) {
    now = lastMs;
    seq = (seq + 1) & 0xfff;
    if (seq === 0) now = ++lastMs;
  } else {
    seq = random(2).readUInt16BE(0) & 0x7ff;
  }
  lastMs = now;
  const bytes = random(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (seq >> 8);
  bytes[7] = seq & 0xff;
  bytes[8] = (bytes.readUInt8(8) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function newId(prefix: string): string {
  return `${prefix}_${uuidv7().replace(/-/g, '')}`;
}
