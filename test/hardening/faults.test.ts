import express from 'express';
import { createServer, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createExpressMiddleware } from '../../adapters/frameworks/express/index.js';
import { isChannelWebhookError } from '../../src/errors.js';
import type { WebhookResponse } from '../../src/http/http-types.js';
import { createMemoryRateLimiter } from '../../src/memory/memory-rate-limiter.js';
import type { Message, RateLimiter, WebhookStore } from '../../src/ports.js';
import { listen } from '../support/http.js';
import { delay, expectContractAnswer } from './support.js';
import { CHANNEL_ID, setup, type World } from '../support/setup.js';

const DEADLINE_MS = 40;
const post = (world: World, text: string, key?: string) =>
  world.handle({
    method: 'POST',
    url: world.url,
    headers:
      key === undefined
        ? { 'content-type': 'application/json' }
        : { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ text }),
  });

type StoreMethod = 'getWebhook' | 'insertMessage';
type Fault = 'throws' | 'rejects' | 'rejects late' | 'hangs';

function fault(kind: Fault): () => Promise<never> {
  const error = () => new Error('connection to db-primary.internal:5432 refused');
  switch (kind) {
    case 'throws':
      return () => {
        throw error();
      };
    case 'rejects':
      return () => Promise.reject(error());
    case 'rejects late':
      return () => delay(DEADLINE_MS / 2).then(() => Promise.reject(error()));
    case 'hangs':
      return () => new Promise<never>(() => {});
  }
}

/** The store with `method` failing while `broken.on` is true. */
function breakable(method: StoreMethod, kind: Fault, broken: { on: boolean }) {
  return (store: WebhookStore): WebhookStore => {
    const original = store[method].bind(store) as (...args: unknown[]) => Promise<unknown>;
    const failing = fault(kind);
    return { ...store, [method]: (...args: unknown[]) => (broken.on ? failing() : original(...args)) } as WebhookStore;
  };
}

/** Every message stored under the webhook, straight from the store. */
const stored = (world: World) => world.store.listMessages(CHANNEL_ID);

/** The state invariant: every success answer names a message stored exactly once, and no body twice. */
async function expectConsistent(world: World, successes: WebhookResponse[]): Promise<void> {
  const messages = await stored(world);
  const ids = messages.map((message) => message.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const response of successes) {
    const { message } = response.body as { message: Message };
    expect(messages.filter((candidate) => candidate.id === message.id)).toEqual([message]);
  }
  const bodies = messages.map((message) => message.body);
  expect(new Set(bodies).size, `a body stored twice: ${JSON.stringify(bodies)}`).toBe(bodies.length);
}

describe('store faults', () => {
  const matrix = (['getWebhook', 'insertMessage'] as const).flatMap((method) =>
    (['throws', 'rejects', 'rejects late', 'hangs'] as const).map((kind) => ({ method, kind })),
  );

  it.each(matrix)(
    'a store whose $method $kind answers 500 store_failed, stores nothing, and a retry stores once',
    async ({ method, kind }) => {
      const broken = { on: true };
      const world = await setup({ wrapStore: breakable(method, kind, broken), storeTimeoutMs: DEADLINE_MS });
      const started = performance.now();
      const failed = await post(world, 'deploy 42', 'evt-42');
      expect(performance.now() - started).toBeLessThan(2_000);
      expectContractAnswer(failed, [500]);
      expect(failed.body).toMatchObject({ code: 'store_failed', status: 500 });
      expect(JSON.stringify(failed)).not.toContain('db-primary');
      expect(world.errors.map(({ context }) => context)).toEqual([{ stage: 'store', webhookId: world.webhookId }]);
      const reported = world.errors[0]!.error;
      if (kind === 'hangs') expect(isChannelWebhookError(reported, 'store_timeout')).toBe(true);
      else expect((reported as Error).message).toContain('refused');
      expect(await stored(world)).toEqual([]);

      broken.on = false;
      const retried = await post(world, 'deploy 42', 'evt-42');
      expect(retried.status).toBe(201);
      expect(await post(world, 'deploy 42', 'evt-42')).toMatchObject({ status: 200, body: { duplicate: true } });
      await expectConsistent(world, [retried]);
      expect(await stored(world)).toHaveLength(1);
    },
  );

  // Rule: a write that lands after the deadline answered 500 cannot make a retry with the same key
  // store a second message, whether the retry comes before or after the late write lands.
  it.each(['before', 'after'] as const)(
    'a late insert that lands %s the retry leaves exactly one message for the key',
    async (when) => {
      let slowCalls = 1;
      let landed: Promise<unknown> = Promise.resolve();
      const world = await setup({
        storeTimeoutMs: DEADLINE_MS,
        wrapStore: (store) => ({
          ...store,
          insertMessage: (input) => {
            if (slowCalls-- <= 0) return store.insertMessage(input);
            landed = delay(DEADLINE_MS * 4).then(() => store.insertMessage(input));
            return landed as ReturnType<WebhookStore['insertMessage']>;
          },
        }),
      });
      const failed = await post(world, 'late', 'evt-late');
      expect(failed.body).toMatchObject({ status: 500, code: 'store_failed' });
      if (when === 'after') await landed;
      const retried = await post(world, 'late', 'evt-late');
      await landed;
      const messages = await stored(world);
      expect(messages).toHaveLength(1);
      expect(retried.status).toBe(when === 'after' ? 200 : 201);
      expect((retried.body as { message: Message }).message).toEqual(messages[0]);
      const again = await post(world, 'late', 'evt-late');
      expect(again).toMatchObject({ status: 200, body: { duplicate: true, message: messages[0] } });
    },
  );

  // Rule: under concurrent load on a store that fails a third of its calls (each failure a
  // different fault), senders that retry with their key until they succeed end with exactly one
  // message per key, and every 201 and 200 names that message.
  it('concurrent senders retrying through a flaky store end with one message per key', async () => {
    let calls = 0;
    const kinds: Fault[] = ['throws', 'rejects', 'rejects late', 'hangs'];
    const world = await setup({
      storeTimeoutMs: DEADLINE_MS,
      rateLimiter: createMemoryRateLimiter({ limit: 100_000 }),
      wrapStore: (store: WebhookStore) => {
        const flaky = <K extends StoreMethod>(method: K) =>
          ((...args: unknown[]) => {
            // A fixed pseudo-random third of the calls fail, each with one of the four faults.
            const n = Math.imul(calls++ + 1, 0x9e3779b1) >>> 0;
            if (n % 3 === 0) return fault(kinds[(n >>> 8) % kinds.length]!)();
            return (store[method] as (...a: unknown[]) => Promise<unknown>)(...args);
          }) as WebhookStore[K];
        return { ...store, getWebhook: flaky('getWebhook'), insertMessage: flaky('insertMessage') };
      },
    });
    const successes: WebhookResponse[] = [];
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: 30 }, async (_, sender) => {
        // Retry until stored, then send the event twice more, as a sender unsure of its answer would.
        let stored = 0;
        for (let attempt = 0; attempt < 200 && stored < 3; attempt++) {
          const response = await post(world, `event ${sender}`, `evt-${sender}`);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          expectContractAnswer(response, [200, 201, 500]);
          if (response.status < 300) {
            successes.push(response);
            stored++;
          }
        }
        expect(stored, `sender ${sender}`).toBe(3);
      }),
    );
    expect(statuses.get(500)).toBeGreaterThan(0);
    expect(statuses.get(201)).toBe(30);
    expect(statuses.get(200)).toBe(60);
    await expectConsistent(world, successes);
    expect(await stored(world)).toHaveLength(30);
  });
});

describe('rate-limiter faults', () => {
  const limiters: Record<string, RateLimiter> = {
    throws: {
      hit: () => {
        throw new Error('redis at cache.internal:6379 unreachable');
      },
    },
    rejects: { hit: () => Promise.reject(new Error('redis at cache.internal:6379 unreachable')) },
    hangs: { hit: () => new Promise<never>(() => {}) },
  };
  const matrix = Object.keys(limiters).flatMap((kind) =>
    (['allow', 'reject'] as const).map((mode) => ({ kind, mode })),
  );

  it.each(matrix)(
    "a limiter that $kind, with onRateLimiterError '$mode', answers by that mode and reports it",
    async ({ kind, mode }) => {
      const world = await setup({
        rateLimiter: limiters[kind]!,
        onRateLimiterError: mode,
        rateLimiterTimeoutMs: DEADLINE_MS,
      });
      const response = await post(world, 'unthrottled?');
      expect(world.errors.map(({ context }) => context)).toEqual([
        { stage: 'rate_limiter', webhookId: world.webhookId },
      ]);
      expect(JSON.stringify(response)).not.toContain('cache.internal');
      if (mode === 'allow') {
        expectContractAnswer(response, [201]);
        expect(response.headers.ratelimit).toBeUndefined();
        expect(await stored(world)).toHaveLength(1);
      } else {
        expectContractAnswer(response, [500]);
        expect(response.body).toMatchObject({ code: 'rate_limiter_failed' });
        expect(await stored(world)).toEqual([]);
      }
    },
  );
});

describe('hook faults', () => {
  it('an onError hook that throws does not change the answer', async () => {
    const world = await setup({
      rateLimiter: { hit: () => Promise.reject(new Error('down')) },
      onError: () => {
        throw new Error('logger down too');
      },
    });
    expectContractAnswer(await post(world, 'still stored'), [201]);
    expect(await stored(world)).toHaveLength(1);
  });

  it.each(['throws', 'rejects'] as const)(
    'an onMessage hook that %s leaves the 201 and reports stage on_message',
    async (kind) => {
      const world = await setup({
        onMessage:
          kind === 'throws'
            ? () => {
                throw new Error('fan-out failed');
              }
            : () => Promise.reject(new Error('fan-out failed')),
      });
      expectContractAnswer(await post(world, 'stored anyway'), [201]);
      await delay(0);
      expect(world.errors.map(({ context }) => context)).toEqual([{ stage: 'on_message', webhookId: world.webhookId }]);
    },
  );
});

describe('hostile clients over HTTP', () => {
  // The read deadline is the HTTP server's: Node ends a request that has not fully arrived within
  // `requestTimeout`. The adapter must then answer nothing twice, store nothing, and keep serving.
  async function start() {
    const world = await setup();
    const app = express();
    app.use(createExpressMiddleware(world.handle));
    const server = createServer({ requestTimeout: 600, headersTimeout: 300, connectionsCheckingInterval: 50 }, app);
    return { world, app: await listen(server) };
  }

  const postOk = (origin: string, path: string) =>
    new Promise<number>((resolve, reject) => {
      const body = '{"text":"served"}';
      const req = httpRequest(
        `${origin}${path}`,
        {
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it('a client that trickles its body a byte at a time is cut off by the read timeout and stores nothing', async () => {
    const { world, app } = await start();
    try {
      const port = Number(new URL(app.origin).port);
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write(
        `POST ${world.path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 400\r\n\r\n`,
      );
      const body = `{"text":"${'x'.repeat(380)}"}`;
      let sent = 0;
      const trickle = setInterval(() => {
        if (!socket.destroyed && sent < body.length) socket.write(body[sent++]!);
      }, 40);
      const started = performance.now();
      await Promise.race([closed, delay(8_000)]);
      clearInterval(trickle);
      socket.destroy();
      expect(performance.now() - started).toBeLessThan(8_000);
      expect(sent).toBeLessThan(body.length);
      // Either Node's own 408, or the adapter's answer to a body that ended early.
      expect(received === '' || /^HTTP\/1\.1 (408|400) /.test(received), received).toBe(true);
      expect(await stored(world)).toEqual([]);
      expect(await postOk(app.origin, world.path)).toBe(201);
    } finally {
      await app.close();
    }
  });

  it('hundreds of idle and half-open connections neither block a post nor outlive the header timeout', async () => {
    const { world, app } = await start();
    const port = Number(new URL(app.origin).port);
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 300; i++) {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => undefined);
        socket.resume();
        if (i % 2 === 0) socket.write(`POST ${world.path} HTTP/1.1\r\nhost: x\r\n`);
        sockets.push(socket);
      }
      await Promise.all(
        sockets.map(
          (socket) =>
            new Promise((resolve) => (socket.connecting ? socket.once('connect', resolve) : resolve(undefined))),
        ),
      );
      const started = performance.now();
      expect(await postOk(app.origin, world.path)).toBe(201);
      expect(performance.now() - started).toBeLessThan(2_000);
      const deadline = performance.now() + 6_000;
      while (sockets.some((socket) => !socket.destroyed && !socket.readableEnded) && performance.now() < deadline)
        await delay(100);
      expect(sockets.filter((socket) => !socket.destroyed && !socket.readableEnded)).toHaveLength(0);
      expect(await stored(world)).toHaveLength(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await app.close();
    }
  });
});
