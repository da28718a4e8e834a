import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, createWebhookHandler, createWebhookManager, type RateLimiter } from '../../src/index.js';
import { isoTime } from '../../src/message/iso-time.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap each of `count` values that `make` returns costs while all are kept, in bytes. */
async function heapPerValue(count: number, make: (i: number) => unknown | Promise<unknown>): Promise<number> {
  const kept: unknown[] = new Array(count).fill(null);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i++) kept[i] = await make(i);
  gc();
  const used = process.memoryUsage().heapUsed - before;
  expect(kept.at(-1)).not.toBeNull();
  return used / count;
}

// A stored message keeps its id and its time for life. Joined from pieces (crypto.randomUUID()
// joins some twenty), a string is a chain that the store keeps and every collection walks.
describe('what a stored message keeps', () => {
  // With the id as a chain, a message cost ~790 bytes and posting took twice the collector's time.
  it('a message the handler stores costs the memory store under 400 bytes of heap', async () => {
    const store = createMemoryStore();
    store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
    const { url } = await manager.create({ userId: 'u1', role: 'owner' }, { channelId: 'general', name: 'Deploys' });
    const path = new URL(url).pathname;
    // A limiter that keeps nothing, and a clock a millisecond further on each call, so that no two
    // messages share a time.
    const rateLimiter: RateLimiter = {
      hit: () => ({ allowed: true, limit: 60, windowMs: 60_000, remaining: 59, resetMs: 60_000 }),
    };
    let now = Date.parse('2026-11-25T00:00:00Z');
    const handle = createWebhookHandler({ store, rateLimiter, clock: { now: () => now++ } });
    const body = JSON.stringify({ text: 'Deploy 42 finished on production in 3m12s; all checks green.' });
    const post = () => handle({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, body });
    // As a server's event loop does between requests, the loop lets timers run now and then: the
    // post history is written on a later tick, and keeps 100 records of the webhook at most.
    const posts = async (n: number) => {
      for (let i = 1; i <= n; i++) {
        expect((await post()).status).toBe(201);
        if (i % 1_000 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      }
    };
    await posts(1_000);
    const count = 20_000;
    gc();
    const before = process.memoryUsage().heapUsed;
    await posts(count);
    gc();
    const perMessage = (process.memoryUsage().heapUsed - before) / count;
    expect(store.listMessages('general')).toHaveLength(count + 1_000);
    expect(perMessage).toBeLessThan(400);
  });

  // 24 characters cost ~45 bytes flat (with the list's slot), ~67 as a chain of two.
  it('a message time costs under 56 bytes of heap', async () => {
    const start = Date.parse('2026-11-25T00:00:00Z');
    expect(await heapPerValue(50_000, (i) => isoTime(start + i))).toBeLessThan(56);
  });
});
