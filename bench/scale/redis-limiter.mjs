// The Redis limiter alone as the number of active webhooks grows: memory per active webhook (one
// post in its window, then each further post), the commands Redis runs per decision (INFO
// commandstats, the script's own calls included) and decisions per second with p50/p99, on one
// Redis and on a Redis Cluster. `now` is the real clock, so every key stays in its window.

import { drive, round } from './drive.mjs';

/** Sums `INFO` fields over the nodes: used_memory and every command's calls. */
async function serverStats(nodes) {
  const stats = { memory: 0, calls: {}, cpuUs: 0 };
  for (const node of nodes) {
    const info = await node.info('all');
    stats.memory += Number(/^used_memory:(\d+)/m.exec(info)[1]);
    stats.cpuUs +=
      (Number(/^used_cpu_sys:([\d.]+)/m.exec(info)[1]) + Number(/^used_cpu_user:([\d.]+)/m.exec(info)[1])) * 1e6;
    for (const [, name, calls] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
      stats.calls[name] = (stats.calls[name] ?? 0) + Number(calls);
  }
  return stats;
}

const delta = (after, before) => {
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
 */
export async function measureLimiter({ name, limiter, nodes, actives, seconds, concurrency, prefix }) {
  const rows = [];
  for (const active of actives) {
    await Promise.all(nodes.map((node) => node.flushall()));
    await limiter.hit(`${prefix}warm`, Date.now());
    const keyOf = (i) => `${prefix}${active}:${i % active}`;
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
