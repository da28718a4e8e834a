import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisRateLimiter, type RedisScriptClient } from '../../adapters/redis/index.js';
import { freePort } from '../support/servers.js';
import { runRateLimiterConformance } from '../../src/testing/index.js';
import { backends } from '../support/backends.js';

const { redisUrl, title } = backends();
const keyPrefix = 'cwtest:conformance:';
// Fail fast instead of queueing commands while disconnected: what the README recommends.
const clientOptions = { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1_000, lazyConnect: true };

describe.skipIf(redisUrl === null)(title('Redis rate limiter', 'redis'), () => {
  let client: Redis;

  beforeAll(async () => {
    client = new Redis(redisUrl!, clientOptions);
    await client.connect();
  });
  afterAll(async () => {
    await client?.quit();
  });

  runRateLimiterConformance({
    describe,
    it,
    name: 'conformance',
    createRateLimiter: ({ limit, windowMs }) => createRedisRateLimiter({ client, limit, windowMs, keyPrefix }),
  });

  describe('on the Redis server', () => {
    it('makes one round trip per decision, and recovers from a flushed script cache with EVAL', async () => {
      const calls: string[] = [];
      const counting: RedisScriptClient = {
        evalsha: (...args) => (calls.push('evalsha'), client.evalsha(...args)),
        eval: (...args) => (calls.push('eval'), client.eval(...args)),
      };
      const limiter = createRedisRateLimiter({ client: counting, keyPrefix });
      const now = Date.UTC(2026, 0, 1);
      await client.script('FLUSH');
      expect(await limiter.hit('k-script', now)).toEqual({ allowed: true, limit: 60, windowMs: 60_000, remaining: 59, resetMs: 60_000 });
      expect(calls).toEqual(['evalsha', 'eval']);
      calls.length = 0;
      expect(await limiter.hit('k-script', now + 1)).toEqual({ allowed: true, limit: 60, windowMs: 60_000, remaining: 58, resetMs: 59_999 });
      expect(calls).toEqual(['evalsha']);
    });

    it('keeps a sorted set under the prefixed key that expires a window after the last allowed hit', async () => {
      const limiter = createRedisRateLimiter({ client, keyPrefix, limit: 2, windowMs: 5_000 });
      const now = Date.UTC(2026, 0, 1);
      await limiter.hit('k-expire', now);
      await limiter.hit('k-expire', now);
      await limiter.hit('k-expire', now);
      expect(await client.type(`${keyPrefix}k-expire`)).toBe('zset');
      expect(await client.zcard(`${keyPrefix}k-expire`)).toBe(2);
      const ttl = await client.pttl(`${keyPrefix}k-expire`);
      expect(ttl).toBeGreaterThan(4_000);
      expect(ttl).toBeLessThanOrEqual(5_000);
    });

    it('computes resetMs exactly for times with a fraction of a millisecond', async () => {
      const limiter = createRedisRateLimiter({ client, keyPrefix, limit: 1, windowMs: 1_000 });
      const now = Date.UTC(2026, 0, 1) + 0.25;
      expect(await limiter.hit('k-fraction', now)).toMatchObject({ allowed: true, resetMs: 1_000 });
      expect(await limiter.hit('k-fraction', now + 100.5)).toMatchObject({ allowed: false, resetMs: 899.5 });
    });

    it('refuses bad options', () => {
      expect(() => createRedisRateLimiter({ client, limit: 0 })).toThrow(RangeError);
      expect(() => createRedisRateLimiter({ client, windowMs: 1.5 })).toThrow(RangeError);
      expect(() => createRedisRateLimiter({ client: {} as RedisScriptClient })).toThrow(/ioredis/);
    });

    it('rejects promptly with rate_limiter_failed when Redis is unreachable', async () => {
      const down = new Redis(await freePort(), '127.0.0.1', { ...clientOptions, lazyConnect: false, retryStrategy: () => 1_000 });
      down.on('error', () => {});
      try {
        const limiter = createRedisRateLimiter({ client: down });
        const started = Date.now();
        const error = await Promise.resolve(limiter.hit('k-down', Date.now())).catch((caught: unknown) => caught);
        expect(error).toMatchObject({ name: 'ChannelWebhookError', code: 'rate_limiter_failed' });
        expect(Date.now() - started).toBeLessThan(500);
      } finally {
        down.disconnect();
      }
    });
  });
});
