import { ChannelWebhookError } from '../errors.js';

// SHA-256 round constants (FIPS 180-4, 4.2.2).
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
// Message schedule, reused by every call (JavaScript runs one call at a time).
const W = new Int32Array(64);
const HEX_DIGIT = new TextEncoder().encode('0123456789abcdef');
const hexText = new Uint8Array(64);
const decoder = new TextDecoder();

const INITIAL = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/**
 * Writes the SHA-256 of `text` into `out` as eight big-endian 32-bit words.
 *
 * Only for what the library hashes: secrets (43 ASCII characters) and the constant compared against
 * for unknown webhooks, ASCII text of at most 55 characters, which is one 64-byte block. It computes
 * that block in place, without the allocations of a general-purpose hasher, which were most of the
 * cost of checking a secret. Anything longer, or not ASCII, is a programming error and throws.
 */
export function sha256Words(text: string, out: Int32Array): void {
  if (text.length > 55 || !fillAsciiBlock(text)) {
    throw new ChannelWebhookError('invalid_argument', 'sha256Words hashes ASCII text of at most 55 characters (a secret)');
  }
  for (let i = 16; i < 64; i++) {
    const a = W[i - 15]!;
    const b = W[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = INITIAL[0]!,
    b = INITIAL[1]!,
    c = INITIAL[2]!,
    d = INITIAL[3]!;
  let e = INITIAL[4]!,
    f = INITIAL[5]!,
    g = INITIAL[6]!,
    h = INITIAL[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  out[0] = INITIAL[0]! + a;
  out[1] = INITIAL[1]! + b;
  out[2] = INITIAL[2]! + c;
  out[3] = INITIAL[3]! + d;
  out[4] = INITIAL[4]! + e;
  out[5] = INITIAL[5]! + f;
  out[6] = INITIAL[6]! + g;
  out[7] = INITIAL[7]! + h;
}

// Lays out `text` (ASCII, at most 55 characters) as the one padded message block in W[0..15];
// false for non-ASCII text.
function fillAsciiBlock(text: string): boolean {
  const length = text.length;
  for (let word = 0; word < 16; word++) W[word] = 0;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return false;
    W[i >> 2]! |= code << (24 - (i & 3) * 8);
  }
  W[length >> 2]! |= 0x80 << (24 - (length & 3) * 8);
  W[15] = length * 8;
  return true;
}

const words = new Int32Array(8);

/**
 * Lower-case hex SHA-256 of `text`'s UTF-8 bytes, as one flat string: stores keep it for the
 * webhook's life, and one joined piece by piece would be a tree of some 30 strings (~400 bytes
 * instead of ~80) until first read.
 */
export function sha256Hex(text: string): string {
  sha256Words(text, words);
  for (let i = 0; i < 64; i++) hexText[i] = HEX_DIGIT[(words[i >> 3]! >>> (28 - (i & 7) * 4)) & 15]!;
  return decoder.decode(hexText);
}
