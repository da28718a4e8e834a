import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/clock.js';
import { ChannelWebhookError } from '../../src/errors.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { createWebhookManager } from '../../src/lifecycle/create-webhook-manager.js';
import { createManagementApi } from '../../src/manage/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import { createManagementOpenApiDocument } from '../../src/openapi/index.js';
import type { WebhookStore } from '../../src/ports.js';
import { actorOfCookie, CALLERS } from './support.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests walk a JSON document of any shape.
type Json = Record<string, any>;
const BASE = '/api/manage';
const document = createManagementOpenApiDocument({ basePath: BASE }) as Json;
const OWNER = `session=${CALLERS['the channel owner'].userId}`;
const OTHER = `session=${CALLERS['another member'].userId}`;

/** A store whose every call fails with `code` once `failing` is set. */
function failingWith(code: 'store_failed' | 'store_timeout') {
  const inner = createMemoryStore();
  const state = { failing: false };
  const store = Object.fromEntries(
    Object.entries(inner).map(([name, method]) => [
      name,
      (...args: unknown[]) => {
        if (state.failing) throw new ChannelWebhookError(code, `${name} failed`);
        return (method as (...a: unknown[]) => unknown).apply(inner, args);
      },
    ]),
  ) as unknown as typeof inner;
  return { store, state };
}

/** An API over `store`, with a channel, a webhook (one post recorded) and a revoked webhook in it; the endpoint's handler unless `handle` is false. */
async function world(
  store: WebhookStore & { putChannel(channel: unknown): unknown } = createMemoryStore(),
  { handle = true } = {},
) {
  store.putChannel({ id: 'ops', ownerId: CALLERS['the channel owner'].userId, archived: false });
  store.putChannel({ id: 'old', ownerId: CALLERS['the channel owner'].userId, archived: true });
  const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com', clock: createFakeClock() });
  const owner = CALLERS['the channel owner'];
  const { webhook, url } = await manager.create(owner, { channelId: 'ops', name: 'CI' });
  const revoked = (await manager.create(owner, { channelId: 'ops', name: 'Old' })).webhook;
  await manager.revoke(owner, revoked.id);
  await store.recordPosts?.([
    {
      webhookId: webhook.id,
      at: 1,
      status: 201,
      code: null,
      errors: [],
      idempotencyKey: null,
      messageId: 'm1',
      bodyBytes: 2,
      count: 1,
    },
  ]);
  const api = createManagementApi({
    manager,
    authenticate: (request) => actorOfCookie(request.headers.get('cookie')),
    basePath: BASE,
    onError: () => {},
    ...(handle ? { handle: createWebhookHandler({ store }) } : {}),
  });
  return { api, webhookId: webhook.id, revokedId: revoked.id, url };
}

interface Call {
  method: string;
  path: string;
  cookie?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
}

async function call(
  api: { fetch(request: Request): Promise<Response> },
  { method, path, cookie = OWNER, headers = {}, body }: Call,
) {
  const init: RequestInit & { duplex?: string } = {
    method,
    headers: { cookie, 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  };
  const response = await api.fetch(new Request(`https://chat.example.com${BASE}${path}`, init));
  return {
    status: response.status,
    headers: Object.fromEntries([...(response.headers as unknown as Iterable<[string, string]>)]),
    json: (await response.json()) as Json,
  };
}

const routes = Object.entries(document.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json).map(([method, operation]) => ({
    path: path.slice(BASE.length),
    method: method.toUpperCase(),
    operation: operation as Json,
  })),
);
const concrete = (path: string, ids: { webhookId: string }) =>
  path.replace('{channelId}', 'ops').replace('{webhookId}', ids.webhookId);
const isWrite = (method: string) => method !== 'GET';
const creates = (route: (typeof routes)[number]) => route.method === 'POST' && route.path.endsWith('/webhooks');
const goodBody = (route: (typeof routes)[number], setup: { url: string }) =>
  route.method === 'PATCH'
    ? '{"description":"x"}'
    : creates(route)
      ? '{"name":"CI"}'
      : route.path.endsWith('/test')
        ? JSON.stringify({ url: setup.url, text: 'hi' })
        : route.method === 'POST'
          ? '{}'
          : undefined;
/** A body of the route with one profile field set to `value`. */
const withProfile = (route: (typeof routes)[number], field: string, value: string) =>
  JSON.stringify({ ...(creates(route) ? { name: 'CI' } : {}), [field]: value });

/**
 * Provokes `code` on `route`: each a request that the route answers with that problem, on a world
 * set up for it.
 */
async function provoke(route: (typeof routes)[number], code: string) {
  const on = async (setup: Awaited<ReturnType<typeof world>>, change: Partial<Call> = {}) =>
    call(setup.api, {
      method: route.method,
      path: concrete(route.path, setup),
      body: goodBody(route, setup),
      ...change,
    });
  switch (code) {
    case 'cross_site_request':
      return on(await world(), { headers: { 'sec-fetch-site': 'cross-site' } });
    case 'unauthenticated':
      return on(await world(), { cookie: '' });
    case 'misconfigured':
      return on(await world(), { cookie: 'session=odd' });
    case 'internal_error':
      return on(await world(), { cookie: 'session=broken' });
    case 'store_failed':
    case 'store_timeout': {
      const { store, state } = failingWith(code);
      const setup = await world(store);
      state.failing = true;
      return on(setup);
    }
    case 'unsupported_media_type':
      return on(await world(), { headers: { 'content-type': 'text/plain' } });
    case 'payload_too_large':
      return on(await world(), { body: JSON.stringify({ name: 'CI', description: 'x'.repeat(40_000) }) });
    case 'invalid_json':
      return on(await world(), { body: '{' });
    case 'invalid_argument':
      return route.method === 'GET'
        ? on(await world(), { path: `${concrete(route.path, await world())}?limit=0` })
        : on(await world(), { body: '{"colour":1}' });
    case 'body_read_failed': {
      const broken = new ReadableStream({ pull: (controller) => controller.error(new Error('connection reset')) });
      return on(await world(), { body: broken });
    }
    case 'channel_not_found':
    case 'webhook_not_found':
      return on(await world(), { cookie: OTHER });
    case 'channel_archived':
      return on(await world(), { path: route.path.replace('{channelId}', 'old') });
    case 'webhook_revoked': {
      const setup = await world();
      return on(setup, { path: route.path.replace('{webhookId}', setup.revokedId) });
    }
    case 'invalid_name':
      return on(await world(), { body: '{"name":" "}' });
    case 'invalid_description':
      return on(await world(), { body: withProfile(route, 'description', 'a\u0000b') });
    case 'invalid_avatar_url':
      return on(await world(), { body: withProfile(route, 'avatarUrl', 'http://example.com/a.png') });
    case 'history_unavailable': {
      const { recordPosts: _, listPosts: __, ...withoutHistory } = createMemoryStore();
      return on(await world(withoutHistory as never));
    }
    case 'test_unavailable':
      return on(await world(undefined, { handle: false }));
    default:
      throw new Error(`no way to provoke ${code}`);
  }
}

function compileAgainstDocument(schema: Json) {
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: document.components });
  return ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
}

/** Checks an answer of `route` against the document: a response of its status, the headers it requires, its schema. */
function expectDocumented(route: (typeof routes)[number], answer: Awaited<ReturnType<typeof call>>, what: string) {
  const response = route.operation.responses[String(answer.status)] as Json | undefined;
  expect(response, `${what}: status ${answer.status} is not in the document`).toBeDefined();
  const [mediaType, media] = Object.entries(response!.content as Json)[0]!;
  expect(answer.headers['content-type']).toBe(mediaType);
  for (const [name, header] of Object.entries(response!.headers as Json)) {
    if (header.required)
      expect(answer.headers[name.toLowerCase()], `${what}: header ${name}`).toBe(header.schema.const);
  }
  const check = compileAgainstDocument(media.schema);
  expect(check(answer.json), `${what}: ${JSON.stringify(check.errors)} in ${JSON.stringify(answer.json)}`).toBe(true);
}

describe('the management OpenAPI document', () => {
  it('validates strictly as OpenAPI 3.1 under swagger-parser, with other options too', async () => {
    await expect(
      SwaggerParser.validate(structuredClone(document) as never, { validate: { schema: true, spec: true } }),
    ).resolves.toBeDefined();
    const custom = createManagementOpenApiDocument({
      serverUrl: 'https://hooks.example.org',
      basePath: '',
      title: 'Acme',
    }) as Json;
    await expect(SwaggerParser.validate(structuredClone(custom) as never)).resolves.toBeDefined();
    expect(Object.keys(custom.paths)).toContain('/webhooks/{webhookId}/rotate');
    for (const options of [{ basePath: 'api' }, { basePath: '/api/' }, { serverUrl: 'ftp://x' }, { title: ' ' }]) {
      expect(() => createManagementOpenApiDocument(options)).toThrow(
        expect.objectContaining({ code: 'invalid_argument' }),
      );
    }
  });

  it('names every route of the API, once', () => {
    expect(routes.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      'GET /channels/{channelId}/webhooks',
      'GET /webhooks/{webhookId}',
      'GET /webhooks/{webhookId}/posts',
      'PATCH /webhooks/{webhookId}',
      'POST /channels/{channelId}/webhooks',
      'POST /webhooks/{webhookId}/revoke',
      'POST /webhooks/{webhookId}/rotate',
      'POST /webhooks/{webhookId}/test',
    ]);
  });

  describe.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_, route) => {
    it('its success answer validates against the document', async () => {
      const setup = await world();
      const answer = await call(setup.api, {
        method: route.method,
        path: concrete(route.path, setup),
        body: goodBody(route, setup),
      });
      expect(answer.status, JSON.stringify(answer.json)).toBe(Number(Object.keys(route.operation.responses)[0]));
      expectDocumented(route, answer, 'success');
    });

    // Rule: every problem code the document names under a status of this route is what the route
    // answers to some request, with that status, and the answer validates against the document.
    const named = Object.entries(route.operation.responses as Json).flatMap(([status, response]) =>
      ((response as Json).content['application/problem+json']?.schema.allOf[1].properties.code.enum ?? []).map(
        (code: string) => [code, Number(status)] as const,
      ),
    );
    it.each(named)('%s (%i) is answered, as the document says', async (code, status) => {
      const answer = await provoke(route, code);
      expect(answer.status, JSON.stringify(answer.json)).toBe(status);
      expect(answer.json.code).toBe(code);
      expectDocumented(route, answer, code);
    });

    it('writes name the body errors, reads do not', () => {
      const codes = named.map(([code]) => code);
      expect(codes.includes('unsupported_media_type')).toBe(isWrite(route.method));
    });
  });
});
