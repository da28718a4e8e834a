// The Redis limiter alone as the number of active webhooks grows: memory per active webhook (one
// post in its window, then each further post), the commands Redis runs per decision (INFO
// commandstats, the script's own calls included) and decisions per second with p50/p99, on one
// Redis and on a Redis Cluster. `now` is the real clock, so every key stays in its window.

/**
 * @import { Redis } from 'ioredis'
 * @import { RateLimiter } from 'channel-webhooks'
 * @typedef {{ memory: number; calls: Record<string, number>; cpuUs: number }} ServerStats
 * @typedef {(options: { maxBatch?: number }) => RateLimiter} CreateLimiter
 */
import { drive, round } from './drive.mjs';

/**
 * A number of an `INFO` answer (NaN when the field is not there).
 * @param {string} info
 * @param {string} field
 */
export const infoNumber = (info, field) => Number(new RegExp(`^${field}:([\\d.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);

/**
 * Sums `INFO` fields over the nodes: used_memory and every command's calls.
 * @param {Redis[]} nodes
 * @returns {Promise<ServerStats>}
 */
async function serverStats(nodes) {
  /** @type {ServerStats} */
  const stats = { memory: 0, calls: {}, cpuUs: 0 };
  for (const node of nodes) {
    const info = await node.info('all');
    stats.memory += infoNumber(info, 'used_memory');
    stats.cpuUs += (infoNumber(info, 'used_cpu_sys') + infoNumber(info, 'used_cpu_user')) * 1e6;
    for (const [, name = '', calls] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
      stats.calls[name] = (stats.calls[name] ?? 0) + Number(calls);
  }
  return stats;
}

/**
 * @param {ServerStats} after
 * @param {ServerStats} before
 * @returns {ServerStats}
 */
const delta = (after, before) => {
  /** @type {Record<string, number>} */
  const calls = {};
  for (const [name, count] of Object.entries(after.calls)) {
    const added = count - (before.calls[name] ?? 0);
    // INFO itself and the cluster client's topology checks are the benchmark's, not the limiter's.
    if (added > 0 && !['info', 'cluster', 'command', 'ping'].includes(name)) calls[name] = added;
  }
  return { memory: after.memory - before.memory, calls, cpuUs: after.cpuUs - before.cpuUs };
};

/**
 * Measures one limiter over `actives` key counts. `nodes` are plain clients of every master (for
 * INFO and FLUSHALL); `limiter` is `createRedisRateLimiter` on the client under test.
 * @param {{ name: string; limiter: RateLimiter; nodes: Redis[]; actives: number[]; seconds: number; concurrency: number; prefix: string }} options
 */
export async function measureLimiter({ name, limiter, nodes, actives, seconds, concurrency, prefix }) {
  const rows = [];
  for (const active of actives) {
    await Promise.all(nodes.map((node) => node.flushall()));
    await limiter.hit(`${prefix}warm`, Date.now());
    /** @param {number} i */
    const keyOf = (i) => `${prefix}${active}:${i % active}`;
    /**
     * @param {number} from
     * @param {number} perKey
     */
    const fill = (from, perKey) =>
      drive(
        async (i) => (i < active * perKey ? ((await limiter.hit(keyOf(from + i), Date.now())).allowed ? 1 : 0) : 2),
        {
          seconds: 3600,
          concurrency,
          until: active * perKey,
        },
      );
    const empty = await serverStats(nodes);
    await fill(0, 1);
    const one = await serverStats(nodes);
    await fill(0, 4);
    const five = await serverStats(nodes);
    const before = await serverStats(nodes);
    const run = await drive(async (i) => ((await limiter.hit(keyOf(i * 7919), Date.now())).allowed ? 200 : 429), {
      seconds,
      concurrency,
    });
    const after = await serverStats(nodes);
    const used = delta(after, before);
    const ops = Object.values(used.calls).reduce((a, b) => a + b, 0);
    rows.push({
      limiter: name,
      activeWebhooks: active,
      bytesPerActiveWebhook: Math.round(delta(one, empty).memory / active),
      bytesPerFurtherPost: round(delta(five, one).memory / (4 * active), 1),
      decisionsPerSecond: run.perSecond,
      p50Ms: run.p50Ms,
      p99Ms: run.p99Ms,
      redisCommandsPerDecision: round(ops / run.posts, 2),
      roundTripsPerDecision: round(
        ((used.calls.evalsha ?? 0) + (used.calls.eval ?? 0) + (used.calls.script ?? 0)) / run.posts,
        3,
      ),
      redisCpuUsPerDecision: round(used.cpuUs / run.posts, 1),
      commands: Object.fromEntries(
        Object.entries(used.calls).map(([command, calls]) => [command, round(calls / run.posts, 3)]),
      ),
      refused: run.statuses[429] ?? 0,
    });
  }
  return rows;
}

/**
 * The same limiter batched (the default) and not (`maxBatch: 1`), at 1 and 32 decisions in flight,
 * in `rounds` alternating rounds on one server: decisions/s, p50/p99, and per decision the round
 * trips (scripts run), the commands and Redis's CPU. Keys are spread over each of `actives` webhooks
 * as in `measureLimiter` (1: one webhook flooding, its decisions mostly refused).
 * `createLimiter(options)` makes a limiter on the client under test.
 * @param {{ name: string; createLimiter: CreateLimiter; nodes: Redis[]; seconds: number; rounds: number; prefix: string; actives: number[] }} options
 */
export async function measureBatching({ name, createLimiter, nodes, seconds, rounds, prefix, actives }) {
  const limiters = { batched: createLimiter({}), 'not batched': createLimiter({ maxBatch: 1 }) };
  const rows = [];
  await Promise.all(nodes.map((node) => node.flushall()));
  for (const limiter of Object.values(limiters)) await limiter.hit(`${prefix}warm`, Date.now());
  for (let pass = 0; pass < rounds; pass++) {
    /** @type {(keyof typeof limiters)[]} */
    const modes = pass % 2 === 0 ? ['batched', 'not batched'] : ['not batched', 'batched'];
    for (const active of actives)
      for (const inFlight of [1, 32])
        for (const mode of modes) {
          const limiter = limiters[mode];
          const before = await serverStats(nodes);
          const run = await drive(
            async (i) =>
              (await limiter.hit(`${prefix}${active}:${(i * 7919) % active}`, Date.now())).allowed ? 200 : 429,
            { seconds, concurrency: inFlight },
          );
          const used = delta(await serverStats(nodes), before);
          const scripts = (used.calls.evalsha ?? 0) + (used.calls.eval ?? 0);
          rows.push({
            server: name,
            activeWebhooks: active,
            inFlight,
            mode,
            round: pass,
            decisionsPerSecond: run.perSecond,
            p50Ms: run.p50Ms,
            p99Ms: run.p99Ms,
            roundTripsPerDecision: round3(scripts / run.posts),
            commandsPerDecision: round3(Object.values(used.calls).reduce((a, b) => a + b, 0) / run.posts),
            redisCpuUsPerDecision: round(used.cpuUs / run.posts, 1),
            nodeCpuUsPerDecision: run.cpuUsPerPost,
          });
        }
  }
  return rows;
}

/**
 * How long one script holds Redis as its batch grows: a limiter with `maxBatch` N driven with 2N
 * decisions in flight (so its batches fill), over keys each holding up to `limit` times. Per size:
 * the decisions a script carried on average and Redis's own time per script and per decision
 * (`INFO commandstats`' usec of EVALSHA). This is what bounds `maxBatch`: a script is one command,
 * and Redis runs nothing else while it runs.
 * @param {{ name: string; createLimiter: CreateLimiter; node: Redis; sizes: number[]; seconds: number; prefix: string; active?: number }} options
 */
export async function measureBatchSize({ name, createLimiter, node, sizes, seconds, prefix, active = 2_000 }) {
  const rows = [];
  for (const size of sizes) {
    await node.flushall();
    const limiter = createLimiter({ maxBatch: size });
    // Every key with 60 times in its window, as a webhook posting at the default limit.
    await drive(async (i) => ((await limiter.hit(`${prefix}${i % active}`, Date.now())).allowed ? 1 : 0), {
      seconds: 3600,
      concurrency: 2 * size,
      until: active * 60,
    });
    const before = await scriptStats(node);
    const run = await drive(
      async (i) => ((await limiter.hit(`${prefix}${(i * 7919) % active}`, Date.now())).allowed ? 200 : 429),
      {
        seconds,
        concurrency: 2 * size,
      },
    );
    const after = await scriptStats(node);
    const calls = after.calls - before.calls;
    const usec = after.usec - before.usec;
    rows.push({
      server: name,
      maxBatch: size,
      decisionsPerScript: round(run.posts / calls, 1),
      scriptUs: round(usec / calls, 1),
      redisUsPerDecision: round(usec / run.posts, 2),
      decisionsPerSecond: run.perSecond,
    });
  }
  return rows;
}

/**
 * Min–max of each figure of `measureBatching`'s rows, per server, active webhooks, decisions in flight and mode.
 * @param {Awaited<ReturnType<typeof measureBatching>>} rows
 */
export function batchingRanges(rows) {
  /** @type {Map<string, typeof rows>} */
  const groups = new Map();
  for (const row of rows) {
    const id = `${row.server}|${row.activeWebhooks}|${row.inFlight}|${row.mode}`;
    const group = groups.get(id);
    if (group === undefined) groups.set(id, [row]);
    else group.push(row);
  }
  const figures = /** @type {const} */ ([
    'decisionsPerSecond',
    'p50Ms',
    'p99Ms',
    'roundTripsPerDecision',
    'commandsPerDecision',
    'redisCpuUsPerDecision',
    'nodeCpuUsPerDecision',
  ]);
  return [...groups.values()].map((group) => {
    const [{ server, activeWebhooks, inFlight, mode }] = /** @type {[(typeof rows)[number]]} */ (group);
    return {
      server,
      activeWebhooks,
      inFlight,
      mode,
      rounds: group.length,
      .../** @type {Record<(typeof figures)[number], [number, number]>} */ (
        Object.fromEntries(
          figures.map((figure) => {
            // A null latency (a run without posts) counts as 0, as Math.min and Math.max take it.
            const values = group.map((row) => Number(row[figure]));
            return [figure, [Math.min(...values), Math.max(...values)]];
          }),
        )
      ),
    };
  });
}

/** @param {Redis} node */
async function scriptStats(node) {
  const info = await node.info('commandstats');
  const match = /^cmdstat_evalsha:calls=(\d+),usec=(\d+)/m.exec(info);
  return { calls: Number(match?.[1] ?? 0), usec: Number(match?.[2] ?? 0) };
}

/** @param {number} x */
const round3 = (x) => round(x, 3);
