import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedisRateLimiter, type RedisSendCommand } from '../../../../adapters/stores/redis/index.js';
import { createMemoryRateLimiter, type RateLimitDecision, type RateLimiter } from '../../../../src/index.js';
import { backends } from '../../../support/backends.js';

const { redisUrl, title } = backends();
const keyPrefix = 'cwtest:batching:';
const clientOptions = { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1_000, lazyConnect: true };

/**
 * A `sendCommand` over `client` that records every command and, while `hold` is on, keeps each
 * `EVALSHA` until the test releases it (sent to Redis then) or fails it: the test decides when a
 * round trip returns, and so which decisions gather behind it.
 */
function gatedSend(client: Redis) {
  const sent: string[][] = [];
  const held: Array<{ args: string[]; release: () => void; fail: (error: Error) => void }> = [];
  let hold = false;
  const sendCommand: RedisSendCommand = (args) => {
    sent.push(args);
    const [command, ...rest] = args;
    if (command !== 'EVALSHA' || !hold) return client.call(command, ...rest);
    return new Promise((resolve, reject) => {
      held.push({ args, release: () => resolve(client.call(command, ...rest)), fail: reject });
    });
  };
  return {
    sendCommand,
    sent,
    held,
    hold: (on: boolean) => {
      hold = on;
    },
    /** The number of keys of each script sent so far, in order. */
    batchSizes: () => sent.filter(([command]) => command !== 'SCRIPT').map((args) => Number(args[2])),
  };
}

async function evalshaCalls(client: Redis): Promise<number> {
  const info = await client.info('commandstats');
  return Number(/^cmdstat_evalsha:calls=(\d+)/m.exec(info)?.[1] ?? 0);
}

/** What `reference` answers for the same decisions one at a time, in the order they were made. */
async function oneByOne(reference: RateLimiter, hits: Array<[key: string, now: number]>): Promise<RateLimitDecision[]> {
  const decisions: RateLimitDecision[] = [];
  for (const [key, now] of hits) decisions.push(await reference.hit(key, now));
  return decisions;
}

describe.skipIf(redisUrl === null)(title('Redis rate limiter batching', 'redis'), () => {
  let client: Redis;
  let run = 0;
  // Each test its own keys, so that no test sees another's windows.
  const fresh = (name: string) => `${name}-${Date.now()}-${run++}`;

  beforeAll(async () => {
    client = new Redis(redisUrl!, clientOptions);
    await client.connect();
  });
  afterAll(async () => {
    await client?.quit();
  });

  // Rule: a hundred decisions on one key made at once are decided in the order they were made:
  // exactly the first `limit` are allowed, each caller sees its own place in the window, and they
  // take three round trips (the first alone, the rest gathered behind it, at most 64 in one),
  // counted on the server.
  it('100 concurrent decisions on one key with limit 60 allow exactly the first 60, in three round trips', async () => {
    const gate = gatedSend(client);
    const limiter = createRedisRateLimiter({ sendCommand: gate.sendCommand, keyPrefix });
    const key = fresh('one-key');
    const now = Date.UTC(2026, 0, 1);
    await limiter.hit(fresh('warm'), now);
    gate.sent.length = 0;
    const before = await evalshaCalls(client);

    const decisions = await Promise.all(Array.from({ length: 100 }, () => limiter.hit(key, now)));

    expect(decisions.map((decision) => decision.allowed)).toEqual(Array.from({ length: 100 }, (_, i) => i < 60));
    expect(decisions.map((decision) => decision.remaining)).toEqual(
      Array.from({ length: 100 }, (_, i) => Math.max(0, 59 - i)),
    );
    expect(decisions.every((decision) => decision.resetMs === 60_000)).toBe(true);
    expect(gate.batchSizes()).toEqual([1, 64, 35]);
    expect((await evalshaCalls(client)) - before).toBe(3);
    expect(await client.zcard(keyPrefix + key)).toBe(60);
  });

  // Rule: 32 decisions over 3 keys, at times that slide the window, made at once, answer exactly
  // what the in-memory limiter answers for the same decisions one at a time: every field, every
  // caller, in several rounds.
  it('32 concurrent decisions over 3 keys answer exactly what one-at-a-time decisions answer', async () => {
    const gate = gatedSend(client);
    const limit = 7;
    const windowMs = 1_000;
    const limiter = createRedisRateLimiter({ sendCommand: gate.sendCommand, keyPrefix, limit, windowMs });
    const reference = createMemoryRateLimiter({ limit, windowMs });
    const keys = [fresh('a'), fresh('b'), fresh('c')];
    const start = Date.UTC(2026, 0, 1);
    await limiter.hit(fresh('warm'), start);
    gate.sent.length = 0;

    for (let round = 0; round < 6; round++) {
      const hits = Array.from({ length: 32 }, (_, i): [string, number] => [
        keys[(i * 5 + round) % 3]!,
        start + round * 400 + i * 3,
      ]);
      const batched = await Promise.all(hits.map(([key, now]) => limiter.hit(key, now)));
      expect(batched).toEqual(await oneByOne(reference, hits));
    }
    // Each round: the first decision alone, the other 31 in one round trip.
    expect(gate.batchSizes()).toEqual(Array.from({ length: 6 }, () => [1, 31]).flat());
  });

  // Rule: the size of a round trip is bounded by maxBatch, and the decisions still come out exact.
  it('never puts more than maxBatch decisions in one round trip', async () => {
    const gate = gatedSend(client);
    const limiter = createRedisRateLimiter({ sendCommand: gate.sendCommand, keyPrefix, limit: 30, maxBatch: 8 });
    const key = fresh('bounded');
    const now = Date.UTC(2026, 0, 1);
    await limiter.hit(fresh('warm'), now);
    gate.sent.length = 0;

    const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter.hit(key, now)));

    expect(decisions.map((decision) => decision.remaining)).toEqual(
      Array.from({ length: 40 }, (_, i) => Math.max(0, 29 - i)),
    );
    expect(gate.batchSizes()).toEqual([1, 8, 8, 8, 8, 7]);
  });

  // Rule: a decision alone goes at once, never waiting for others; with maxBatch 1 every decision
  // goes at once in a round trip of its own, as before batching; with batching, one round trip is
  // out at a time and the rest gather.
  it('sends a decision alone at once; maxBatch 1 sends each at once in its own round trip', async () => {
    for (const [maxBatch, out] of [
      [1, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]],
      [64, [1]],
    ] as const) {
      const gate = gatedSend(client);
      const limiter = createRedisRateLimiter({ sendCommand: gate.sendCommand, keyPrefix, maxBatch });
      const now = Date.UTC(2026, 0, 1);
      await limiter.hit(fresh('warm'), now);
      gate.hold(true);
      const key = fresh(`alone-${maxBatch}`);
      const decisions = Promise.all(Array.from({ length: 10 }, () => limiter.hit(key, now)));
      await vi.waitFor(() => expect(gate.held.length).toBe(out.length));
      expect(gate.held.map(({ args }) => Number(args[2]))).toEqual(out);
      gate.hold(false);
      for (const round of gate.held) round.release();
      expect((await decisions).map((decision) => decision.remaining)).toEqual([59, 58, 57, 56, 55, 54, 53, 52, 51, 50]);
    }
  });

  // Rule: a round trip that fails fails the decisions it held, each with the limiter's error, and
  // no other: the decisions before it and the ones gathered behind it are answered, and Redis never
  // counted the failed ones.
  it('a failed round trip fails only the decisions it held', async () => {
    const gate = gatedSend(client);
    const limiter = createRedisRateLimiter({ sendCommand: gate.sendCommand, keyPrefix });
    const key = fresh('fail');
    const now = Date.UTC(2026, 0, 1);
    await limiter.hit(fresh('warm'), now);
    gate.hold(true);

    const first = limiter.hit(key, now);
    await vi.waitFor(() => expect(gate.held.length).toBe(1));
    // Settled as they come, so their rejections are handled before the test looks at them.
    const failing = Promise.allSettled(Array.from({ length: 10 }, () => limiter.hit(key, now)));
    gate.held[0]!.release();
    await vi.waitFor(() => expect(gate.held.length).toBe(2));
    const after = Array.from({ length: 9 }, () => limiter.hit(key, now));
    gate.held[1]!.fail(new Error('ERR connection lost'));
    await vi.waitFor(() => expect(gate.held.length).toBe(3));
    gate.held[2]!.release();

    expect(await first).toMatchObject({ allowed: true, remaining: 59 });
    const failed = await failing;
    expect(failed.map((outcome) => outcome.status)).toEqual(Array(10).fill('rejected'));
    for (const outcome of failed)
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({
        name: 'ChannelWebhookError',
        code: 'rate_limiter_failed',
        message: 'Redis rate limiter failed: ERR connection lost',
      });
    expect((await Promise.all(after)).map((decision) => decision.remaining)).toEqual([
      58, 57, 56, 55, 54, 53, 52, 51, 50,
    ]);
    expect(gate.held.map(({ args }) => Number(args[2]))).toEqual([1, 10, 9]);
    expect(await client.zcard(keyPrefix + key)).toBe(10);
  });

  // Rule: the same when the round trip fails because its connection was killed: the decisions it
  // held fail, and those gathered behind it go once the client has reconnected.
  it('a round trip on a killed connection fails only its own decisions', async () => {
    // It reconnects a while after the kill, so the held round trip is released on a closed connection.
    const own = new Redis(redisUrl!, { ...clientOptions, retryStrategy: () => 300 });
    own.on('error', () => {});
    await own.connect();
    try {
      const gate = gatedSend(own);
      const limiter = createRedisRateLimiter({ sendCommand: gate.sendCommand, keyPrefix });
      const key = fresh('killed');
      const now = Date.UTC(2026, 0, 1);
      await limiter.hit(fresh('warm'), now);
      const id = await own.client('ID');
      gate.hold(true);

      const first = limiter.hit(key, now);
      await vi.waitFor(() => expect(gate.held.length).toBe(1));
      const failing = Promise.allSettled(Array.from({ length: 10 }, () => limiter.hit(key, now)));
      gate.held[0]!.release();
      await vi.waitFor(() => expect(gate.held.length).toBe(2));
      const after = Array.from({ length: 9 }, () => limiter.hit(key, now));
      const closed = new Promise((resolve) => own.once('close', resolve));
      await client.client('KILL', 'ID', String(id));
      await closed;
      gate.held[1]!.release();
      await vi.waitFor(() => expect(gate.held.length).toBe(3));
      await vi.waitFor(() => expect(own.status).toBe('ready'));
      gate.held[2]!.release();

      expect(await first).toMatchObject({ allowed: true, remaining: 59 });
      for (const outcome of await failing) {
        expect(outcome.status).toBe('rejected');
        expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'rate_limiter_failed' });
      }
      expect((await Promise.all(after)).map((decision) => decision.remaining)).toEqual([
        58, 57, 56, 55, 54, 53, 52, 51, 50,
      ]);
      expect(gate.held.map(({ args }) => Number(args[2]))).toEqual([1, 10, 9]);
    } finally {
      own.disconnect();
    }
  });

  // Rule: a key that is not the limiter's (another program's string under the prefix) fails its
  // own decisions with the limiter's error, and the other decisions of the same script are decided.
  it('a key that is not a sorted set fails its own decisions, not the rest of its round trip', async () => {
    const gate = gatedSend(client);
    const limiter = createRedisRateLimiter({ sendCommand: gate.sendCommand, keyPrefix });
    const good = fresh('good');
    const foreign = fresh('foreign');
    await client.set(keyPrefix + foreign, 'not a sorted set');
    const now = Date.UTC(2026, 0, 1);
    await limiter.hit(fresh('warm'), now);
    gate.sent.length = 0;

    const outcomes = await Promise.allSettled([
      limiter.hit(good, now),
      limiter.hit(good, now),
      limiter.hit(foreign, now),
      limiter.hit(good, now),
    ]);

    expect(gate.batchSizes()).toEqual([1, 3]);
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.remaining : 'rejected'))).toEqual([
      59,
      58,
      'rejected',
      57,
    ]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({
      code: 'rate_limiter_failed',
      message: expect.stringContaining('WRONGTYPE'),
    });
  });

  // Rule: a batch that reaches a Redis without the script (flushed, restarted) runs as one EVAL of
  // the same batch, and every caller still gets its own answer.
  it('a batch that meets NOSCRIPT goes again as one EVAL with the same decisions', async () => {
    const gate = gatedSend(client);
    const limiter = createRedisRateLimiter({ sendCommand: gate.sendCommand, keyPrefix });
    const key = fresh('noscript');
    const now = Date.UTC(2026, 0, 1);
    await limiter.hit(fresh('warm'), now);
    gate.sent.length = 0;
    gate.hold(true);

    const first = limiter.hit(key, now);
    await vi.waitFor(() => expect(gate.held.length).toBe(1));
    const gathered = Array.from({ length: 19 }, () => limiter.hit(key, now));
    gate.held[0]!.release();
    await vi.waitFor(() => expect(gate.held.length).toBe(2));
    await client.script('FLUSH');
    gate.held[1]!.release();

    expect(await first).toMatchObject({ remaining: 59 });
    expect((await Promise.all(gathered)).map((decision) => decision.remaining)).toEqual(
      Array.from({ length: 19 }, (_, i) => 58 - i),
    );
    expect(gate.sent.map(([command, , keys]) => [command, Number(keys)])).toEqual([
      ['EVALSHA', 1],
      ['EVALSHA', 19],
      ['EVAL', 19],
    ]);
  });

  it('refuses a maxBatch that is not a whole number of at least 1 with invalid_argument', () => {
    for (const maxBatch of [0, 1.5, -1, '8'])
      expect(() => createRedisRateLimiter({ client, maxBatch: maxBatch as number })).toThrow(
        expect.objectContaining({ code: 'invalid_argument', message: expect.stringContaining('maxBatch') }),
      );
  });
});
