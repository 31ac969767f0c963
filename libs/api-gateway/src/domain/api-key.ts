/**
 * API key format (DESIGN 6.1): `igw_` + 32 base62 characters + a 6-character base62 checksum
 * (CRC-32 of the body). The checksum lets the gateway reject typos and random strings without a
 * lookup, and lets secret scanners recognise our keys.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const API_KEY_PREFIX = 'igw_';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const WELL_FORMED = /^igw_[0-9A-Za-z]{38}$/;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = (CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** Builds a key from 32 random bytes (one base62 character per byte, bias-free by rejection upstream). */
export function formatApiKey(randomBody: string): string {
  if (randomBody.length !== BODY_LENGTH || !/^[0-9A-Za-z]+$/.test(randomBody)) throw new Error('key body must be 32 base62 characters');
  return `${API_KEY_PREFIX}${randomBody}${base62(crc32(randomBody), CHECKSUM_LENGTH)}`;
}

export function isWellFormedApiKey(key: string): boolean {
  if (!WELL_FORMED.test(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY_LENGTH);
  return key.slice(-CHECKSUM_LENGTH) === base62(crc32(body), CHECKSUM_LENGTH);
}

/** Keys from the environment (PLATFORM_ADMIN_KEY, BOOTSTRAP_ADMIN_KEY) only need length. */
export function isAcceptableKey(key: string): boolean {
  return isWellFormedApiKey(key) || (key.length >= 32 && key.length <= 256 && !/\s/.test(key));
}

/** What may be shown of a key after creation: enough to recognise it, nothing to use. */
export function displayPrefix(key: string): string {
  return key.slice(0, 12);
}

export const BASE62_ALPHABET = BASE62;
