import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySlot } from '../../../../adapters/stores/redis/key-slot.js';
import { createRedisRateLimiter, type RedisSendCommand } from '../../../../adapters/stores/redis/index.js';
import { createMemoryRateLimiter, type RateLimitDecision, type RateLimiter } from '../../../../src/index.js';
import { backends } from '../../../support/backends.js';
import { type ClusterClients, closeClusterClients, connectClusterClients } from '../../../support/redis-cluster.js';

const { redisClusterNodes: nodes, title } = backends();
const suite = title('Redis rate limiter batching on Redis Cluster', 'cluster');

/** Server counters summed over the masters: EVALSHA and EVAL calls, and MOVED and CROSSSLOT errors. */
async function serverStats(masters: Redis[]) {
  const infos = await Promise.all(masters.map((master) => master.info('all')));
  const sum = (pattern: RegExp) => infos.reduce((total, info) => total + Number(pattern.exec(info)?.[1] ?? 0), 0);
  return {
    scripts: sum(/^cmdstat_evalsha:calls=(\d+)/m) + sum(/^cmdstat_eval:calls=(\d+)/m),
    moved: sum(/^errorstat_MOVED:count=(\d+)/m),
    crossslot: sum(/^errorstat_CROSSSLOT:count=(\d+)/m),
  };
}

async function oneByOne(reference: RateLimiter, hits: Array<[key: string, now: number]>): Promise<RateLimitDecision[]> {
  const decisions: RateLimitDecision[] = [];
  for (const [key, now] of hits) decisions.push(await reference.hit(key, now));
  return decisions;
}

describe.skipIf(nodes === null)(suite, () => {
  let ioredis: ClusterClients['ioredis'];
  let nodeRedis: ClusterClients['nodeRedis'];
  let masters: Redis[];
  let run = 0;

  beforeAll(async () => {
    ({ ioredis, nodeRedis, masters } = await connectClusterClients(nodes!));
  });
  afterAll(() => closeClusterClients({ ioredis, nodeRedis, masters }));

  // Rule: the limiter puts keys in one script only when every cluster node would put them in one
  // slot, so its slot of a key is the server's own: plain keys, hash tags, an empty tag (the whole
  // key counts), a tag that never closes, and keys beyond ASCII, Latin-1 ones among them.
  it("computes every key's slot as the cluster does", async () => {
    const keys = [
      'channel-webhooks:rate:wh_1',
      'cwtest:x',
      '',
      '{user1000}.following',
      'foo{}{bar}',
      'foo{{bar}}zap',
      'foo{bar}{zap}',
      '{unclosed',
      'émoji-🚀-key',
      // Characters at or below U+00FF are one UTF-16 unit, but two bytes of UTF-8.
      'café:rate:wh_1',
      'naïve-ÿ-key',
      '{café}.rate',
      ...Array.from({ length: 200 }, (_, i) => `wh_${i.toString(36)}_${i * 7919}`),
    ];
    const slots = await Promise.all(keys.map((key) => masters[0]!.cluster('KEYSLOT', key)));
    expect(keys.map(keySlot)).toEqual(slots);
  });

  const clients: Array<{
    name: string;
    limiter: (options: object) => RateLimiter;
    read: (key: string) => Promise<unknown>;
    crossslot: number;
  }> = [
    {
      name: 'an ioredis Cluster passed as client (known to be a cluster)',
      limiter: (options) => createRedisRateLimiter({ client: ioredis, ...options }),
      read: (key) => ioredis.get(key),
      crossslot: 0,
    },
    {
      name: 'node-redis createCluster through sendCommand (learned from one CROSSSLOT)',
      limiter: (options) => {
        const sendCommand: RedisSendCommand = (args, key) => nodeRedis.sendCommand(key, false, args);
        return createRedisRateLimiter({ sendCommand, ...options });
      },
      read: (key) => nodeRedis.get(key),
      crossslot: 1,
    },
  ];

  for (const { name, limiter: create, read, crossslot } of clients) {
    // Rule: on a cluster, decisions on keys of many slots made at once answer exactly what the
    // in-memory limiter answers one at a time; the decisions of one slot gather into one round
    // trip, so there are fewer round trips than decisions; and no command lands on the wrong node.
    it(`decides keys on different slots exactly, gathering those of one slot: ${name}`, async () => {
      const limit = 4;
      const windowMs = 1_000;
      const keyPrefix = `cwtest:batch-cluster:${run++}:`;
      const limiter = create({ keyPrefix, limit, windowMs });
      const reference = createMemoryRateLimiter({ limit, windowMs });
      const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
      expect(new Set(keys.map((key) => keySlot(keyPrefix + key))).size).toBe(12);
      const start = Date.UTC(2026, 0, 1);
      // A client that has not yet sent to a slot may still hold a freshly made cluster's first map
      // of it; one read of each key settles that, so that a MOVED below is the limiter's.
      await Promise.all(keys.map((key) => read(keyPrefix + key)));
      const before = await serverStats(masters);

      let decisions = 0;
      for (let round = 0; round < 4; round++) {
        const hits = Array.from({ length: 72 }, (_, i): [string, number] => [keys[i % 12]!, start + round * 300 + i]);
        decisions += hits.length;
        const batched = await Promise.all(hits.map(([key, now]) => limiter.hit(key, now)));
        expect(batched).toEqual(await oneByOne(reference, hits));
      }

      const after = await serverStats(masters);
      expect(after.moved - before.moved).toBe(0);
      expect(after.crossslot - before.crossslot).toBe(crossslot);
      // Twelve slots, six decisions each per round: at most a round trip alone and one gathered per
      // slot and round, plus, in the first round, an EVAL for each slot whose first round trip
      // found the script missing on its master, and the mixed batch Redis refused.
      expect(after.scripts - before.scripts).toBeLessThanOrEqual(4 * 12 * 2 + 12 + crossslot);
      expect(after.scripts - before.scripts).toBeLessThan(decisions / 2);
    });

    // Rule: keys that share a hash tag share a slot, so decisions on different keys of one slot go
    // together in one script on their node.
    it(`puts different keys of one slot in one round trip: ${name}`, async () => {
      const keyPrefix = `cwtest:{batch-cluster-${run++}}:`;
      const limiter = create({ keyPrefix, limit: 2 });
      const now = Date.UTC(2026, 0, 1);
      await limiter.hit('warm', now);
      const before = await serverStats(masters);

      const decisions = await Promise.all(Array.from({ length: 33 }, (_, i) => limiter.hit(`k${i % 11}`, now)));

      expect(decisions.map((decision) => decision.remaining)).toEqual(
        Array.from({ length: 33 }, (_, i) => Math.max(0, 1 - Math.floor(i / 11))),
      );
      expect((await serverStats(masters)).scripts - before.scripts).toBe(2);
    });
  }
});
