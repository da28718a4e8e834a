/**
 * The Redis Cluster slot of a key, as every cluster node computes it: CRC16 (XMODEM) of the key's
 * UTF-8 bytes, or of its hash tag (the bytes between the first `{` and the next `}`, when there are
 * any), modulo 16,384. The limiter needs it to put in one `EVALSHA` only keys of one slot.
 */
export function keySlot(key: string): number {
  // Braces are ASCII and no byte of a longer UTF-8 character is one, so the tag found in the string
  // is the tag in the bytes.
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return crc16(key.slice(open + 1, close)) % SLOTS;
  }
  return crc16(key) % SLOTS;
}

const SLOTS = 16_384;
const encoder = new TextEncoder();

const TABLE = Uint16Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
  return crc & 0xffff;
});

/** CRC16 of the text's UTF-8 bytes; an ASCII text (every key the library makes) is its own bytes, and is not encoded. */
function crc16(text: string): number {
  let crc = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return crc16OfBytes(encoder.encode(text));
    crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ code) & 0xff]!;
  }
  return crc;
}

function crc16OfBytes(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ byte) & 0xff]!;
  return crc;
}
