import { createServer, type Server, type Socket, connect } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedisFeedNotifier } from '../../../../adapters/stores/redis/index.js';
import type { FeedNotifierListener } from '../../../../src/index.js';
import { backends } from '../../../support/backends.js';

const { redisUrl, title } = backends();

/**
 * A TCP proxy to Redis whose connections can go silent: `silence()` stops carrying bytes on every
 * connection open now, without closing any, as a network that drops a connection without a word
 * (a failover, a NAT that forgot it) does; connections opened after it are carried as usual.
 */
async function silenceableProxy(target: URL): Promise<{ url: string; silence(): void; close(): Promise<void> }> {
  const pairs: Array<{ client: Socket; server: Socket; silent: boolean }> = [];
  const proxy: Server = createServer((client) => {
    const server = connect(Number(target.port), target.hostname);
    const pair = { client, server, silent: false };
    pairs.push(pair);
    client.on('data', (chunk) => pair.silent || server.write(chunk));
    server.on('data', (chunk) => pair.silent || client.write(chunk));
    const end = () => {
      client.destroy();
      server.destroy();
    };
    client.on('close', end).on('error', end);
    server.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    silence() {
      for (const pair of pairs) pair.silent = true;
    },
    async close() {
      for (const { client, server } of pairs) {
        client.destroy();
        server.destroy();
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

/** A listener that keeps what it hears, in order. */
function recorder(): FeedNotifierListener & { heard: string[] } {
  const heard: string[] = [];
  return {
    heard,
    wake: (channelIds) => heard.push(`wake ${channelIds?.join(',') ?? '*'}`),
    down: (error) => heard.push(`down ${(error as { code?: unknown }).code}`),
    ready: () => heard.push('ready'),
  };
}

describe.skipIf(redisUrl === null)(title('Redis feed notifier: a subscriber the network dropped', 'redis'), () => {
  let proxy: Awaited<ReturnType<typeof silenceableProxy>>;
  let client: Redis;
  let publisher: Redis;

  beforeAll(async () => {
    proxy = await silenceableProxy(new URL(redisUrl!));
    client = new Redis(proxy.url, { lazyConnect: true });
    client.on('error', () => {});
    publisher = new Redis(redisUrl!);
  });
  afterAll(async () => {
    client?.disconnect();
    publisher?.disconnect();
    await proxy?.close();
  });

  it('is told down when its connection stops answering, replaced, and heard again on the new one', async () => {
    const channel = `cwtest:notifier-silent:${process.pid}`;
    const notifier = createRedisFeedNotifier({ client, channel, pingMs: 200 });
    const listener = recorder();
    const unsubscribe = notifier.subscribe(listener);
    try {
      await vi.waitFor(() => expect(listener.heard).toEqual(['ready']), { timeout: 5_000 });
      await publisher.publish(channel, JSON.stringify(['general']));
      await vi.waitFor(() => expect(listener.heard).toEqual(['ready', 'wake general']), { timeout: 5_000 });

      proxy.silence();
      // No close, no error: only the unanswered PING tells, within two periods of 200 ms.
      await vi.waitFor(() => expect(listener.heard.slice(2, 3)).toEqual(['down feed_notifier_failed']), {
        timeout: 5_000,
      });
      // The new connection, through the same proxy, subscribes and says so: the followers then read.
      await vi.waitFor(() => expect(listener.heard.slice(3)).toEqual(['ready']), { timeout: 5_000 });
      await publisher.publish(channel, JSON.stringify(['random']));
      await vi.waitFor(() => expect(listener.heard.slice(4)).toEqual(['wake random']), { timeout: 5_000 });
    } finally {
      unsubscribe();
    }
  });

  it('keeps a connection that answers: no down while it is quiet for many periods', async () => {
    const channel = `cwtest:notifier-quiet:${process.pid}`;
    const notifier = createRedisFeedNotifier({ client, channel, pingMs: 50 });
    const listener = recorder();
    const unsubscribe = notifier.subscribe(listener);
    try {
      await vi.waitFor(() => expect(listener.heard).toEqual(['ready']), { timeout: 5_000 });
      // Twenty periods with nothing published: each PING is answered, so nothing changes.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await publisher.publish(channel, JSON.stringify(['general']));
      await vi.waitFor(() => expect(listener.heard).toEqual(['ready', 'wake general']), { timeout: 5_000 });
    } finally {
      unsubscribe();
    }
  });
});
