import { createServer, type RequestListener } from 'node:http';
import { connect } from 'node:net';
import express5 from 'express';
import express4 from 'express4';
import Fastify5 from 'fastify';
import Fastify4 from 'fastify4';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExpressMiddleware } from '../../../adapters/frameworks/express/index.js';
import { createFastifyPlugin } from '../../../adapters/frameworks/fastify/index.js';
import { createFetchHandler } from '../../../adapters/frameworks/fetch/index.js';
import { createKoaMiddleware } from '../../../adapters/frameworks/koa/index.js';
import { createNodeListener } from '../../../adapters/frameworks/node/index.js';
import type { WebhookHandler } from '../../../src/handler/handler-types.js';
import { frameworkTargets } from '../../support/frameworks.js';
import { listen, listenFastify, paddedBody, type Listening } from '../../support/http.js';
import { setup, type World } from '../../support/setup.js';

// A request with both `Transfer-Encoding: chunked` and `Content-Length` is framed by its chunks
// (RFC 9112, 6.3): the length must neither refuse a small body nor let a large one through. Node's
// HTTP parser refuses such a request outright, unless the server runs with `insecureHTTPParser`;
// a Fetch runtime, a proxy or the app itself can build a `Request` that carries both.

const SMALL = JSON.stringify({ text: 'judged by its bytes' });
const LARGE = paddedBody('too large', 70_000);

/** The two lying requests: a large declared length over a small chunked body, and the reverse. */
const CASES = [
  { name: 'a Content-Length over 65,536 beside a small chunked body', declared: 100_000, body: SMALL, status: 201 },
  {
    name: 'a small Content-Length beside a chunked body over 65,536',
    declared: SMALL.length,
    body: LARGE,
    status: 413,
  },
];

/** Posts `body` in 8 KiB chunks with both headers over a raw socket; resolves the status (0 when the connection closed without one). */
function postChunked(origin: string, path: string, declared: number, body: string): Promise<number> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
    );
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    let chunks = '';
    for (let offset = 0; offset < body.length; offset += 8_192) {
      const piece = body.slice(offset, offset + 8_192);
      chunks += `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`;
    }
    socket.end(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunks}0\r\n\r\n`,
    );
  });
}

/** `handle`, counting the requests that reach it. */
function counted(handle: WebhookHandler) {
  const calls = { count: 0 };
  const wrapped: WebhookHandler = (request) => {
    calls.count++;
    return handle(request);
  };
  return { wrapped, calls };
}

let fixture: World;
let server: Listening | undefined;
beforeEach(async () => {
  fixture = await setup();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(frameworkTargets)('$name on a default Node server', (target) => {
  it.each(CASES)(
    "refuses $name with Node's 400, before the adapter sees it, and stores nothing",
    async ({ declared, body }) => {
      const { wrapped, calls } = counted(fixture.handle);
      server = await target.start(wrapped);
      expect(await postChunked(server.origin, `/api${fixture.path}`, declared, body)).toBe(400);
      expect(calls.count).toBe(0);
      expect(await fixture.messages()).toEqual([]);
    },
  );
});

// With `insecureHTTPParser`, Node frames the body by its chunks and hands both headers on: the
// adapter and the core must then judge by the bytes.
const lenient = (listener: RequestListener) => listen(createServer({ insecureHTTPParser: true }, listener));
const lenientTargets: Array<[string, (handle: WebhookHandler) => Promise<Listening>]> = [
  ['node:http', (handle) => lenient(createNodeListener(handle))],
  ['Express 5', (handle) => lenient(express5().use('/api', createExpressMiddleware(handle)))],
  ['Express 4', (handle) => lenient(express4().use('/api', createExpressMiddleware(handle)))],
  ['Koa 3', (handle) => lenient(new Koa3().use(createKoaMiddleware(handle)).callback())],
  ['Koa 2', (handle) => lenient(new Koa2().use(createKoaMiddleware(handle)).callback())],
  ...(
    [
      ['Fastify 5', Fastify5],
      ['Fastify 4', Fastify4 as unknown as typeof Fastify5],
    ] as const
  ).map(([name, Fastify]): [string, (handle: WebhookHandler) => Promise<Listening>] => [
    name,
    async (handle) => {
      const app = Fastify({ serverFactory: (listener) => createServer({ insecureHTTPParser: true }, listener) });
      await app.register(createFastifyPlugin(handle), { prefix: '/api' });
      return listenFastify(app);
    },
  ]),
];

describe.each(lenientTargets)('%s on a Node server with insecureHTTPParser', (_name, start) => {
  it.each(CASES)('judges $name by the bytes: $status', async ({ declared, body, status }) => {
    server = await start(fixture.handle);
    expect(await postChunked(server.origin, `/api${fixture.path}`, declared, body)).toBe(status);
    expect((await fixture.messages()).map((message) => message.body)).toEqual(
      status === 201 ? ['judged by its bytes'] : [],
    );
  });
});

describe('the Fetch adapter, given a Request built with both headers', () => {
  /** A streamed body in 8 KiB chunks, as a runtime hands a chunked one on. */
  const streamOf = (text: string) => {
    const bytes = new TextEncoder().encode(text);
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 8_192)
          controller.enqueue(bytes.subarray(offset, offset + 8_192));
        controller.close();
      },
    });
  };

  it.each(CASES)('judges $name by the bytes: $status', async ({ declared, body, status }) => {
    const request = new Request(`https://chat.example.com${fixture.path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
        'content-length': String(declared),
      },
      body: streamOf(body),
      duplex: 'half',
    } as RequestInit);
    expect(request.headers.get('content-length')).toBe(String(declared));
    const response = await createFetchHandler(fixture.handle)(request);
    expect(response.status).toBe(status);
    const answer = (await response.json()) as { code?: string; duplicate?: boolean };
    expect(status === 201 ? answer.duplicate : answer.code).toBe(status === 201 ? false : 'payload_too_large');
    expect((await fixture.messages()).map((message) => message.body)).toEqual(
      status === 201 ? ['judged by its bytes'] : [],
    );
  });
});
