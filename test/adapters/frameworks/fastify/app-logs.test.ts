import Fastify5 from 'fastify';
import Fastify4 from 'fastify4';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFastifyPlugin, createRedactingLogMethod } from '../../../../adapters/frameworks/fastify/index.js';
import { listenFastify, send, type Listening } from '../../../support/http.js';
import { setup, type World } from '../../../support/setup.js';
import { ACCEPTED_FORMS, NEAR_MISSES } from '../url-forms.js';
import { captureLogLines } from '../log-lines.js';
import { post } from '../raw-post.js';

interface LogRecord {
  msg?: string;
  req?: Record<string, unknown>;
  err?: { message?: string; stack?: string };
}

// Near misses that Fastify's own router answers 404 (the plugin's route never sees them), and a
// URL it cannot decode.
const NOT_ROUTED: Array<[string, (id: string, secret: string) => string]> = [
  ['a trailing slash', (id, s) => `/api/hooks/channels/${id}/${s}/`],
  ['a doubled slash', (id, s) => `/api/hooks/channels/${id}//${s}`],
  ['Hooks capitalised', (id, s) => `/api/Hooks/channels/${id}/${s}`],
  ['an extra segment', (id, s) => `/api/hooks/channels/${id}/${s}/extra`],
  ['a bad percent-encoding', (id, s) => `/api/hooks/channels/${id}/${s}%zz`],
];

for (const [name, Fastify] of [
  ['Fastify 5', Fastify5],
  ['Fastify 4', Fastify4 as unknown as typeof Fastify5],
] as const) {
  describe(`${name}: the app's logger with createRedactingLogMethod`, () => {
    let fixture: World;
    let server: Listening | undefined;
    const secret = () => fixture.path.split('/').at(-1)!;

    beforeEach(async () => {
      fixture = await setup();
    });
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    /** The README's set-up: the plugin under /api, the app's logger given to Fastify. */
    async function start(logger: object) {
      const app = Fastify(logger);
      await app.register(createFastifyPlugin(fixture.handle), { prefix: '/api' });
      app.get('/api/health', async () => ({ ok: true }));
      server = await listenFastify(app);
      return app;
    }

    it('without it, a near miss answered 404 by Fastify logs the live secret (the plugin redacts its own route only)', async () => {
      const logs = captureLogLines<LogRecord>();
      await start({ logger: { stream: logs.stream } });
      const answer = await send(`${server!.origin}/api${fixture.path}/`, { body: { text: 'x' } });
      expect(answer.status).toBe(404);
      expect(logs.lines.join('\n')).toContain(secret());
    });

    it('with it, no record carries a secret, whatever URL form is posted', async () => {
      const logs = captureLogLines<LogRecord>();
      await start({ logger: { stream: logs.stream, hooks: { logMethod: createRedactingLogMethod() } } });
      const targets = [
        ...NOT_ROUTED.map(([, form]) => form(fixture.webhookId, secret())),
        ...[...ACCEPTED_FORMS, ...NEAR_MISSES].map(([, form]) => form('/api', fixture.webhookId, secret())),
      ];
      const statuses = [];
      for (const target of targets) statuses.push(await post(server!.origin, target));
      // The real URL still reaches the handler.
      expect(statuses[NOT_ROUTED.length]).toBe(201);
      expect(statuses.slice(0, NOT_ROUTED.length)).toEqual([404, 404, 404, 404, 400]);

      const output = logs.lines.join('\n');
      expect(output).not.toContain(secret());
      const records = logs.records();
      const incoming = records.filter((record) => record.msg === 'incoming request');
      // Node's parser refuses some forms (a raw no-break space) before Fastify logs a request.
      expect(incoming.length).toBeGreaterThan(targets.length - 4);
      for (const record of incoming.slice(0, 4))
        expect(record.req?.url).toMatch(new RegExp(`/${fixture.webhookId}/\\[redacted\\]$`));
      expect(records.map((record) => record.msg)).toContain(
        `Route POST:/api/hooks/channels/${fixture.webhookId}/[redacted] not found`,
      );
      // Fastify's default req serializer still gives the rest of the request.
      expect(incoming[0]?.req).toMatchObject({ method: 'POST', remoteAddress: '127.0.0.1' });
    });

    it("gives the app's own req serializer the redacted URL", async () => {
      const logs = captureLogLines<LogRecord>();
      const serializers = {
        req: (req: { method: string; url: string; raw: { url?: string } }) => ({
          verb: req.method,
          path: req.url,
          rawPath: req.raw.url,
        }),
      };
      await start({ logger: { stream: logs.stream, serializers, hooks: { logMethod: createRedactingLogMethod() } } });
      expect(await post(server!.origin, `/api${fixture.path}/`)).toBe(404);
      const redacted = `/api/hooks/channels/${fixture.webhookId}/[redacted]`;
      expect(logs.records().find((record) => record.msg === 'incoming request')?.req).toEqual({
        verb: 'POST',
        path: redacted,
        rawPath: redacted,
      });
      expect(logs.lines.join('\n')).not.toContain(secret());
    });

    it('works on a pino instance given to Fastify, and on logged errors, without changing them', async () => {
      const logs = captureLogLines<LogRecord>();
      const instance = pino({ hooks: { logMethod: createRedactingLogMethod() } }, logs.stream);
      const app = await start(name === 'Fastify 5' ? { loggerInstance: instance } : { logger: instance });
      expect(await post(server!.origin, `/api${fixture.path}/extra`)).toBe(404);
      const error = new Error(`could not forward /api${fixture.path}`);
      app.log.error(error);
      app.log.warn({ err: error, url: `/api${fixture.path}` }, 'retrying %s', `/api${fixture.path}`);
      expect(error.message).toBe(`could not forward /api${fixture.path}`);

      expect(logs.lines.join('\n')).not.toContain(secret());
      const [logged, warned] = logs.records().filter((record) => record.err !== undefined);
      expect(logged?.err?.message).toBe(`could not forward /api/hooks/channels/${fixture.webhookId}/[redacted]`);
      expect(logged?.err?.stack).toContain('[redacted]');
      expect(warned).toMatchObject({
        msg: `retrying /api/hooks/channels/${fixture.webhookId}/[redacted]`,
        url: `/api/hooks/channels/${fixture.webhookId}/[redacted]`,
      });
    });
  });
}
