// Part 4: memory. Run with --expose-gc. Heap sizes are taken after full collections.

import {
  createMemoryRateLimiter,
  createMemoryStore,
  createWebhookHandler,
  createWebhookManager,
} from 'channel-webhooks';
import { SMOKE } from './internal.mjs';
import { SMALL } from './payloads.mjs';
import { roundRobin } from './round-robin.mjs';
import { round } from './stats.mjs';

const { gc } = globalThis;
if (gc === undefined) throw new Error('run with node --expose-gc');

const heap = () => {
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
};

// Webhook ids as the URL parser yields them: new strings of the real length.
/** @param {number} i */
const webhookId = (i) => `wh_${String(i).padStart(22, '0')}`;
const T0 = Date.UTC(2026, 0, 1);

/**
 * Bytes per webhook held by the memory limiter, after `hits` requests each in one window. Each call
 * gets a new id string, as from a parsed URL, so the key the limiter keeps is counted too.
 * @param {number} keys
 * @param {number} hits
 */
async function limiterBytes(keys, hits) {
  const before = heap();
  const limiter = createMemoryRateLimiter();
  for (let h = 0; h < hits; h++) for (let i = 0; i < keys; i++) await limiter.hit(webhookId(i), T0 + h * 10 + i / keys);
  const after = heap();
  if (limiter.size !== keys) throw new Error(`expected ${keys} keys, the limiter holds ${limiter.size}`);
  return round((after - before) / keys);
}

/**
 * 100k webhooks post once, then go idle. Then: one request after their window, and light traffic
 * (100 other webhooks, one request every 24 ms) for two more windows. Reports how many keys and
 * bytes are left after each, and the longest single request, which pays for any sweep it does.
 */
async function idleAfterWindow() {
  const keys = SMOKE ? 1_000 : 100_000;
  const windowMs = 60_000;
  const before = heap();
  const limiter = createMemoryRateLimiter();
  for (let i = 0; i < keys; i++) await limiter.hit(webhookId(i), T0 + i / 100);
  const active = heap();
  let now = T0 + keys / 100 + windowMs + 1;
  let start = performance.now();
  await limiter.hit('wh_next', now);
  const firstRequestMs = performance.now() - start;
  const afterOneRequest = { keysLeft: limiter.size, bytesLeft: Math.max(0, heap() - before) };
  let longestMs = firstRequestMs;
  const live = Array.from({ length: 100 }, (_, i) => `wh_live_${i}`);
  for (let i = 0; now < T0 + keys / 100 + 3 * windowMs; i++) {
    now += 24;
    start = performance.now();
    await limiter.hit(roundRobin(live, i), now);
    longestMs = Math.max(longestMs, performance.now() - start);
  }
  return {
    webhooks: keys,
    bytesPerActiveWebhook: round((active - before) / keys),
    afterOneRequest,
    afterTwoWindows: { liveWebhooks: live.length, keysLeft: limiter.size, bytesLeft: Math.max(0, heap() - before) },
    firstRequestMs: round(firstRequestMs, 1),
    longestRequestMs: round(longestMs, 1),
  };
}

/**
 * Bytes per small message kept by the memory store, posted through the handler.
 * @param {number} count
 */
async function storeBytes(count) {
  const store = createMemoryStore();
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
  const { url } = await manager.create({ userId: 'u1', role: 'owner' }, { channelId: 'general', name: 'bench' });
  // A limiter that keeps no state, so that only the store grows.
  const rateLimiter = {
    hit: async () => ({ allowed: true, limit: 60, windowMs: 60_000, remaining: 59, resetMs: 60_000 }),
  };
  const handle = createWebhookHandler({ store, rateLimiter });
  const path = new URL(url).pathname;
  const bytes = new TextEncoder().encode(SMALL);
  const request = () => ({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, body: bytes });
  for (let i = 0; i < 100; i++) await handle(request());
  const before = heap();
  for (let i = 0; i < count; i++) {
    const res = await handle(request());
    if (res.status !== 201) throw new Error(`post answered ${res.status}`);
  }
  const after = heap();
  return {
    messages: count,
    textChars: JSON.parse(SMALL).text.length,
    bytesPerMessage: round((after - before) / count),
  };
}

const result = {
  limiterBytesPerWebhook: {
    oneRequest: await limiterBytes(SMOKE ? 1_000 : 100_000, 1),
    fullWindow: await limiterBytes(SMOKE ? 1_000 : 10_000, 60),
  },
  idleAfterWindow: await idleAfterWindow(),
  store: await storeBytes(SMOKE ? 1_000 : 20_000),
};
/** @typedef {typeof result} MemoryResult */
if (process.send) process.send({ type: 'result', result });
else console.log(JSON.stringify(result, null, 2));
