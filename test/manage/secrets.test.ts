import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import express from 'express';
import Fastify, { type FastifyRequest } from 'fastify';
import Koa from 'koa';
import koaLogger from 'koa-logger';
import morgan from 'morgan';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createExpressManagementMiddleware } from '../../adapters/frameworks/express/index.js';
import { createFastifyManagementPlugin } from '../../adapters/frameworks/fastify/index.js';
import { createKoaManagementMiddleware, type KoaLikeContext } from '../../adapters/frameworks/koa/index.js';
import { ChannelWebhookError } from '../../src/errors.js';
import { createWebhookManager, type WebhookManager } from '../../src/lifecycle/create-webhook-manager.js';
import { createManagementApi, type ManagementApiOptions } from '../../src/manage/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import { deepText } from '../support/setup.js';
import { listen, listenFastify, send, type Answer, type Listening } from '../support/http.js';
import { actorOfCookie, BASE_PATH, CALLERS } from './support.js';

const OWNER = { cookie: `session=${CALLERS['the channel owner'].userId}` };

/** Everything that could carry a webhook URL out of the process besides the two answers meant to. */
interface Outlets {
  lines: string[];
  hooks: unknown[];
}

type Start = (
  manager: WebhookManager,
  api: Omit<ManagementApiOptions<never>, 'manager' | 'authenticate'>,
  outlets: Outlets,
) => Promise<Listening>;

const lineSink = (outlets: Outlets) =>
  new Writable({
    write(chunk, _encoding, done) {
      outlets.lines.push(String(chunk));
      done();
    },
  });

// Each stack with its usual access log, which writes every request's URL.
const stacks: Array<[string, Start]> = [
  [
    'Express with morgan',
    (manager, options, outlets) => {
      const app = express();
      app.use(morgan('combined', { stream: lineSink(outlets) }));
      app.use(
        BASE_PATH,
        createExpressManagementMiddleware(
          createManagementApi({ ...options, manager, authenticate: (req) => actorOfCookie(req.headers.cookie) }),
        ),
      );
      return listen(createServer(app));
    },
  ],
  [
    'Koa with koa-logger',
    (manager, options, outlets) => {
      const app = new Koa();
      app.use(koaLogger((line) => outlets.lines.push(line)));
      const api = createManagementApi<KoaLikeContext>({
        ...options,
        manager,
        authenticate: (ctx) => actorOfCookie(ctx.req.headers.cookie),
        basePath: BASE_PATH,
      });
      app.use(createKoaManagementMiddleware(api));
      return listen(createServer(app.callback()));
    },
  ],
  [
    "Fastify with its logger at 'trace'",
    async (manager, options, outlets) => {
      const app = Fastify({ logger: { level: 'trace', stream: lineSink(outlets) } });
      const api = createManagementApi<FastifyRequest>({
        ...options,
        manager,
        authenticate: (request) => actorOfCookie(request.headers.cookie),
      });
      await app.register(createFastifyManagementPlugin(api), { prefix: BASE_PATH });
      return listenFastify(app);
    },
  ],
];

// The URL of a webhook is in the answers to create and rotate, and nowhere else: not in another
// answer, not in an access log, not in what onError, the manager's onError or onAudit hear, not in
// the default error log, whatever fails along the way.
describe.each(stacks)('the secret URL stays in its two answers on %s', (_, start) => {
  let outlets: Outlets;
  let app: Listening;
  let failing: { store: boolean; audit: boolean };
  let consoleError: ReturnType<typeof vi.spyOn>;

  beforeEach(async () => {
    outlets = { lines: [], hooks: [] };
    failing = { store: false, audit: false };
    consoleError = vi
      .spyOn(console, 'error')
      .mockImplementation((...args: unknown[]) => void outlets.lines.push(args.map(String).join(' ')));
    const inner = createMemoryStore();
    inner.putChannel({ id: 'ops', ownerId: CALLERS['the channel owner'].userId, archived: false });
    // Fails every change once told to, after the manager has made the new secret.
    const store = {
      ...inner,
      insertWebhook: (record: Parameters<typeof inner.insertWebhook>[0]) => {
        if (failing.store) throw new Error(`insert of ${record.id} failed`);
        return inner.insertWebhook(record);
      },
      updateWebhookSecret: (...args: Parameters<typeof inner.updateWebhookSecret>) => {
        if (failing.store) throw new ChannelWebhookError('store_failed', 'the database went away');
        return inner.updateWebhookSecret(...args);
      },
    };
    const manager = createWebhookManager({
      store,
      baseUrl: 'https://chat.example.com',
      onAudit: (event) => {
        outlets.hooks.push(event);
        if (failing.audit) throw new Error('audit log is full');
      },
      onError: (...args) => void outlets.hooks.push(args),
    });
    app = await start(manager, { onError: (...args) => void outlets.hooks.push(args) }, outlets);
  });
  afterEach(async () => {
    consoleError.mockRestore();
    await app.close();
  });

  it('across every route, success or failure', async () => {
    const urls: string[] = [];
    const answers: Answer[] = [];
    const call = async (method: string, path: string, body?: object, headers: Record<string, string> = OWNER) => {
      const answer = await send(`${app.origin}${BASE_PATH}${path}`, { method, headers, body });
      answers.push(answer);
      return answer;
    };
    const created = await call('POST', '/channels/ops/webhooks', { name: 'CI' });
    const { webhook, url } = created.json as { webhook: { id: string }; url: string };
    urls.push(url);
    failing.audit = true;
    const rotated = await call('POST', `/webhooks/${webhook.id}/rotate`);
    urls.push((rotated.json as { url: string }).url);
    urls.push(((await call('POST', '/channels/ops/webhooks', { name: 'CD' })).json as { url: string }).url);
    failing.audit = false;
    failing.store = true;
    await call('POST', '/channels/ops/webhooks', { name: 'Failing' });
    await call('POST', `/webhooks/${webhook.id}/rotate`);
    failing.store = false;
    for (const cookie of ['session=broken', 'session=odd', ''])
      await call('GET', `/webhooks/${webhook.id}`, undefined, { cookie });
    await call('GET', '/channels/ops/webhooks');
    await call('GET', `/webhooks/${webhook.id}`);
    await call('PATCH', `/webhooks/${webhook.id}`, { description: 'x' });
    await call('GET', `/webhooks/${webhook.id}/posts`);
    await call('POST', `/webhooks/${webhook.id}/revoke`, {});
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(answers.map((answer) => answer.status)).toEqual([
      201, 200, 201, 500, 500, 500, 500, 401, 200, 200, 200, 200, 200,
    ]);
    expect(outlets.hooks.length).toBeGreaterThan(0);
    expect(outlets.lines.length).toBeGreaterThan(0);
    const secrets = urls.map((each) => each.split('/').at(-1)!);
    const meant = new Set([created, rotated, answers[2]]);
    const elsewhere = [
      ...answers.filter((answer) => !meant.has(answer)).map((answer) => answer.text),
      deepText(outlets.hooks),
      ...outlets.lines,
    ].join('\n');
    expect(elsewhere).not.toMatch(/\/hooks\/channels\//);
    for (const secret of secrets) expect(elsewhere).not.toContain(secret);
  });
});
