import { flatString } from './flat-string.js';

// Two hex digits for each byte value.
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
// Random bytes are drawn from the runtime's CSPRNG 64 ids' worth at a time: one call per 64 ids.
const POOL_IDS = 64;
const random = new Uint8Array(POOL_IDS * 10);
let next = POOL_IDS;

/**
 * A new message's id: a version 7 UUID (RFC 9562) whose first 48 bits are `now`, epoch ms, and
 * whose other 74 bits are random, from the runtime's CSPRNG (`crypto.getRandomValues`), as one flat
 * string. Ids grow with time, so an index on them grows at its right edge instead of taking each
 * insert at a random place; ids of one millisecond are in random order among themselves.
 */
export function newMessageId(now: number): string {
  if (next === POOL_IDS) {
    crypto.getRandomValues(random);
    next = 0;
  }
  const r = next++ * 10;
  const ms = Math.max(0, Math.floor(now));
  // 48 bits of ms as a 12-digit hex number: exact for every ms below 2^53.
  const time = ms.toString(16).padStart(12, '0').slice(-12);
  return flatString(
    `${time.slice(0, 8)}-${time.slice(8)}-7${HEX[random[r]! & 0x0f]!.slice(1)}${HEX[random[r + 1]!]}-${HEX[(random[r + 2]! & 0x3f) | 0x80]}${HEX[random[r + 3]!]}-${HEX[random[r + 4]!]}${HEX[random[r + 5]!]}${HEX[random[r + 6]!]}${HEX[random[r + 7]!]}${HEX[random[r + 8]!]}${HEX[random[r + 9]!]}`,
  );
}
