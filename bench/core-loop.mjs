/** @import { RateLimiter, WebhookHandler, WebhookRecord } from 'channel-webhooks' */
import { createMemoryStore, createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { SMOKE } from './internal.mjs';
import { roundRobin } from './round-robin.mjs';
import { createFloor } from './servers/floor.mjs';

// A smoke run posts for a moment: to a thousand webhooks, it never reaches the limit of 60 a minute on each.
export const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? (SMOKE ? 1_000 : 10_000));

/** Webhooks made once by the manager; each round copies them into a fresh store. */
export async function makeWebhooks() {
  const store = createMemoryStore();
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
  /** @type {WebhookRecord[]} */
  const records = [];
  /** @type {string[]} */
  const paths = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    const { webhook, url } = await manager.create(
      { userId: 'u1', role: 'owner' },
      { channelId: 'general', name: `bench ${i}` },
    );
    const record = await store.getWebhook(webhook.id);
    if (record === null) throw new Error(`the manager made ${webhook.id}, which the store does not hold`);
    records.push(record);
    paths.push(new URL(url).pathname);
  }
  return { records, paths };
}

/**
 * Posts `body` for `seconds`, each post to the next webhook, through a fresh store, limiter and
 * handler (so that stored messages do not pile up across rounds). Returns posts per second of
 * wall time and per second of this process's CPU time (which other work on a shared machine does
 * not inflate); any non-2xx answer is counted as a failure. `options.wrap` wraps the handler (the
 * instrumentation part), `options.rateLimiter` replaces the default limiter.
 * @param {Awaited<ReturnType<typeof makeWebhooks>>} webhooks
 * @param {string} body
 * @param {number} seconds
 * @param {{ wrap?: (handle: WebhookHandler) => WebhookHandler; rateLimiter?: RateLimiter }} [options]
 */
export async function postLoop({ records, paths }, body, seconds, options = {}) {
  const store = createMemoryStore();
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  for (const record of records) await store.insertWebhook(record);
  const handler = createWebhookHandler({ store, rateLimiter: options.rateLimiter });
  const handle = options.wrap ? options.wrap(handler) : handler;
  const { headers, read } = requestParts(body);
  return timed(seconds, (i) => handle({ method: 'POST', url: roundRobin(paths, i), headers, body: read }));
}

/**
 * The headers and the body reader of every post of a loop.
 * @param {string} body
 */
function requestParts(body) {
  const bytes = new TextEncoder().encode(body);
  return {
    headers: { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) },
    read: async () => bytes,
  };
}

/**
 * Calls `post(i)` for i = 0, 1, … one at a time for `seconds`, counting 201s.
 * @param {number} seconds
 * @param {(i: number) => { status: number } | Promise<{ status: number }>} post
 */
async function timed(seconds, post) {
  let ok = 0;
  let failures = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const deadline = start + seconds * 1000;
  for (let i = 0; ; i++) {
    if ((i & 255) === 0 && performance.now() >= deadline) break;
    const res = await post(i);
    if (res.status === 201) ok++;
    else failures++;
  }
  const elapsed = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { postsPerSecond: ok / elapsed, postsPerCpuSecond: (ok * 1e6) / (used.user + used.system), failures };
}

/**
 * The same loop over the contract floor (servers/floor.mjs: the contract's checks hand-written, no
 * library), with a fresh floor of as many webhooks per round. Small text-only bodies only.
 * @param {string} body
 * @param {number} seconds
 */
export async function floorLoop(body, seconds) {
  const floor = createFloor(WEBHOOKS);
  const { headers, read } = requestParts(body);
  return timed(seconds, (i) => floor.post('POST', roundRobin(floor.paths, i), headers, read));
}
