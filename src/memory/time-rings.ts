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

/**
 * Many rings of times in one growing Float64Array, each known by a number. Blocks of closed rings
 * are reused by later rings of their capacity, never given back. A class rather than closures: every
 * limiter shares its methods, so the limiter's calls to them stay monomorphic and are inlined.
 */
export class TimeRings {
  private blocks = new Float64Array(1_024);
  private end = 0;
  // The blocks of closed rings, by capacity.
  private readonly unused = new Map<number, number[]>();

  /** A new, empty ring that will grow up to `limit` times. */
  open(limit: number): number {
    return this.empty(Math.min(limit, FIRST_CAPACITY));
  }

  /** Gives the ring's block back, to be reused by a ring of its capacity. */
  close(ring: number): void {
    const capacity = this.blocks[ring + CAPACITY]! | 0;
    const list = this.unused.get(capacity);
    if (list === undefined) this.unused.set(capacity, [ring]);
    else list.push(ring);
  }

  count(ring: number): number {
    return this.blocks[ring + COUNT]! | 0;
  }

  /** The ring's oldest time (the ring must not be empty). */
  oldest(ring: number): number {
    return this.blocks[this.at(ring, 0)]!;
  }

  /** The ring's newest time (the ring must not be empty). */
  newest(ring: number): number {
    return this.blocks[this.at(ring, this.count(ring) - 1)]!;
  }

  /** Drops the times at or before `cutoff`, oldest first. */
  dropThrough(ring: number, cutoff: number): void {
    const blocks = this.blocks;
    const capacity = blocks[ring + CAPACITY]! | 0;
    let head = blocks[ring + HEAD]! | 0;
    let count = blocks[ring + COUNT]! | 0;
    while (count > 0 && blocks[ring + TIMES + head]! <= cutoff) {
      head = head + 1 === capacity ? 0 : head + 1;
      count--;
    }
    blocks[ring + HEAD] = head;
    blocks[ring + COUNT] = count;
  }

  /** Adds `time` as the newest; returns the ring's number, a new one when the ring had to grow. */
  add(ring: number, time: number, limit: number): number {
    const count = this.count(ring);
    const target = count === (this.blocks[ring + CAPACITY]! | 0) ? this.grow(ring, limit) : ring;
    this.blocks[this.at(target, count)] = time;
    this.blocks[target + COUNT] = count + 1;
    return target;
  }

  // Header fields are small integers kept as doubles: `| 0` lets the compiler treat them as
  // integers, and a wrap by subtraction avoids `%` on doubles, a call into the C library.
  private at(ring: number, position: number): number {
    const capacity = this.blocks[ring + CAPACITY]! | 0;
    const index = (this.blocks[ring + HEAD]! | 0) + position;
    return ring + TIMES + (index >= capacity ? index - capacity : index);
  }

  private empty(capacity: number): number {
    const ring = this.claim(capacity);
    this.blocks[ring + HEAD] = 0;
    this.blocks[ring + COUNT] = 0;
    return ring;
  }

  private claim(capacity: number): number {
    const reused = this.unused.get(capacity)?.pop();
    if (reused !== undefined) return reused;
    const ring = this.end;
    this.end += TIMES + capacity;
    if (this.end > this.blocks.length) {
      const larger = new Float64Array(Math.max(this.end, this.blocks.length * 2));
      larger.set(this.blocks);
      this.blocks = larger;
    }
    this.blocks[ring + CAPACITY] = capacity;
    return ring;
  }

  // Moves the times to a larger block (at most `limit`), oldest first from its start.
  private grow(ring: number, limit: number): number {
    const count = this.count(ring);
    const larger = this.empty(Math.min(limit, (this.blocks[ring + CAPACITY]! | 0) * GROWTH));
    for (let i = 0; i < count; i++) this.blocks[larger + TIMES + i] = this.blocks[this.at(ring, i)]!;
    this.blocks[larger + COUNT] = count;
    this.close(ring);
    return larger;
  }
}
