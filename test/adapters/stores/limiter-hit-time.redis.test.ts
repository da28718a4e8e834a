import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisRateLimiter } from '../../../adapters/stores/redis/index.js';
import { createSqliteRateLimiter } from '../../../adapters/stores/sqlite/index.js';
import { createMemoryRateLimiter, type RateLimiter } from '../../../src/index.js';
import { backends } from '../../support/backends.js';

const { redisUrl, title } = backends();
const dir = mkdtempSync(join(tmpdir(), 'cw-hit-time-'));
let database: Database.Database;
let client: Redis;

beforeAll(async () => {
  database = new Database(join(dir, 'limiter.sqlite'));
  if (redisUrl !== null) {
    client = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    await client.connect();
  }
});
afterAll(async () => {
  database?.close();
  await client?.quit();
  rmSync(dir, { recursive: true, force: true });
});

// One rule for every limiter of the library: a time that is not a finite number (a clock returning
// NaN, say) is refused with `invalid_argument`, never counted.
const limiters: Array<[string, () => RateLimiter, boolean]> = [
  ['memory', () => createMemoryRateLimiter({ limit: 2 }), false],
  ['SQLite', () => createSqliteRateLimiter({ database, limit: 2 }), false],
  ['Redis', () => createRedisRateLimiter({ client, limit: 2, keyPrefix: 'cwtest:hit-time:' }), true],
];

describe.each(limiters)(title('%s rate limiter: the time a hit is given', 'redis'), (name, create, needsRedis) => {
  it.skipIf(needsRedis && redisUrl === null)(
    'refuses a time that is not a finite number, and counts nothing for it',
    async () => {
      const limiter = create();
      const key = `k-${name}`;
      for (const now of [Number.NaN, Number.POSITIVE_INFINITY, '1764000000000', undefined]) {
        const refusal = await (async () => limiter.hit(key, now as number))().then(
          () => null,
          (error: { code?: string; message?: string }) => [error.code, error.message],
        );
        expect(refusal).toEqual([
          'invalid_argument',
          expect.stringMatching(/^RateLimiter\.hit: now must be a finite number of epoch ms: got /),
        ]);
      }
      const at = Date.UTC(2026, 0, 1);
      expect((await limiter.hit(key, at)).remaining).toBe(1);
    },
  );
});
