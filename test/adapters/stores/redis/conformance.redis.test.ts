import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisRateLimiter, type RedisSendCommand } from '../../../../adapters/stores/redis/index.js';
import { freePort } from '../../../support/servers.js';
import { runRateLimiterConformance } from '../../../../src/testing/index.js';
import { backends } from '../../../support/backends.js';

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
    it('loads the script once, then makes one round trip per decision', async () => {
      const sent: string[] = [];
      const sendCommand: RedisSendCommand = ([command, ...rest]) => (sent.push(command), client.call(command, ...rest));
      const limiter = createRedisRateLimiter({ sendCommand, keyPrefix });
      const now = Date.UTC(2026, 0, 1);
      const decisions = await Promise.all([limiter.hit('k-load-a', now), limiter.hit('k-load-b', now)]);
      expect(decisions.map((decision) => decision.remaining)).toEqual([59, 59]);
      expect(sent).toEqual(['SCRIPT', 'EVALSHA', 'EVALSHA']);
      sent.length = 0;
      for (let i = 1; i <= 10; i++) await limiter.hit('k-load-a', now + i);
      expect(sent).toEqual(Array(10).fill('EVALSHA'));
    });

    it('recovers from a flushed script cache with one EVAL, then goes back to EVALSHA', async () => {
      const sent: string[] = [];
      const sendCommand: RedisSendCommand = ([command, ...rest]) => (sent.push(command), client.call(command, ...rest));
      const limiter = createRedisRateLimiter({ sendCommand, keyPrefix });
      const now = Date.UTC(2026, 0, 1);
      await limiter.hit('k-script', now);
      await client.script('FLUSH');
      sent.length = 0;
      expect(await limiter.hit('k-script', now + 1)).toEqual({
        allowed: true,
        limit: 60,
        windowMs: 60_000,
        remaining: 58,
        resetMs: 59_999,
      });
      expect(sent).toEqual(['EVALSHA', 'EVAL']);
      sent.length = 0;
      expect(await limiter.hit('k-script', now + 2)).toEqual({
        allowed: true,
        limit: 60,
        windowMs: 60_000,
        remaining: 57,
        resetMs: 59_998,
      });
      expect(sent).toEqual(['EVALSHA']);
    });

    it('retries SCRIPT LOAD at the next decision after it failed', async () => {
      let failLoad = true;
      const sendCommand: RedisSendCommand = async ([command, ...rest]) => {
        if (command === 'SCRIPT' && failLoad) throw new Error('LOADING Redis is loading the dataset in memory');
        return client.call(command, ...rest);
      };
      const limiter = createRedisRateLimiter({ sendCommand, keyPrefix });
      const now = Date.UTC(2026, 0, 1);
      await expect(limiter.hit('k-retry-load', now)).rejects.toMatchObject({
        code: 'rate_limiter_failed',
        message: expect.stringContaining('LOADING'),
      });
      failLoad = false;
      expect(await limiter.hit('k-retry-load', now)).toMatchObject({ allowed: true, remaining: 59 });
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

    it('refuses bad options with invalid_argument', () => {
      const sendCommand: RedisSendCommand = ([command, ...rest]) => client.call(command, ...rest);
      const invalid = { name: 'ChannelWebhookError', code: 'invalid_argument' };
      expect(() => createRedisRateLimiter({ client, limit: 0 })).toThrow(expect.objectContaining(invalid));
      expect(() => createRedisRateLimiter({ client, windowMs: 1.5 })).toThrow(expect.objectContaining(invalid));
      expect(() => createRedisRateLimiter({ client, keyPrefix: 7 as unknown as string })).toThrow(
        expect.objectContaining(invalid),
      );
      expect(() => createRedisRateLimiter({} as never)).toThrow(
        expect.objectContaining({ ...invalid, message: expect.stringContaining('sendCommand') }),
      );
      expect(() => createRedisRateLimiter({ client, sendCommand } as never)).toThrow(expect.objectContaining(invalid));
      expect(() => createRedisRateLimiter({ client: { evalsha: () => {} } as never })).toThrow(
        expect.objectContaining(invalid),
      );
    });

    it('rejects promptly with rate_limiter_failed when Redis is unreachable', async () => {
      const down = new Redis(await freePort(), '127.0.0.1', {
        ...clientOptions,
        lazyConnect: false,
        retryStrategy: () => 1_000,
      });
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
