import type { DenoKv, DenoKvAtomicOperation, DenoKvEntry, DenoKvKeyPart } from './deno-kv.js';

/** The most bytes one KV value may hold (after serialization; a `Uint8Array` is stored as it is). */
export const KV_VALUE_LIMIT = 65_536;
/** The most keys one `kv.getMany()` reads. */
export const KV_GET_MANY_LIMIT = 10;

type Key = readonly DenoKvKeyPart[];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A JSON value as KV values (frames): the UTF-8 of its JSON text, cut into pieces of at most
 * {@link KV_VALUE_LIMIT} bytes, the first starting with one byte that says how many there are. A
 * message at the body limit is more than one value can hold, so it takes two. JSON text keeps any
 * string exactly: `JSON.stringify` escapes U+0000 and lone surrogates, which UTF-8 could not carry.
 */
export function toFrames(value: unknown): Uint8Array[] {
  const bytes = encoder.encode(JSON.stringify(value));
  const count = Math.ceil((bytes.length + 1) / KV_VALUE_LIMIT);
  if (count > 255) throw new RangeError(`a value of ${bytes.length} bytes of JSON is too large to store`);
  const first = new Uint8Array(Math.min(KV_VALUE_LIMIT, bytes.length + 1));
  first[0] = count;
  first.set(bytes.subarray(0, first.length - 1), 1);
  const frames = [first];
  for (let at = first.length - 1; at < bytes.length; at += KV_VALUE_LIMIT)
    frames.push(bytes.slice(at, at + KV_VALUE_LIMIT));
  return frames;
}

/** Adds the frames of a value to `operation`: the first at `key`, frame `i` at `partKey(i)`. */
export function setFrames(
  operation: DenoKvAtomicOperation,
  frames: Uint8Array[],
  key: Key,
  partKey: (part: number) => Key,
): void {
  operation.set(key, frames[0]);
  for (let part = 1; part < frames.length; part++) operation.set(partKey(part), frames[part]);
}

/** The total size of frames, in bytes. */
export const framesSize = (frames: Uint8Array[]): number => frames.reduce((sum, frame) => sum + frame.length, 0);

/**
 * The value whose first frame `entry` holds, reading its other frames at `partKey(i)` when it has
 * any. A frame missing or of another kind is a failure: the frames of a value are written in one
 * commit, so the KV was changed by something else than this store.
 */
export async function readFrames<T>(kv: DenoKv, entry: DenoKvEntry, partKey: (part: number) => Key): Promise<T> {
  const first = entry.value;
  if (!(first instanceof Uint8Array) || first.length === 0)
    throw new Error(`the value at ${showKey(entry.key)} is not one this store wrote`);
  const frames = [first.subarray(1)];
  const count = first[0]!;
  if (count > 1) {
    const keys = Array.from({ length: count - 1 }, (_, i) => partKey(i + 1));
    for (let at = 0; at < keys.length; at += KV_GET_MANY_LIMIT) {
      for (const part of await kv.getMany(keys.slice(at, at + KV_GET_MANY_LIMIT))) {
        if (!(part.value instanceof Uint8Array))
          throw new Error(`a part of the value at ${showKey(entry.key)} is missing`);
        frames.push(part.value);
      }
    }
  }
  const bytes = new Uint8Array(framesSize(frames));
  let at = 0;
  for (const frame of frames) {
    bytes.set(frame, at);
    at += frame.length;
  }
  return JSON.parse(decoder.decode(bytes)) as T;
}

/** `getMany` for any number of keys, ten at a time, all at once. */
export async function getAll(kv: DenoKv, keys: readonly Key[]): Promise<DenoKvEntry[]> {
  const batches: Promise<DenoKvEntry[]>[] = [];
  for (let at = 0; at < keys.length; at += KV_GET_MANY_LIMIT)
    batches.push(kv.getMany(keys.slice(at, at + KV_GET_MANY_LIMIT)));
  return (await Promise.all(batches)).flat();
}

function showKey(key: Key): string {
  return `[${key.map((part) => (typeof part === 'string' ? JSON.stringify(part) : typeof part === 'symbol' ? 'versionstamp' : String(part))).join(', ')}]`;
}
