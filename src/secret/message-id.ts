// Random bytes for 256 ids at a time: one call to the system's generator instead of one per id.
const pool = new Uint8Array(16 * 256);
let used = pool.length;
const HEX = new Uint8Array(16);
for (let digit = 0; digit < 16; digit++) HEX[digit] = '0123456789abcdef'.charCodeAt(digit);
// Where the two hex digits of each of the 16 bytes go in `xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx`.
const AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const text = new Uint8Array(36).fill(0x2d); // '-' stays at 8, 13, 18 and 23
const decoder = new TextDecoder();

/**
 * A random (version 4) UUID, as `crypto.randomUUID()` gives, built as one flat string: the
 * runtime's own is a chain of some twenty joined pieces, which a stored message keeps and every
 * collection walks.
 */
export function randomMessageId(): string {
  if (used === pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  for (let i = 0; i < 16; i++) {
    let byte = pool[used + i]!;
    if (i === 6)
      byte = (byte & 0x0f) | 0x40; // version 4
    else if (i === 8) byte = (byte & 0x3f) | 0x80; // variant 10
    const at = AT[i]!;
    text[at] = HEX[byte >> 4]!;
    text[at + 1] = HEX[byte & 15]!;
  }
  used += 16;
  return decoder.decode(text);
}
