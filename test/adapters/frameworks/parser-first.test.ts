import { createServer } from 'node:http';
import express5 from 'express';
import express4 from 'express4';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import bodyParser from 'koa-bodyparser';
import { afterEach, describe, expect, it } from 'vitest';
import { createExpressMiddleware } from '../../../adapters/frameworks/express/index.js';
import { createKoaMiddleware } from '../../../adapters/frameworks/koa/index.js';
import { listen, send, type Listening } from '../../support/http.js';
import { setup, type World } from '../../support/setup.js';

const MISCONFIGURED = {
  type: 'tag:channel-webhooks,2026:problem:misconfigured',
  title: expect.any(String),
  status: 500,
  detail: expect.stringMatching(
    /mount the webhook middleware before any body parser.*express\.raw\(\{ type: 'application\/json' \}\)/,
  ),
  code: 'misconfigured',
};

let app: Listening | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe.each([
  ['Express 5', express5],
  ['Express 4', express4],
] as const)('%s with a body parser mounted first', (_name, express) => {
  const start = async (parser: ReturnType<typeof express5.json>) => {
    const fixture = await setup();
    const server = express();
    server.use(parser);
    server.use(createExpressMiddleware(fixture.handle));
    app = await listen(createServer(server));
    return { fixture, url: `${app.origin}${fixture.path}` };
  };
  const expectStored = async (fixture: World, text: string) => {
    expect((await fixture.messages()).map((message) => message.body)).toEqual([text]);
  };

  it('express.json(): answers 500 misconfigured saying how to mount, and stores nothing', async () => {
    const { fixture, url } = await start(express5.json());
    const answer = await send(url, { body: { text: 'parsed too early' } });
    expect(answer.status).toBe(500);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.json).toEqual(MISCONFIGURED);
    expect(await fixture.messages()).toEqual([]);
  });

  it('express.json(): requests refused before the body still get their own answer', async () => {
    const { url } = await start(express5.json());
    expect((await send(url, { method: 'GET' })).status).toBe(405);
    expect((await send(url, { body: 'hi', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  it("express.raw({ type: 'application/json' }): uses the Buffer it left", async () => {
    const { fixture, url } = await start(express5.raw({ type: 'application/json' }));
    const answer = await send(url, { body: { text: 'from raw bytes' } });
    expect(answer.status).toBe(201);
    await expectStored(fixture, 'from raw bytes');
  });

  it("express.raw({ type: 'application/json' }): a 70 KB body it buffered is still 413", async () => {
    const { fixture, url } = await start(express5.raw({ type: 'application/json', limit: '1mb' }));
    const answer = await send(url, { body: JSON.stringify({ text: 'x' }) + ' '.repeat(70_000), chunkSize: 8_192 });
    expect([answer.status, (answer.json as { code: string }).code]).toEqual([413, 'payload_too_large']);
    expect(await fixture.messages()).toEqual([]);
  });

  it("express.text({ type: 'application/json' }): uses the string it left", async () => {
    const { fixture, url } = await start(express5.text({ type: 'application/json' }));
    const answer = await send(url, { body: { text: 'from a string' } });
    expect(answer.status).toBe(201);
    await expectStored(fixture, 'from a string');
  });

  it('express.json() with a verify hook that keeps req.rawBody: uses it', async () => {
    const { fixture, url } = await start(
      express5.json({
        verify: (req, _res, buffer) => {
          (req as { rawBody?: Buffer }).rawBody = buffer;
        },
      }),
    );
    const answer = await send(url, { body: { text: 'kept by verify' } });
    expect(answer.status).toBe(201);
    await expectStored(fixture, 'kept by verify');
  });
});

describe.each([
  ['Koa 3', Koa3],
  ['Koa 2', Koa2],
] as const)('%s with koa-bodyparser mounted first', (_name, Koa) => {
  it('uses the ctx.request.rawBody it keeps', async () => {
    const fixture = await setup();
    const server = new Koa();
    server.use(bodyParser());
    server.use(createKoaMiddleware(fixture.handle));
    app = await listen(createServer(server.callback()));
    const answer = await send(`${app.origin}${fixture.path}`, { body: { text: 'after koa-bodyparser' } });
    expect(answer.status).toBe(201);
    expect((await fixture.messages()).map((message) => message.body)).toEqual(['after koa-bodyparser']);
  });

  it('answers 500 misconfigured when a parser left only the parsed object', async () => {
    const fixture = await setup();
    const server = new Koa();
    server.use(bodyParser());
    server.use(async (ctx, next) => {
      delete (ctx.request as { rawBody?: string }).rawBody;
      await next();
    });
    server.use(createKoaMiddleware(fixture.handle));
    app = await listen(createServer(server.callback()));
    const answer = await send(`${app.origin}${fixture.path}`, { body: { text: 'lost raw body' } });
    expect(answer.status).toBe(500);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.json).toEqual(MISCONFIGURED);
    expect(await fixture.messages()).toEqual([]);
  });
});
