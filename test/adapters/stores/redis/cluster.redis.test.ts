import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisRateLimiter, type RedisSendCommand } from '../../../../adapters/stores/redis/index.js';
import { createMemoryRateLimiter, type RateLimiter } from '../../../../src/index.js';
import { runRateLimiterConformance } from '../../../../src/testing/index.js';
import { backends } from '../../../support/backends.js';
import { type ClusterClients, closeClusterClients, connectClusterClients } from '../../../support/redis-cluster.js';

const { redisClusterNodes: nodes, title } = backends();
const suite = title('Redis rate limiter on Redis Cluster', 'cluster');
const keyPrefix = 'cwtest:cluster:';

describe.skipIf(nodes === null)(suite, () => {
  let ioredis: ClusterClients['ioredis'];
  let nodeRedis: ClusterClients['nodeRedis'];
  // One plain connection per master, to look at each node on its own.
  let masters: Redis[];
  const sendThroughIoredis: RedisSendCommand = ([command, ...rest]) => ioredis.call(command, ...rest);
  // The guide's one-liner: the limiter names the key each command touches, and node-redis routes by it.
  const sendThroughNodeRedis: RedisSendCommand = (args, key) => nodeRedis.sendCommand(key, false, args);

  beforeAll(async () => {
    ({ ioredis, nodeRedis, masters } = await connectClusterClients(nodes!));
  });
  afterAll(() => closeClusterClients({ ioredis, nodeRedis, masters }));

  const clients = [
    {
      name: 'ioredis Cluster, passed as client',
      create: (options: object) => createRedisRateLimiter({ client: ioredis, keyPrefix, ...options }),
      send: () => sendThroughIoredis,
    },
    {
      name: 'node-redis createCluster',
      create: (options: object) => createRedisRateLimiter({ sendCommand: sendThroughNodeRedis, keyPrefix, ...options }),
      send: () => sendThroughNodeRedis,
    },
  ];

  for (const { name, create, send } of clients) {
    describe(name, () => {
      runRateLimiterConformance({
        describe,
        it,
        name: 'conformance',
        createRateLimiter: ({ limit, windowMs }) => create({ limit, windowMs }),
      });

      it('warms up with one SCRIPT LOAD and one EVAL per master without the script, then makes one round trip per decision', async () => {
        await Promise.all(masters.map((master) => master.script('FLUSH')));
        const sent: string[] = [];
        const tag = name.split(' ')[0];
        const limiter = createRedisRateLimiter({
          sendCommand: (args, key) => (sent.push(args[0]), send()(args, key)),
          keyPrefix,
        });
        const keys = Array.from({ length: 30 }, (_, i) => `rt-${tag}-${i}`);
        const now = Date.UTC(2026, 0, 1);
        for (const key of keys) expect(await limiter.hit(key, now)).toMatchObject({ allowed: true, remaining: 59 });
        // The keys live on every master, so every master has needed the script.
        const held = await Promise.all(masters.map((master) => master.keys(`${keyPrefix}rt-${tag}-*`)));
        expect(held.every((found) => found.length > 0)).toBe(true);
        expect(held.flat().sort()).toEqual(keys.map((key) => keyPrefix + key).sort());
        expect(count(sent)).toEqual({ SCRIPT: 1, EVALSHA: 30, EVAL: masters.length - 1 });

        // Counted on the servers too: a command sent to the wrong node would cost a MOVED and a retry.
        const before = await serverStats(masters);
        sent.length = 0;
        for (const key of keys) expect(await limiter.hit(key, now + 1)).toMatchObject({ allowed: true, remaining: 58 });
        expect(count(sent)).toEqual({ EVALSHA: 30 });
        const after = await serverStats(masters);
        expect({ evalsha: after.evalsha - before.evalsha, moved: after.moved - before.moved }).toEqual({
          evalsha: 30,
          moved: 0,
        });
      });
    });
  }

  // Rule: two limiters on two client libraries, each with its own connections, hitting one key
  // through the cluster in concurrent bursts at the same moments, together allow exactly what one
  // in-memory limiter allows for the same bursts, so never more than `limit` in any window.
  it('two clients hammering one key through the cluster allow exactly the limit, never more', async () => {
    const limit = 20;
    const windowMs = 1_000;
    const first = createRedisRateLimiter({ client: ioredis, keyPrefix, limit, windowMs });
    const second = createRedisRateLimiter({ sendCommand: sendThroughNodeRedis, keyPrefix, limit, windowMs });
    const reference = createMemoryRateLimiter({ limit, windowMs });
    const key = `exact-${Date.now()}`;
    const start = Date.UTC(2026, 0, 1);
    const allowedAt: number[] = [];
    const perStep: Array<{ redis: number; reference: number }> = [];

    for (let step = 0; step < 30; step++) {
      const now = start + step * 150;
      const burst = 3 + ((step * 7) % 11);
      const burstOf = (limiter: RateLimiter) => Array.from({ length: burst }, () => limiter.hit(key, now));
      const decisions = await Promise.all([...burstOf(first), ...burstOf(second)]);
      const allowed = decisions.filter((decision) => decision.allowed).length;
      for (let i = 0; i < allowed; i++) allowedAt.push(now);
      let expected = 0;
      for (let i = 0; i < 2 * burst; i++) if ((await reference.hit(key, now)).allowed) expected++;
      perStep.push({ redis: allowed, reference: expected });
    }

    expect(perStep.map((step) => step.redis)).toEqual(perStep.map((step) => step.reference));
    expect(perStep[0]).toEqual({ redis: 6, reference: 6 });
    expect(allowedAt.length).toBeGreaterThan(limit * 3);
    for (const at of allowedAt) {
      expect(allowedAt.filter((other) => other > at - windowMs && other <= at).length).toBeLessThanOrEqual(limit);
    }
  });
});

/** EVALSHA calls and MOVED errors, summed over the masters. */
async function serverStats(masters: Redis[]): Promise<{ evalsha: number; moved: number }> {
  const infos = await Promise.all(masters.map((master) => master.info('all')));
  const sum = (pattern: RegExp) => infos.reduce((total, info) => total + Number(pattern.exec(info)?.[1] ?? 0), 0);
  return { evalsha: sum(/^cmdstat_evalsha:calls=(\d+)/m), moved: sum(/^errorstat_MOVED:count=(\d+)/m) };
}

function count(commands: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const command of commands) counts[command] = (counts[command] ?? 0) + 1;
  return counts;
}
