import { Redis as Valkey } from 'iovalkey';
import { createClient } from 'redis';
import { createClient as createClient4 } from 'redis4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRedisRateLimiter,
  type RedisCallClient,
  type RedisSendCommand,
} from '../../../../adapters/stores/redis/index.js';
import { runRateLimiterConformance } from '../../../../src/testing/index.js';
import { backends } from '../../../support/backends.js';

const { redisUrl, title } = backends();

interface Connected {
  /** How the README tells users of this client to pass it. */
  options: { client: RedisCallClient } | { sendCommand: RedisSendCommand };
  /** The same client as a plain `sendCommand`, to count what the limiter sends. */
  sendCommand: RedisSendCommand;
  close(): Promise<unknown>;
}

const clients: Array<{ name: string; keyPrefix: string; connect: (url: string) => Promise<Connected> }> = [
  {
    name: 'node-redis 5 (redis)',
    keyPrefix: 'cwtest:node-redis-5:',
    async connect(url) {
      const client = await createClient({ url, disableOfflineQueue: true }).connect();
      const sendCommand: RedisSendCommand = (args) => client.sendCommand(args);
      return { options: { sendCommand }, sendCommand, close: () => client.close() };
    },
  },
  {
    name: 'node-redis 4 (redis4)',
    keyPrefix: 'cwtest:node-redis-4:',
    async connect(url) {
      const client = createClient4({ url, disableOfflineQueue: true });
      await client.connect();
      const sendCommand: RedisSendCommand = (args) => client.sendCommand(args);
      return { options: { sendCommand }, sendCommand, close: () => client.quit() };
    },
  },
  {
    name: 'iovalkey, passed as client',
    keyPrefix: 'cwtest:iovalkey:',
    async connect(url) {
      const client = new Valkey(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
      await client.connect();
      const sendCommand: RedisSendCommand = ([command, ...rest]) => client.call(command, ...rest);
      return { options: { client }, sendCommand, close: () => client.quit() };
    },
  },
];

for (const { name, keyPrefix, connect } of clients) {
  describe.skipIf(redisUrl === null)(title(`Redis rate limiter on ${name}`, 'redis'), () => {
    let connected: Connected;

    beforeAll(async () => {
      connected = await connect(redisUrl!);
    });
    afterAll(async () => {
      await connected?.close();
    });

    runRateLimiterConformance({
      describe,
      it,
      name: 'conformance',
      createRateLimiter: ({ limit, windowMs }) =>
        createRedisRateLimiter({ ...connected.options, limit, windowMs, keyPrefix }),
    });

    it('sends one SCRIPT LOAD, then one EVALSHA per decision, decoding the replies exactly', async () => {
      const sent: string[] = [];
      const limiter = createRedisRateLimiter({
        sendCommand: (args, key) => (sent.push(args[0]), connected.sendCommand(args, key)),
        keyPrefix,
        limit: 2,
        windowMs: 1_000,
      });
      const now = Date.UTC(2026, 0, 1) + 0.5;
      expect(await limiter.hit('k-replies', now)).toEqual({
        allowed: true,
        limit: 2,
        windowMs: 1_000,
        remaining: 1,
        resetMs: 1_000,
      });
      expect(await limiter.hit('k-replies', now + 10)).toEqual({
        allowed: true,
        limit: 2,
        windowMs: 1_000,
        remaining: 0,
        resetMs: 990,
      });
      expect(await limiter.hit('k-replies', now + 20)).toEqual({
        allowed: false,
        limit: 2,
        windowMs: 1_000,
        remaining: 0,
        resetMs: 980,
      });
      expect(sent).toEqual(['SCRIPT', 'EVALSHA', 'EVALSHA', 'EVALSHA']);
    });
  });
}
