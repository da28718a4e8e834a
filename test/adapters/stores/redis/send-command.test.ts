import { describe, expect, it } from 'vitest';
import { createRedisRateLimiter, type RedisSendCommand } from '../../../../adapters/stores/redis/index.js';

// Rule: every command names the Redis key it touches, so that a cluster client routes it by that
// name; the keyless SCRIPT LOAD names none. No Redis is needed: the replies are Redis's shapes.
describe('createRedisRateLimiter sendCommand', () => {
  it('passes each command the key it touches, by name, and no key for SCRIPT LOAD', async () => {
    const sent: Array<[string, string | undefined]> = [];
    const sendCommand: RedisSendCommand = async ([command, ...rest], key) => {
      sent.push([command, key]);
      if (command === 'SCRIPT') return 'a'.repeat(40);
      if (command === 'EVALSHA') throw new Error('NOSCRIPT No matching script');
      // One outcome per decision; the oldest counted time is this request's own `now` (ARGV[3]).
      return [[1, 1, rest[5]]];
    };
    const limiter = createRedisRateLimiter({ sendCommand, keyPrefix: 'p:' });
    const now = Date.UTC(2026, 0, 1);
    expect(await limiter.hit('wh_1', now)).toEqual({
      allowed: true,
      limit: 60,
      windowMs: 60_000,
      remaining: 59,
      resetMs: 60_000,
    });
    expect(sent).toEqual([
      ['SCRIPT', undefined],
      ['EVALSHA', 'p:wh_1'],
      ['EVAL', 'p:wh_1'],
    ]);
  });

  it('takes exactly one of client and sendCommand, also in its type', () => {
    const sendCommand: RedisSendCommand = async () => null;
    const client = { call: async () => null };
    // @ts-expect-error: both connections at once
    expect(() => createRedisRateLimiter({ client, sendCommand })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    // @ts-expect-error: no connection
    expect(() => createRedisRateLimiter({ limit: 5 })).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });
});
