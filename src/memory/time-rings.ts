// Rings of times (epoch ms), many of them in one shared Float64Array: each ring is a block of
// [head, count, capacity, time, time, ...], its times oldest first from `head`, and is known by the
// index of its block, a small integer. A ring is then no object of its own: the garbage collector has
// nothing of it to trace or copy, and adding a time writes a number in place rather than a young
// object into an old one.

const HEAD = 0;
const COUNT = 1;
const CAPACITY = 2;
const TIMES = 3;

// A ring starts with room for a few times (most keys hold one or two) and, full, moves to a block
// four times larger, up to the limit. A ring that grows leaves its old block for the next ring that
// grows to that size; growing fourfold rather than twofold leaves fewer such blocks behind (a key
// at the default 60 holds blocks of 4, 16 and 60 times: 712 bytes, where doubling held 1,120).
const FIRST_CAPACITY = 4;
const GROWTH = 4;

/** Many rings of times, each known by a number. */
export interface TimeRings {
  /** A new, empty ring that will grow up to `limit` times. */
  open(limit: number): number;
  /** Gives the ring's block back, to be reused by a ring of its capacity. */
  close(ring: number): void;
  count(ring: number): number;
  /** The ring's oldest time (the ring must not be empty). */
  oldest(ring: number): number;
  /** The ring's newest time (the ring must not be empty). */
  newest(ring: number): number;
  /** Drops the times at or before `cutoff`, oldest first. */
  dropThrough(ring: number, cutoff: number): void;
  /** Adds `time` as the newest; returns the ring's number, a new one when the ring had to grow. */
  add(ring: number, time: number, limit: number): number;
}

/** Rings of times in one growing Float64Array; blocks of closed rings are reused, never given back. */
export function createTimeRings(): TimeRings {
  let blocks = new Float64Array(1_024);
  let end = 0;
  // The blocks of closed rings, by capacity.
  const unused = new Map<number, number[]>();

  const claim = (capacity: number): number => {
    const reused = unused.get(capacity)?.pop();
    if (reused !== undefined) return reused;
    const ring = end;
    end += TIMES + capacity;
    if (end > blocks.length) {
      const larger = new Float64Array(Math.max(end, blocks.length * 2));
      larger.set(blocks);
      blocks = larger;
    }
    blocks[ring + CAPACITY] = capacity;
    return ring;
  };

  const empty = (capacity: number): number => {
    const ring = claim(capacity);
    blocks[ring + HEAD] = 0;
    blocks[ring + COUNT] = 0;
    return ring;
  };

  const at = (ring: number, position: number): number =>
    ring + TIMES + ((blocks[ring + HEAD]! + position) % blocks[ring + CAPACITY]!);

  const close = (ring: number): void => {
    const capacity = blocks[ring + CAPACITY]!;
    const list = unused.get(capacity);
    if (list === undefined) unused.set(capacity, [ring]);
    else list.push(ring);
  };

  // Moves the times to a larger block (at most `limit`), oldest first from its start.
  const grow = (ring: number, limit: number): number => {
    const count = blocks[ring + COUNT]!;
    const larger = empty(Math.min(limit, blocks[ring + CAPACITY]! * GROWTH));
    for (let i = 0; i < count; i++) blocks[larger + TIMES + i] = blocks[at(ring, i)]!;
    blocks[larger + COUNT] = count;
    close(ring);
    return larger;
  };

  return {
    open: (limit) => empty(Math.min(limit, FIRST_CAPACITY)),
    close,
    count: (ring) => blocks[ring + COUNT]!,
    oldest: (ring) => blocks[at(ring, 0)]!,
    newest: (ring) => blocks[at(ring, blocks[ring + COUNT]! - 1)]!,
    dropThrough(ring, cutoff) {
      while (blocks[ring + COUNT]! > 0 && blocks[at(ring, 0)]! <= cutoff) {
        blocks[ring + HEAD] = (blocks[ring + HEAD]! + 1) % blocks[ring + CAPACITY]!;
        blocks[ring + COUNT]!--;
      }
    },
    add(ring, time, limit) {
      const target = blocks[ring + COUNT] === blocks[ring + CAPACITY] ? grow(ring, limit) : ring;
      blocks[at(target, blocks[target + COUNT]!)] = time;
      blocks[target + COUNT]!++;
      return target;
    },
  };
}
