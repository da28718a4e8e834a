/**
 * The Redis Cluster slot of a key, as every cluster node computes it: CRC16 (XMODEM) of the key's
 * UTF-8 bytes, or of its hash tag (the bytes between the first `{` and the next `}`, when there are
 * any), modulo 16,384. The limiter needs it to put in one `EVALSHA` only keys of one slot.
 */
export function keySlot(key: string): number {
  const bytes = encoder.encode(key);
  const open = bytes.indexOf(OPEN);
  if (open !== -1) {
    const close = bytes.indexOf(CLOSE, open + 1);
    if (close > open + 1) return crc16(bytes.subarray(open + 1, close)) % SLOTS;
  }
  return crc16(bytes) % SLOTS;
}

const SLOTS = 16_384;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const encoder = new TextEncoder();

const TABLE = Uint16Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
  return crc & 0xffff;
});

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ byte) & 0xff]!;
  return crc;
}
