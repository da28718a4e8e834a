// Part 3: the core end to end on PostgreSQL (store) and Redis (limiter), on the same ephemeral
// servers the tests start (test/support/servers.ts), against the raw ceilings measured in the same
// run: the bare message INSERT on the same pool, the bare limiter script on the same client, and a
// whole post written by hand with the same three calls (SELECT the webhook, the script, INSERT).
// Round trips are counted by wrapping `pool.query` and `client.evalsha` / `client.eval`.

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { countCalls } from './count-calls.mjs';
import { ROOT, SMOKE, bundle, loadServers } from './internal.mjs';
import { SMALL } from './payloads.mjs';
import { roundRobin } from './round-robin.mjs';
import { perRound, round, summarize } from './stats.mjs';

const seconds = Number(process.env.BENCH_BACKEND_SECONDS ?? (SMOKE ? 0.1 : 2));
const rounds = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 3));
const CONCURRENCY = 32;
const POOL_SIZE = 10;
const WEBHOOKS = SMOKE ? 50 : 3_000;

/**
 * Runs `CONCURRENCY` loops of `once(i)` for `seconds`; returns successes per second and failures.
 * @param {(i: number) => Promise<boolean>} once
 * @param {number} seconds
 */
async function saturate(once, seconds) {
  let next = 0;
  let ok = 0;
  let failures = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      if (await once(next++).catch(() => false)) ok++;
      else failures++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  return { perSecond: ok / ((performance.now() - start) / 1000), ok, failures };
}

async function main() {
  const serversTs = join(ROOT, 'test', 'support', 'servers.ts');
  if (!existsSync(serversTs)) return { skipped: 'test/support/servers.ts is missing' };
  const servers = await loadServers();
  const { missing } = servers.serverBinaries();
  if (missing.length > 0) return { skipped: `no ephemeral servers: ${missing.join('; ')}` };

  const [{ default: pg }, { Redis }] = await Promise.all([import('pg'), import('ioredis')]);
  const { createWebhookHandler, createWebhookManager } = await import('channel-webhooks');
  const { createPostgresStore } = await import('channel-webhooks/postgres');
  const { createRedisRateLimiter } = await import('channel-webhooks/redis');
  /** @type {typeof import('../adapters/stores/redis/sliding-window-script.js')} */
  const { SLIDING_WINDOW_SCRIPT } = await import(
    await bundle('redis-script.mjs', `export * from './adapters/stores/redis/sliding-window-script.ts';`)
  );

  const [postgres, redis] = await Promise.all([servers.startPostgres(), servers.startRedis()]);
  const pool = new pg.Pool({ connectionString: postgres.url, max: POOL_SIZE });
  pool.on('error', () => {});
  const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  try {
    const trips = { postgres: 0, redis: 0 };
    const query = countCalls(pool, 'query', () => trips.postgres++);
    // The limiter sends its commands through `call`; the hand-written post below uses evalsha.
    countCalls(client, 'call', () => trips.redis++);
    const evalsha = countCalls(client, 'evalsha', () => trips.redis++);
    countCalls(client, 'eval', () => trips.redis++);

    const store = createPostgresStore({ pool });
    await store.migrate();
    await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
    /** @type {string[]} */
    const paths = [];
    for (let i = 0; i < WEBHOOKS; i++) {
      const { url } = await manager.create(
        { userId: 'u1', role: 'owner' },
        { channelId: 'general', name: `bench ${i}` },
      );
      paths.push(new URL(url).pathname);
    }
    const handle = createWebhookHandler({ store, rateLimiter: createRedisRateLimiter({ client }) });
    const bytes = new TextEncoder().encode(SMALL);
    const headers = { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) };
    const read = async () => bytes;
    let offset = 0;
    /** @param {number} i */
    const post = async (i) =>
      (await handle({ method: 'POST', url: roundRobin(paths, offset + i), headers, body: read })).status === 201;
    const message = JSON.parse(SMALL);
    // The script's SHA, from the server, for the hand-written post (loaded before the runs below).
    let SLIDING_WINDOW_SHA = '';

    // The work of one accepted post, written by hand: the same row into the same table.
    const rawInsert = async () =>
      (
        await query({
          text: `INSERT INTO channel_webhooks_messages (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key)
                 VALUES ($1, $2, $3, $4, $5::json, $6::json, $7::timestamptz, $8)
                 ON CONFLICT (webhook_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id`,
          values: [
            randomUUID(),
            'general',
            'wh_raw',
            'raw',
            JSON.stringify(message.text),
            '[]',
            new Date().toISOString(),
            null,
          ],
        })
      ).rows.length === 1;
    // A whole post written by hand: look the webhook up, count it in Redis, insert the message.
    const webhookIds = paths.map((path) => path.split('/')[3]);
    /** @param {number} i */
    const rawPost = async (i) => {
      const id = roundRobin(webhookIds, i);
      const found = await query({
        text: 'SELECT secret_hash, channel_id, name, revoked_at FROM channel_webhooks_webhooks WHERE id = $1',
        values: [id],
      });
      if (found.rows.length !== 1) return false;
      await evalsha(SLIDING_WINDOW_SHA, 1, `raw-post:${id}`, 60_000, 60, Date.now(), `${i}`);
      return rawInsert();
    };
    /** @param {number} i */
    const rawLimiter = async (i) =>
      Array.isArray(await evalsha(SLIDING_WINDOW_SHA, 1, `raw:${i}`, 60_000, 60, Date.now(), `${i}`));
    SLIDING_WINDOW_SHA = /** @type {string} */ (await client.script('LOAD', SLIDING_WINDOW_SCRIPT));

    const warm = await saturate(post, SMOKE ? 0.05 : 0.5);
    offset += warm.ok + warm.failures;
    /** @type {Record<'endToEnd' | 'rawInsert' | 'rawLimiter' | 'rawPost', number[]>} */
    const runs = { endToEnd: [], rawInsert: [], rawLimiter: [], rawPost: [] };
    let accepted = 0;
    let failures = warm.failures;
    // The hand-written calls that failed: none should (the hand-written rows once measured 0
    // posts/s unnoticed, their insert naming a conflict target the table no longer had).
    const rawFailures = { rawInsert: 0, rawLimiter: 0, rawPost: 0 };
    /**
     * @param {keyof typeof rawFailures} name
     * @param {(i: number) => Promise<boolean>} once
     */
    const byHand = async (name, once) => {
      const run = await saturate(once, seconds);
      runs[name].push(run.perSecond);
      rawFailures[name] += run.failures;
    };
    const counted = { postgres: 0, redis: 0 };
    for (let r = 0; r < rounds; r++) {
      await byHand('rawInsert', rawInsert);
      await byHand('rawLimiter', rawLimiter);
      await byHand('rawPost', rawPost);
      trips.postgres = 0;
      trips.redis = 0;
      const run = await saturate(post, seconds);
      offset += run.ok + run.failures;
      runs.endToEnd.push(run.perSecond);
      accepted += run.ok;
      failures += run.failures;
      counted.postgres += trips.postgres;
      counted.redis += trips.redis;
    }
    const endToEnd = summarize(runs.endToEnd.map((x) => round(x)));
    const rawInsertRate = summarize(runs.rawInsert.map((x) => round(x)));
    return {
      seconds,
      rounds,
      concurrency: CONCURRENCY,
      poolSize: POOL_SIZE,
      postgresSettings: 'ephemeral test cluster: fsync=off, synchronous_commit=off, full_page_writes=off',
      endToEnd,
      rawInsert: rawInsertRate,
      rawLimiter: summarize(runs.rawLimiter.map((x) => round(x))),
      rawPost: summarize(runs.rawPost.map((x) => round(x))),
      ratioToRawInsert: summarize(perRound(runs.endToEnd, runs.rawInsert, (x, raw) => round(x / raw, 3))),
      ratioToRawPost: summarize(perRound(runs.endToEnd, runs.rawPost, (x, raw) => round(x / raw, 3))),
      roundTripsPerAcceptedPost: {
        postgres: round(counted.postgres / accepted, 3),
        redis: round(counted.redis / accepted, 3),
      },
      accepted,
      failures,
      rawFailures,
    };
  } finally {
    // The post history is written a tick after each answer: let the last batch land first.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.allSettled([pool.end(), client.quit()]);
    await Promise.allSettled([postgres.destroy(), redis.destroy()]);
  }
}

/** @typedef {Awaited<ReturnType<typeof main>>} BackendsResult */

const result = await main();
if (process.send) process.send({ type: 'result', result });
else console.log(JSON.stringify(result, null, 2));
