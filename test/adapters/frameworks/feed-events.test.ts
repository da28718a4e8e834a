import { once } from 'node:events';
import { createServer } from 'node:http';
import { createConnection } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import express5 from 'express';
import express4 from 'express4';
import Fastify5 from 'fastify';
import Fastify4 from 'fastify4';
import { Hono } from 'hono';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import { afterEach, describe, expect, it } from 'vitest';
import { serveFeedEvents as serveExpressFeedEvents } from '../../../adapters/frameworks/express/index.js';
import { serveFastifyFeedEvents } from '../../../adapters/frameworks/fastify/index.js';
import { createFeedEventsResponse } from '../../../adapters/frameworks/fetch/index.js';
import { serveKoaFeedEvents } from '../../../adapters/frameworks/koa/index.js';
import { serveFeedEvents } from '../../../adapters/frameworks/node/index.js';
import { createMemoryStore, type FeedEventsOptions, type MemoryStore, type Message } from '../../../src/index.js';
import { insertInput, makeMessage, makeWebhook } from '../../../src/testing/fixtures.js';
import { nextEvents, openEventStream, type EventStream } from '../../support/event-stream.js';
import { listen, listenFastify, type Listening } from '../../support/http.js';

/** Serves `GET /events/:channel` with the stack's helper, the channel taken from the path. */
type Serve = (options: (channelId: string) => FeedEventsOptions) => Promise<Listening>;

const stacks: Array<[string, Serve]> = [
  [
    'node:http',
    (options) =>
      listen(
        createServer((req, res) => {
          const channelId = /^\/events\/([^/?]+)/.exec(req.url ?? '')?.[1];
          if (channelId === undefined) return res.writeHead(404).end();
          serveFeedEvents(req, res, options(channelId)).catch(() => undefined);
        }),
      ),
  ],
  [
    // The request's own `close` has come and gone by the time the stream starts: only the
    // response's says that the client hung up.
    'node:http, the request body read first',
    (options) =>
      listen(
        createServer(async (req, res) => {
          const channelId = /^\/events\/([^/?]+)/.exec(req.url ?? '')?.[1];
          if (channelId === undefined) return res.writeHead(404).end();
          for await (const _ of req);
          if (!req.closed) await once(req, 'close');
          serveFeedEvents(req, res, options(channelId)).catch(() => undefined);
        }),
      ),
  ],
  ...[express5, express4].map((create, i): [string, Serve] => [
    `Express ${5 - i}`,
    (options) => {
      const app = create();
      app.get('/events/:channel', async (req, res) => {
        await serveExpressFeedEvents(req, res, options(req.params.channel!));
      });
      return listen(createServer(app));
    },
  ]),
  ...[Koa3, Koa2].map((Create, i): [string, Serve] => [
    `Koa ${3 - i}`,
    (options) => {
      const app = new Create();
      // Koa writes every connection reset to stderr; a hang-up here is the test's own doing.
      app.on('error', () => {});
      app.use(async (ctx, next) => {
        const channelId = /^\/events\/([^/]+)$/.exec(ctx.path)?.[1];
        if (channelId === undefined) return next();
        await serveKoaFeedEvents(ctx, options(channelId));
      });
      return listen(createServer(app.callback()));
    },
  ]),
  ...[Fastify5, Fastify4].map((create, i): [string, Serve] => [
    `Fastify ${5 - i}`,
    (options) => {
      const app = create();
      app.get<{ Params: { channel: string } }>('/events/:channel', async (request, reply) => {
        await serveFastifyFeedEvents(request, reply, options(request.params.channel));
      });
      return listenFastify(app);
    },
  ]),
  [
    'fetch (Hono)',
    (options) => {
      const app = new Hono();
      app.get('/events/:channel', (c) => createFeedEventsResponse(c.req.raw, options(c.req.param('channel'))));
      return listen(createAdaptorServer({ fetch: app.fetch }) as ReturnType<typeof createServer>);
    },
  ],
];

const t0 = Date.UTC(2026, 0, 1, 12);

/** A memory store with a channel and a webhook, which counts the feed's watches still open. */
function world() {
  const inner = createMemoryStore();
  let watching = 0;
  const store: MemoryStore = {
    ...inner,
    watchFeed(listener) {
      watching++;
      const stop = inner.watchFeed(listener);
      return () => {
        watching--;
        stop();
      };
    },
  };
  const webhook = makeWebhook('general', t0);
  store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  store.insertWebhook(webhook);
  let count = 0;
  const post = (): Message => {
    const message = makeMessage(webhook, t0 + ++count, { body: `#${count}` });
    store.insertMessage(insertInput(webhook, message, null));
    return message;
  };
  return { store, post, watching: () => watching };
}

describe.each(stacks)('Server-Sent Events of the feed on %s', (_name, serve) => {
  const open: Array<Listening | EventStream> = [];
  afterEach(async () => {
    for (const each of open.splice(0).reverse())
      await ('close' in each && 'origin' in each ? each.close() : (each as EventStream).close());
  });
  const start = async (options: (channelId: string) => FeedEventsOptions) => {
    const server = await serve(options);
    open.push(server);
    return server;
  };
  const connect = async (url: string, lastEventId?: string) => {
    const stream = await openEventStream(url, { lastEventId });
    open.push(stream);
    return stream;
  };

  it('answers an event stream: its headers, a first comment, one event per message with its cursor as id, new messages as they come', async () => {
    const { store, post } = world();
    const stored = [post(), post()];
    const server = await start((channelId) => ({ store, channelId }));
    const stream = await connect(`${server.origin}/events/general`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(await stream.next()).toEqual({ comment: 'connected' });
    stored.push(post());
    const events = await nextEvents(stream, 3);
    const cursors = store.readFeed({ channelId: 'general', limit: 10 }).entries.map((entry) => entry.cursor);
    expect(events).toEqual(stored.map((message, i) => ({ id: cursors[i], data: JSON.stringify(message) })));
  });

  it('resumes after the Last-Event-ID an EventSource sends when it reconnects: exactly the messages after it, in order', async () => {
    const { store, post } = world();
    for (let i = 0; i < 3; i++) post();
    const server = await start((channelId) => ({ store, channelId, data: ({ message }) => message.body }));
    const first = await connect(`${server.origin}/events/general`);
    const seen = await nextEvents(first, 2);
    first.close();
    const later = [post(), post()];
    const again = await connect(`${server.origin}/events/general`, seen[1]!.id);
    const resumed = await nextEvents(again, 3);
    expect(resumed.map((event) => event.data)).toEqual([
      '"#3"',
      ...later.map((message) => JSON.stringify(message.body)),
    ]);
    expect(resumed[0]!.id! > seen[1]!.id!).toBe(true);
  });

  it("takes the client's Last-Event-ID over an older after option", async () => {
    const { store, post } = world();
    for (let i = 0; i < 3; i++) post();
    const [first, second] = store.readFeed({ channelId: 'general', limit: 2 }).entries;
    const server = await start((channelId) => ({
      store,
      channelId,
      after: first!.cursor,
      data: ({ message }) => message.body,
    }));
    const fresh = await connect(`${server.origin}/events/general`);
    expect((await nextEvents(fresh, 2)).map((event) => event.data)).toEqual(['"#2"', '"#3"']);
    const resumed = await connect(`${server.origin}/events/general`, second!.cursor);
    const later = post();
    expect((await nextEvents(resumed, 2)).map((event) => event.data)).toEqual(['"#3"', JSON.stringify(later.body)]);
  });

  it('sends a comment after keepAliveMs without a message, and tells the browser its reconnection delay', async () => {
    const { store } = world();
    const server = await start((channelId) => ({ store, channelId, keepAliveMs: 100, retryMs: 2_000 }));
    const stream = await connect(`${server.origin}/events/general`);
    expect(await stream.next()).toEqual({ comment: 'connected' });
    expect(await stream.next(5_000)).toEqual({ comment: 'keep-alive' });
    expect(await stream.next(5_000)).toEqual({ comment: 'keep-alive' });
  });

  it('frees the subscription of a client that goes away', async () => {
    const { store, post, watching } = world();
    const server = await start((channelId) => ({ store, channelId }));
    const streams = [
      await connect(`${server.origin}/events/general`),
      await connect(`${server.origin}/events/general`),
    ];
    post();
    for (const stream of streams) await nextEvents(stream, 1);
    expect(watching()).toBe(2);
    streams[0]!.close();
    await expect.poll(watching, { timeout: 5_000 }).toBe(1);
    // The other client goes on.
    const message = post();
    expect((await nextEvents(streams[1]!, 1))[0]!.data).toBe(JSON.stringify(message));
    streams[1]!.close();
    await expect.poll(watching, { timeout: 5_000 }).toBe(0);
  });

  it('frees the subscription of a client that hangs up while its socket is full', async () => {
    const { store, post, watching } = world();
    for (let i = 0; i < 256; i++) post();
    let serialized = 0;
    const big = 'x'.repeat(1024 * 1024);
    const server = await start((channelId) => ({
      store,
      channelId,
      data: () => {
        serialized++;
        return big;
      },
    }));
    // A client that asks, then reads nothing: 256 MiB of events outgrow both sockets' buffers.
    const { hostname, port } = new URL(server.origin);
    const socket = createConnection(Number(port), hostname);
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    socket.pause();
    socket.write(`GET /events/general HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`);
    // The server is stuck on a write once it stops taking entries, long before the last one.
    let seen = -1;
    await expect
      .poll(
        () => {
          const stalled = serialized > 0 && serialized === seen;
          seen = serialized;
          return stalled;
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBe(true);
    expect(serialized).toBeLessThan(256);
    expect(watching()).toBe(1);
    socket.destroy();
    await expect.poll(watching, { timeout: 5_000 }).toBe(0);
  });

  it('starts again from the oldest message, after a reset event, for a Last-Event-ID the store cannot resume from', async () => {
    const { store, post } = world();
    const stored = [post(), post()];
    const server = await start((channelId) => ({ store, channelId, data: ({ message }) => message.id }));
    const elsewhere = createMemoryStore();
    const webhook = makeWebhook('general', t0);
    elsewhere.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    elsewhere.insertWebhook(webhook);
    elsewhere.insertMessage(insertInput(webhook, makeMessage(webhook, t0), null));
    const foreign = elsewhere.readFeed({ limit: 1 }).entries[0]!.cursor;
    for (const [lastEventId, code] of [
      [foreign, 'cursor_expired'],
      ['garbage', 'invalid_cursor'],
    ]) {
      const stream = await connect(`${server.origin}/events/general`, lastEventId);
      const events = await nextEvents(stream, 3);
      expect(events[0]).toEqual({ event: 'reset', data: JSON.stringify({ code }) });
      expect(events.slice(1).map((event) => event.data)).toEqual(stored.map((message) => JSON.stringify(message.id)));
      stream.close();
    }
  });
});

describe('the Server-Sent Events helpers refuse bad options before they write anything', () => {
  it('throws invalid_argument for a store without the feed, or an unknown option', () => {
    const { listMessages: _, readFeed: __, watchFeed: ___, ...noFeed } = createMemoryStore();
    const request = new Request('http://localhost/events');
    expect(() => createFeedEventsResponse(request, { store: noFeed as never })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(() =>
      createFeedEventsResponse(request, { store: createMemoryStore(), chanelId: 'general' } as never),
    ).toThrow(/channelId/);
  });
});
