import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { newMessageId } from '../../src/message/message-id.js';
import { setup } from '../support/setup.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const VERSION_7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The ms in an id's first 48 bits. */
const timeOf = (id: string) => Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

// Rule: message ids are version-7 UUIDs: the post's time (from the clock) in the first 48 bits,
// the other 74 random, so ids grow with time.
describe('message ids', () => {
  it('are distinct version-7 UUIDs carrying the clock time of their post', async () => {
    const s = await setup({
      rateLimiter: { hit: () => ({ allowed: true, limit: 1_000, remaining: 1_000, resetMs: 0, windowMs: 60_000 }) },
    });
    const ids: string[] = [];
    const times: number[] = [];
    for (let i = 0; i < 300; i++) {
      times.push(s.clock.now());
      ids.push(((await s.post({ text: `post ${i}` })).body as { message: { id: string } }).message.id);
      s.clock.advance(i % 3 === 0 ? 0 : 7);
    }
    for (const id of ids) expect(id).toMatch(VERSION_7);
    expect(ids.map(timeOf)).toEqual(times);
    expect(new Set(ids).size).toBe(ids.length);
    const later = ids.filter((_, i) => i > 0 && times[i]! > times[i - 1]!);
    for (const id of later) expect(id > ids[ids.indexOf(id) - 1]!).toBe(true);
  });

  it('spread their random bits over every value', () => {
    const ids = Array.from({ length: 4_000 }, () => newMessageId(Date.UTC(2026, 0, 1)));
    expect(new Set(ids).size).toBe(ids.length);
    // Each random hex digit (the version digit and the variant's two bits aside) takes all 16 values.
    for (const at of [15, 16, 17, 20, 21, 22, 24, 30, 35]) expect(new Set(ids.map((id) => id[at])).size).toBe(16);
    expect(new Set(ids.map((id) => id[19]))).toEqual(new Set(['8', '9', 'a', 'b']));
  });

  it('write the time as 48 bits, from the epoch to the year 10889', () => {
    expect(newMessageId(0).slice(0, 13)).toBe('00000000-0000');
    expect(newMessageId(2 ** 48 - 1).slice(0, 13)).toBe('ffffffff-ffff');
    expect(timeOf(newMessageId(Date.UTC(2026, 0, 1, 12, 0, 0, 123)))).toBe(Date.UTC(2026, 0, 1, 12, 0, 0, 123));
  });

  // A stored message keeps its id for as long as it is stored: the id must be one flat string
  // (about 57 bytes), not the tree of the pieces it was joined from (hundreds).
  it('cost under 64 bytes of heap each', () => {
    const count = 100_000;
    const kept: string[] = new Array(count);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < count; i++) kept[i] = newMessageId(Date.UTC(2026, 0, 1) + i);
    gc();
    const perId = (process.memoryUsage().heapUsed - before - count * 8) / count;
    expect(kept).toHaveLength(count);
    expect(perId).toBeLessThan(64);
  });
});
