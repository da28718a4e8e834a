import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import express from 'express';
import Fastify5, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import Fastify4 from 'fastify4';
import { beforeEach, describe, expect, it } from 'vitest';
import { createExpressMiddleware } from '../../../../adapters/frameworks/express/index.js';
import { createFastifyPlugin, type FastifyAdapterOptions } from '../../../../adapters/frameworks/fastify/index.js';
import type { WebhookHandler } from '../../../../src/handler/handler-types.js';
import {
  listen,
  listenFastify,
  paddedBody,
  send,
  type Answer,
  type Listening,
  type SendOptions,
} from '../../../support/http.js';
import { setup, type World } from '../../../support/setup.js';

/** Every JSON line a Fastify logger wrote. */
function captureLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return {
    stream,
    lines,
    records: () => lines.map((line) => JSON.parse(line) as { msg: string; req?: Record<string, unknown> }),
  };
}

/** The factory of either major, on a plain HTTP server. */
type CreateFastify = (options?: FastifyServerOptions) => FastifyInstance;

/** A Fastify app with its own JSON routes beside the plugin, both under `/api`. */
async function startApp(
  create: CreateFastify,
  handle: WebhookHandler,
  options?: FastifyAdapterOptions,
  appOptions: FastifyServerOptions = {},
): Promise<Listening> {
  const app = create(appOptions);
  app.post('/api/echo', async (request) => ({ echoed: request.body }));
  app.get('/api/health', async () => ({ ok: true }));
  await app.register(createFastifyPlugin(handle, options), { prefix: '/api' });
  return listenFastify(app);
}

describe.each<[string, CreateFastify]>([
  ['Fastify 5', (options) => Fastify5(options)],
  ['Fastify 4', (options) => Fastify4(options)],
])('createFastifyPlugin on %s', (_name, create) => {
  let fixture: World;
  let apps: Listening[];
  const start = async (handle: WebhookHandler, options?: FastifyAdapterOptions, appOptions?: FastifyServerOptions) => {
    const app = await startApp(create, handle, options, appOptions);
    apps.push(app);
    return app;
  };

  beforeEach(async () => {
    fixture = await setup();
    apps = [];
    return async () => {
      await Promise.all(apps.map((app) => app.close()));
    };
  });

  it("leaves the app's parsers alone: its routes still parse JSON, with its bodyLimit and its 415", async () => {
    const app = await start(fixture.handle, undefined, { bodyLimit: 1_024 });
    const echoed = await send(`${app.origin}/api/echo`, { body: { text: 'parsed by the app' } });
    expect([echoed.status, echoed.json]).toEqual([200, { echoed: { text: 'parsed by the app' } }]);

    const tooLarge = await send(`${app.origin}/api/echo`, { body: paddedBody('big', 2_000) });
    expect([tooLarge.status, (tooLarge.json as { code: string }).code]).toEqual([413, 'FST_ERR_CTP_BODY_TOO_LARGE']);
    const csv = await send(`${app.origin}/api/echo`, { body: 'a,b', headers: { 'content-type': 'text/csv' } });
    expect([csv.status, (csv.json as { code: string }).code]).toEqual([415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE']);

    // The webhook route reads its own body: 60 KB is over the app's bodyLimit, not over the contract's.
    const text = 'y'.repeat(9_000);
    const webhook = await send(`${app.origin}/api${fixture.path}`, { body: paddedBody(text, 60_000) });
    expect(webhook.status).toBe(201);
    expect((await fixture.messages()).map((message) => message.body)).toEqual([text]);
  });

  it("a wrong secret is 404 before any size or media-type check, never Fastify's 413 or 415", async () => {
    const app = await start(fixture.handle, undefined, { bodyLimit: 1_024 });
    const url = `${app.origin}/api${fixture.wrongSecretPath}`;
    for (const options of [
      { body: paddedBody('huge', 70_000) },
      { body: paddedBody('huge', 70_000), chunkSize: 8_192 },
      { body: 'plain', headers: { 'content-type': 'text/plain' } },
      { body: 'odd', headers: { 'content-type': 'not a media type' } },
      { body: '{}', headers: { 'content-type': '' } },
    ] satisfies SendOptions[]) {
      const answer = await send(url, options);
      expect([answer.status, answer.headers['content-type'], (answer.json as { code: string }).code]).toEqual([
        404,
        'application/problem+json',
        'not_found',
      ]);
    }
  });

  it('an unsupported, malformed or missing Content-Type is our 415 problem, not Fastify’s', async () => {
    const app = await start(fixture.handle);
    const url = `${app.origin}/api${fixture.path}`;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'not a media type', '']) {
      const answer = await send(url, { body: '{"text":"hi"}', headers: { 'content-type': type } });
      expect([type, answer.status, answer.headers['content-type'], answer.json]).toEqual([
        type,
        415,
        'application/problem+json',
        expect.objectContaining({
          code: 'unsupported_media_type',
          status: 415,
          type: 'tag:channel-webhooks,2026:problem:unsupported_media_type',
        }),
      ]);
    }
    expect(await fixture.messages()).toEqual([]);
  });

  it("the app's onSend and onResponse hooks see webhook answers; its preSerialization hooks do not change them", async () => {
    const app = create();
    const seen: string[] = [];
    app.addHook('preSerialization', async (_request, _reply, payload) => ({ wrapped: payload }));
    app.addHook('onSend', async (request, reply, payload) => {
      seen.push(`onSend ${request.method} ${reply.statusCode}`);
      reply.header('x-app', 'onSend');
      return payload;
    });
    app.addHook('onResponse', async (_request, reply) => {
      seen.push(`onResponse ${reply.statusCode}`);
    });
    app.get('/api/health', async () => ({ ok: true }));
    await app.register(createFastifyPlugin(fixture.handle), { prefix: '/api' });
    const listening = await listenFastify(app);
    apps.push(listening);

    const answer = await send(`${listening.origin}/api${fixture.path}`, { body: { text: 'hooked' } });
    const [stored] = await fixture.messages();
    expect([answer.status, answer.headers['content-type'], answer.headers['x-app'], answer.json]).toEqual([
      201,
      'application/json',
      'onSend',
      { message: stored, duplicate: false },
    ]);
    // The app's own routes still go through its preSerialization hook.
    expect((await send(`${listening.origin}/api/health`, { method: 'GET' })).json).toEqual({ wrapped: { ok: true } });
    expect(seen).toEqual(['onSend POST 201', 'onResponse 201', 'onSend GET 200', 'onResponse 200']);
  });

  it('answers exactly as the Express adapter: status, headers and body', async () => {
    const expressFixture = fixture;
    const fastifyFixture = await setup();
    const expressApp = express();
    expressApp.use('/api', createExpressMiddleware(expressFixture.handle));
    const viaExpress = await listen(createServer(expressApp));
    apps.push(viaExpress);
    const viaFastify = await start(fastifyFixture.handle);

    const cases: Array<[string, (f: World) => string, SendOptions]> = [
      ['201', (f) => f.path, { body: { text: 'same answer' }, headers: { 'idempotency-key': 'k1' } }],
      ['200 duplicate', (f) => f.path, { body: { text: 'again' }, headers: { 'idempotency-key': 'k1' } }],
      ['400', (f) => f.path, { body: '{"text":' }],
      ['400 fields', (f) => f.path, { body: { text: 'hi', extra: 1 } }],
      ['404', (f) => f.wrongSecretPath, { body: { text: 'hi' } }],
      ['405', (f) => f.path, { method: 'GET' }],
      ['405 HEAD', (f) => f.path, { method: 'HEAD' }],
      ['409', (f) => f.archivedPath, { body: { text: 'hi' } }],
      ['413', (f) => f.path, { body: paddedBody('big', 70_000) }],
      ['413 chunked', (f) => f.path, { body: paddedBody('big', 70_000), chunkSize: 4_096 }],
      ['415', (f) => f.path, { body: 'hi', headers: { 'content-type': 'text/plain' } }],
    ];
    // What differs between any two servers, or between two stores: the date, Express's banner,
    // and the ids and timestamps of new messages.
    const comparable = (answer: Answer, f: World) => {
      const { date: _date, 'x-powered-by': _poweredBy, ...headers } = answer.headers;
      return {
        status: answer.status,
        headers,
        text: answer.text
          .replaceAll(f.webhookId, '{webhook}')
          .replace(/"id":"[^"]+"/, '"id":"{message}"')
          .replace(/"createdAt":"[^"]+"/, '"createdAt":"{time}"'),
      };
    };
    for (const [name, path, options] of cases) {
      const fromExpress = comparable(
        await send(`${viaExpress.origin}/api${path(expressFixture)}`, options),
        expressFixture,
      );
      const fromFastify = comparable(
        await send(`${viaFastify.origin}/api${path(fastifyFixture)}`, options),
        fastifyFixture,
      );
      expect({ name, ...fromFastify }).toEqual({ name, ...fromExpress });
    }
  });

  it('refuses a handler that is not a function with invalid_argument, when the plugin is created', () => {
    expect(() => createFastifyPlugin(undefined as never)).toThrow(
      expect.objectContaining({
        name: 'ChannelWebhookError',
        code: 'invalid_argument',
        message:
          'createFastifyPlugin: handle must be the handler from createWebhookHandler(): got undefined. Pass createWebhookHandler({ store }).',
      }),
    );
  });

  it('refuses a redactLogs that is not a boolean with invalid_argument, when the plugin is created', () => {
    expect(() => createFastifyPlugin(fixture.handle, { redactLogs: 'yes' as unknown as boolean })).toThrow(
      expect.objectContaining({
        name: 'ChannelWebhookError',
        code: 'invalid_argument',
        message: expect.stringContaining('redactLogs'),
      }),
    );
  });

  describe('request logs', () => {
    const secret = () => fixture.path.split('/').at(-1)!;

    it('show the webhook URL with the secret redacted, and other routes as they are', async () => {
      const logs = captureLogs();
      const app = await start(fixture.handle, undefined, { logger: { stream: logs.stream } });
      expect((await send(`${app.origin}/api${fixture.path}?source=ci`, { body: { text: 'logged' } })).status).toBe(201);
      expect((await send(`${app.origin}/api/health`, { method: 'GET' })).status).toBe(200);

      const incoming = logs.records().filter((record) => record.msg === 'incoming request');
      expect(incoming.map((record) => [record.req?.method, record.req?.url])).toEqual([
        ['POST', `/api/hooks/channels/${fixture.webhookId}/[redacted]?source=ci`],
        ['GET', '/api/health'],
      ]);
      expect(logs.lines.join('\n')).not.toContain(secret());
    });

    it("go through the app's own req serializer, still redacted", async () => {
      const logs = captureLogs();
      const serializers = {
        req: (req: { method: string; url: string; raw: { url?: string } }) => ({
          verb: req.method,
          path: req.url,
          rawPath: req.raw.url,
        }),
      };
      const app = await start(fixture.handle, undefined, { logger: { stream: logs.stream, serializers } });
      expect((await send(`${app.origin}/api${fixture.path}`, { body: { text: 'logged' } })).status).toBe(201);

      const redacted = `/api/hooks/channels/${fixture.webhookId}/[redacted]`;
      const incoming = logs.records().find((record) => record.msg === 'incoming request');
      expect(incoming?.req).toEqual({ verb: 'POST', path: redacted, rawPath: redacted });
      expect(logs.lines.join('\n')).not.toContain(secret());
    });

    it('show the secret when redactLogs is false', async () => {
      const logs = captureLogs();
      const app = await start(fixture.handle, { redactLogs: false }, { logger: { stream: logs.stream } });
      expect((await send(`${app.origin}/api${fixture.path}`, { body: { text: 'logged' } })).status).toBe(201);
      expect(logs.records().find((record) => record.msg === 'incoming request')?.req?.url).toBe(`/api${fixture.path}`);
    });
  });
});
