// What the parts that weigh one store against another (or one build against another) share: a
// handler over a store, with webhooks of one channel and a limiter that always allows, and a round
// of posts through it, with the figures of one post.

/**
 * @import { RateLimiter, WebhookStore } from 'channel-webhooks'
 */
import { SMALL } from './payloads.mjs';
import { roundRobin } from './round-robin.mjs';

/** @type {RateLimiter} */
const allowAll = {
  hit: () => ({ allowed: true, limit: 1_000_000, windowMs: 60_000, remaining: 999_999, resetMs: 60_000 }),
};
const body = new TextEncoder().encode(SMALL);
const headers = { 'content-type': 'application/json', 'content-length': String(body.byteLength) };

/**
 * A store to post to, and what its backend spent so far.
 * @typedef {{
 *   post: () => Promise<void>;
 *   statements: () => number;
 *   serverCpuUs: () => number;
 * }} Side
 */

/**
 * A handler of `core` (a build's main entry) on `store` with `webhooks` webhooks of one channel, and
 * one post to the next of them, which must be answered 201. The history of posts is on, as shipped.
 * @param {typeof import('channel-webhooks')} core
 * @param {WebhookStore & { putChannel(channel: { id: string; ownerId: string; archived: boolean }): void | Promise<void> }} store
 * @param {number} webhooks
 */
export async function handlerWorld(core, store, webhooks) {
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const manager = core.createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
  /** @type {string[]} */
  const paths = [];
  for (let i = 0; i < webhooks; i++)
    paths.push(
      new URL((await manager.create({ userId: 'u1', role: 'owner' }, { channelId: 'general', name: `bench ${i}` })).url)
        .pathname,
    );
  const handle = core.createWebhookHandler({ store, rateLimiter: allowAll });
  let next = 0;
  return async () => {
    const answer = await handle({ method: 'POST', url: roundRobin(paths, next++), headers, body: async () => body });
    if (answer.status !== 201) throw new Error(`post answered ${answer.status}`);
  };
}

/** The figures of one round, each per post but the rate. */
export const FIGURES = /** @type {const} */ (['perSecond', 'nodeUs', 'serverUs', 'statements', 'p50Ms', 'p99Ms']);

/**
 * Posts for `seconds`, `concurrency` at a time: posts per second, Node CPU, the server's CPU and the
 * statements per post, and the wall time of a post (median and p99).
 * @param {Side} side
 * @param {number} concurrency
 * @param {number} seconds
 * @returns {Promise<Record<(typeof FIGURES)[number], number>>}
 */
export async function measurePosts({ post, statements, serverCpuUs }, concurrency, seconds) {
  let posts = 0;
  /** @type {number[]} */
  const walls = [];
  const cpu = process.cpuUsage();
  const serverBefore = serverCpuUs();
  const statementsBefore = statements();
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const began = performance.now();
        await post();
        walls.push(performance.now() - began);
        posts++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  walls.sort((a, b) => a - b);
  return {
    perSecond: posts / ((performance.now() - start) / 1000),
    nodeUs: (used.user + used.system) / posts,
    serverUs: (serverCpuUs() - serverBefore) / posts,
    statements: (statements() - statementsBefore) / posts,
    p50Ms: walls[Math.floor(walls.length / 2)] ?? Number.NaN,
    p99Ms: walls[Math.min(walls.length - 1, Math.floor(walls.length * 0.99))] ?? Number.NaN,
  };
}
