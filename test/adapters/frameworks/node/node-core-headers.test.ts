import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import expressApp from 'express';
import Koa from 'koa';
import { createExpressMiddleware } from '../../../../adapters/frameworks/express/index.js';
import { createFetchHandler } from '../../../../adapters/frameworks/fetch/index.js';
import { createKoaMiddleware } from '../../../../adapters/frameworks/koa/index.js';
import {
  headerLookup,
  nodeCoreHeaders,
  nodeRequestHeaders,
} from '../../../../adapters/frameworks/node/node-request-headers.js';
import type { WebhookHandler } from '../../../../src/handler/handler-types.js';
import { listen, send } from '../../../support/http.js';

const CORE = ['content-type', 'content-length', 'transfer-encoding', 'idempotency-key'] as const;

// Rule: the four headers the core reads come out of the raw lines exactly as Node's own folding
// gives them (through nodeRequestHeaders), whatever their case, order and repetition.
describe('nodeCoreHeaders', () => {
  let server: Server;
  let port: number;
  let seen: (req: IncomingMessage) => void = () => undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen(req);
      req.resume();
      req.on('end', () => res.end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const headersOf = (lines: string[]) =>
    new Promise<[unknown, unknown]>((resolve, reject) => {
      seen = (req) => {
        const own = nodeCoreHeaders(req, headerLookup(CORE));
        const node = nodeRequestHeaders(req);
        resolve([own, Object.fromEntries(CORE.map((name) => [name, node[name]]))]);
      };
      const socket = connect(port, '127.0.0.1', () => {
        socket.end(
          `POST /hooks/channels/a/b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${lines.map((line) => `${line}\r\n`).join('')}\r\n{}`,
        );
      });
      socket.on('error', reject);
      socket.resume();
    });

  const cases: Array<[string, string[]]> = [
    ['plain', ['Content-Type: application/json', 'Content-Length: 2']],
    [
      'upper case and other headers between',
      [
        'X-Trace: 1',
        'CONTENT-TYPE: application/json; charset=utf-8',
        'User-Agent: t',
        'content-length: 2',
        'IDEMPOTENCY-KEY: k-1',
      ],
    ],
    [
      'a repeated content type: the first counts',
      ['Content-Type: application/json', 'Content-Type: text/plain', 'Content-Length: 2'],
    ],
    [
      'a repeated idempotency key stays a list',
      ['Content-Type: application/json', 'Content-Length: 2', 'Idempotency-Key: evt-1', 'idempotency-key: evt-2'],
    ],
    [
      'one key holding a comma stays one string',
      ['Content-Type: application/json', 'Content-Length: 2', 'Idempotency-Key: evt-1, evt-2'],
    ],
    ['no content type at all', ['Content-Length: 2']],
  ];
  for (const [name, lines] of cases) {
    it(name, async () => {
      const [own, node] = await headersOf(lines);
      expect(own).toEqual(node);
    });
  }

  it('chunked: transfer-encoding as Node gives it, and no length', async () => {
    const [own, node] = await new Promise<[unknown, unknown]>((resolve, reject) => {
      seen = (req) => {
        const reference = nodeRequestHeaders(req);
        resolve([
          nodeCoreHeaders(req, headerLookup(CORE)),
          Object.fromEntries(CORE.map((header) => [header, reference[header]])),
        ]);
      };
      const socket = connect(port, '127.0.0.1', () => {
        socket.end(
          'POST /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
        );
      });
      socket.on('error', reject);
      socket.resume();
    });
    expect(own).toEqual(node);
    expect((own as Record<string, unknown>)['transfer-encoding']).toBe('chunked');
  });
});

// Rule: an app that wraps the handler before giving it to an adapter sees every header of the
// request, as it always did; only the library's own handler is given just the four it reads.
describe('a handler wrapped by the app', () => {
  it('gets every header through the Express, Koa and Fetch adapters', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const wrapper: WebhookHandler = async (request) => {
      seen.push({ ...request.headers });
      return { status: 200, headers: {}, body: {} };
    };
    const express = expressApp();
    express.use(createExpressMiddleware(wrapper));
    const koa = new Koa();
    koa.use(createKoaMiddleware(wrapper));
    for (const app of [listen(createServer(express)), listen(createServer(koa.callback()))]) {
      const server = await app;
      try {
        const answer = await send(`${server.origin}/hooks/channels/wh_x/y`, {
          body: '{}',
          headers: { authorization: 'Bearer t' },
        });
        expect(answer.status).toBe(200);
      } finally {
        await server.close();
      }
    }
    const fetchHandler = createFetchHandler(wrapper);
    await fetchHandler(
      new Request('http://x/hooks/channels/wh_x/y', {
        method: 'POST',
        body: '{}',
        headers: { authorization: 'Bearer t' },
      }),
    );
    expect(seen.map((headers) => headers.authorization)).toEqual(['Bearer t', 'Bearer t', 'Bearer t']);
  });
});
