// Part 1: the core in process, one post at a time on one core, on the memory store with the
// default limiter and system clock. Run as a child: `node core.mjs` sends its results over IPC
// (or prints them when run alone). BENCH_SECONDS sets the length of each round.

import { createHash, timingSafeEqual } from 'node:crypto';
import { createMemoryRateLimiter } from 'channel-webhooks';
import { WEBHOOKS, floorLoop, makeWebhooks, postLoop } from './core-loop.mjs';
import { SMOKE, loadCoreInternals } from './internal.mjs';
import { roundRobin } from './round-robin.mjs';
import { FIVE_BLOCKS, LARGE, SMALL } from './payloads.mjs';
import { perRound, round, summarize } from './stats.mjs';

const seconds = Number(process.env.BENCH_CORE_SECONDS ?? (SMOKE ? 0.05 : 1));
const rounds = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 3));
/**
 * Mean time of `fn` in µs, over at least `ms` of calls.
 * @param {() => unknown} fn
 */
function time(fn, ms = SMOKE ? 5 : 300) {
  for (let i = 0; i < 2_000; i++) fn();
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (let i = 0; i < 1_000; i++) fn();
    calls += 1_000;
  }
  return ((performance.now() - start) * 1000) / calls;
}

/**
 * µs per `hit` of the memory limiter with `n` webhooks active, over three rounds through all of
 * them (each hit at a later time, so none is refused and none goes idle).
 */
async function limiterScaling() {
  /** @type {Record<number, number>} */
  const result = {};
  // The first 100 warms the code up; its second run is the one kept.
  for (const n of [100, 100, 1_000, 10_000]) {
    const limiter = createMemoryRateLimiter();
    const ids = Array.from({ length: n }, (_, i) => `wh_${String(i).padStart(22, '0')}`);
    const t0 = Date.UTC(2026, 0, 1);
    for (const id of ids) await limiter.hit(id, t0);
    const hits = SMOKE ? n : Math.max(30_000, 3 * n);
    const start = performance.now();
    for (let i = 0; i < hits; i++) await limiter.hit(roundRobin(ids, i), t0 + 1 + i / 1_000);
    result[n] = round(((performance.now() - start) * 1000) / hits, 2);
  }
  return result;
}

/**
 * Posts of one payload in rounds, after a warm-up. With `withFloor` (the small post), the contract
 * floor (servers/floor.mjs) alternates with the library, round by round.
 * @param {Awaited<ReturnType<typeof makeWebhooks>>} webhooks
 * @param {string} body
 * @param {boolean} withFloor
 */
async function measurePosts(webhooks, body, withFloor) {
  await postLoop(webhooks, body, Math.min(seconds, 0.5));
  const runs = [];
  const floorRuns = [];
  if (withFloor) await floorLoop(body, Math.min(seconds, 0.5));
  for (let r = 0; r < rounds; r++) {
    runs.push(await postLoop(webhooks, body, seconds));
    if (withFloor) floorRuns.push(await floorLoop(body, seconds));
  }
  const rate = summarize(runs.map((run) => round(run.postsPerSecond)));
  const cpuRate = summarize(runs.map((run) => round(run.postsPerCpuSecond)));
  return {
    bytes: Buffer.byteLength(body),
    postsPerSecond: rate,
    usPerPost: round(1e6 / rate.median, 2),
    postsPerCpuSecond: cpuRate,
    cpuUsPerPost: round(1e6 / cpuRate.median, 2),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    floor: withFloor
      ? {
          postsPerSecond: summarize(floorRuns.map((run) => round(run.postsPerSecond))),
          postsPerCpuSecond: summarize(floorRuns.map((run) => round(run.postsPerCpuSecond))),
          failures: floorRuns.reduce((sum, run) => sum + run.failures, 0),
          // The library's posts per CPU-second over the floor's, round by round.
          cpuRatio: summarize(
            perRound(runs, floorRuns, (run, floor) => round(run.postsPerCpuSecond / floor.postsPerCpuSecond, 3)),
          ),
        }
      : undefined,
  };
}

async function main() {
  const webhooks = await makeWebhooks();
  const posts = { small: await measurePosts(webhooks, SMALL, true), large: await measurePosts(webhooks, LARGE, false) };

  const { validatePayload, hashSecret, hashesMatch } = await loadCoreInternals();
  /**
   * What validating `body` costs, and what parsing it does.
   * @param {string} name
   * @param {string} body
   */
  const validationOf = (name, body) => {
    const value = JSON.parse(body);
    if (!validatePayload(value, undefined, false).ok) throw new Error(`the ${name} payload does not validate`);
    return {
      bytes: Buffer.byteLength(body),
      validateUs: round(
        time(() => validatePayload(value, undefined, false)),
        3,
      ),
      jsonParseUs: round(
        time(() => JSON.parse(body)),
        3,
      ),
    };
  };
  const validation = {
    small: validationOf('small', SMALL),
    fiveBlocks: validationOf('fiveBlocks', FIVE_BLOCKS),
    large: validationOf('large', LARGE),
  };
  const secret = 'x'.repeat(43);
  const stored = hashSecret(secret);
  const storedBytes = createHash('sha256').update(secret).digest();
  const secrets = {
    coreHashAndCompareUs: round(
      time(() => hashesMatch(hashSecret(secret), stored)),
      3,
    ),
    nodeCryptoHashAndCompareUs: round(
      time(() => timingSafeEqual(createHash('sha256').update(secret).digest(), storedBytes)),
      3,
    ),
  };
  return { webhooks: WEBHOOKS, seconds, rounds, posts, validation, secrets, limiterUsPerHit: await limiterScaling() };
}

/** @typedef {Awaited<ReturnType<typeof main>>} CoreResult */

const result = await main();
if (process.send) process.send({ type: 'result', result });
else console.log(JSON.stringify(result, null, 2));
