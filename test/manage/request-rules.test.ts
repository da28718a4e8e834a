import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { connect } from 'node:net';
import { createWebhookManager } from '../../src/lifecycle/create-webhook-manager.js';
import { createManagementApi } from '../../src/manage/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import { readAnswer, send, type Answer, type Listening } from '../support/http.js';
import { expectAnswerHeaders, problemBody } from './role-table.js';
import {
  BASE_PATH,
  CALLERS,
  managementTargets,
  memoryStore,
  openWorld,
  signedIn,
  type Fixture,
  type ManagedWorld,
} from './support.js';

const OWNER = signedIn('the channel owner');
const TRUSTED = 'https://admin.example.com';

// What the API checks before the manager, on every stack: the route and method, cross-site
// requests, the media type of a write, the sign-in, and the body.
describe.each(managementTargets)('the rules of a request on $name', (target) => {
  let world: ManagedWorld;
  let app: Listening;
  let fixture: Fixture;
  const url = (path: string) => `${app.origin}${BASE_PATH}${path}`;
  const expectProblem = (answer: Answer, status: number, code: string, extra: Record<string, unknown> = {}) => {
    expect(answer.status, answer.text).toBe(status);
    expectAnswerHeaders(answer, 'application/problem+json');
    expect(answer.json).toEqual({ ...problemBody(status, code), ...extra });
  };

  beforeAll(async () => {
    world = await openWorld(memoryStore);
    app = await target.start(world.manager, {
      trustedOrigins: [TRUSTED],
      onError: (error, context) => world.heard.errors.push({ error, context }),
    });
    fixture = await world.fixture();
  });
  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  describe('cross-site requests', () => {
    const list = () => url(`/channels/${fixture.channelId}/webhooks`);
    it.each(['cross-site', 'same-site'])(
      'Sec-Fetch-Site: %s is refused with 403, signed in or not, for reads and writes',
      async (site) => {
        for (const [method, path, body] of [
          ['GET', list(), undefined],
          ['POST', url(`/webhooks/${fixture.webhookId}/revoke`), {}],
          ['PATCH', url(`/webhooks/${fixture.webhookId}`), { description: 'from elsewhere' }],
        ] as const) {
          expectProblem(
            await send(path, {
              method,
              headers: { ...OWNER, 'sec-fetch-site': site, origin: 'https://evil.example' },
              body,
            }),
            403,
            'cross_site_request',
          );
        }
        expect((await world.store.getWebhook(fixture.webhookId))?.revokedAt).toBeNull();
        expect((await world.store.getWebhook(fixture.webhookId))?.description).toBe('Deploys from CI');
      },
    );

    it.each(['same-origin', 'none'])('Sec-Fetch-Site: %s is answered', async (site) => {
      expect((await send(list(), { method: 'GET', headers: { ...OWNER, 'sec-fetch-site': site } })).status).toBe(200);
    });

    it('without Sec-Fetch-Site, an Origin of another host or "null" is refused, and one of this host answered', async () => {
      for (const origin of ['https://evil.example', 'null', 'not a url']) {
        expectProblem(await send(list(), { method: 'GET', headers: { ...OWNER, origin } }), 403, 'cross_site_request');
      }
      expect((await send(list(), { method: 'GET', headers: { ...OWNER, origin: app.origin } })).status).toBe(200);
    });

    it('a request with neither header (a command-line client, a server) is answered', async () => {
      expect((await send(list(), { method: 'GET', headers: OWNER })).status).toBe(200);
    });

    it('a trusted origin is answered, cross-site or not', async () => {
      const headers = { ...OWNER, origin: TRUSTED };
      expect(
        (await send(list(), { method: 'GET', headers: { ...headers, 'sec-fetch-site': 'cross-site' } })).status,
      ).toBe(200);
      expect((await send(list(), { method: 'GET', headers })).status).toBe(200);
    });
  });

  describe('writes need JSON', () => {
    it.each([
      ['text/plain', 'text/plain'],
      ['a form', 'application/x-www-form-urlencoded'],
      ['multipart', 'multipart/form-data; boundary=x'],
      ['no type at all', undefined],
    ])('%s is refused with 415, before the sign-in is asked', async (_, type) => {
      const headers: Record<string, string> = type === undefined ? {} : { 'content-type': type };
      for (const [method, path] of [
        ['POST', url(`/channels/${fixture.channelId}/webhooks`)],
        ['PATCH', url(`/webhooks/${fixture.webhookId}`)],
        ['POST', url(`/webhooks/${fixture.webhookId}/rotate`)],
      ] as const) {
        const answer = await sendRaw(path, method, { ...OWNER, ...headers }, 'name=CI');
        expectProblem(answer, 415, 'unsupported_media_type');
      }
      expect(await world.store.listWebhooks(fixture.channelId)).toHaveLength(1);
    });

    it('rotate and revoke take a bare POST: no body and no type, with Content-Length: 0 or none', async () => {
      const own = await world.fixture();
      const rotated = await sendRaw(url(`/webhooks/${own.webhookId}/rotate`), 'POST', OWNER);
      expect(rotated.status, rotated.text).toBe(200);
      expect(rotated.json).toEqual({
        webhook: expect.objectContaining({ id: own.webhookId }),
        url: expect.any(String),
      });
      const revoked = await sendBare(url(`/webhooks/${own.webhookId}/revoke`), OWNER);
      expect(revoked.status).toBe(200);
      expect((await world.store.getWebhook(own.webhookId))?.revokedAt).not.toBeNull();
    });

    it('a body without a type is 415 on rotate and revoke too, and create and PATCH need the type even bare', async () => {
      const own = await world.fixture();
      for (const [headers, body] of [
        [{}, '{}'],
        [{ 'transfer-encoding': 'chunked' }, '{}'],
        [{ 'transfer-encoding': 'chunked' }, undefined],
      ] as const) {
        for (const action of ['rotate', 'revoke']) {
          const answer = await sendRaw(
            url(`/webhooks/${own.webhookId}/${action}`),
            'POST',
            { ...OWNER, ...headers },
            body,
          );
          expectProblem(answer, 415, 'unsupported_media_type');
        }
      }
      expectProblem(
        await sendRaw(url(`/channels/${own.channelId}/webhooks`), 'POST', OWNER),
        415,
        'unsupported_media_type',
      );
      expectProblem(await sendRaw(url(`/webhooks/${own.webhookId}`), 'PATCH', OWNER), 415, 'unsupported_media_type');
      expect(await world.store.getWebhook(own.webhookId)).toMatchObject({ revokedAt: null, rotatedAt: null });
    });

    it('a charset parameter is fine, and a read needs no type', async () => {
      const answer = await send(url(`/webhooks/${fixture.webhookId}`), {
        method: 'PATCH',
        headers: { ...OWNER, 'content-type': 'application/json; charset=UTF-8' },
        body: { description: 'With a charset' },
      });
      expect(answer.status).toBe(200);
      expect((await sendRaw(url(`/webhooks/${fixture.webhookId}`), 'GET', OWNER)).status).toBe(200);
    });
  });

  describe('routes and methods', () => {
    it('a path that is no route is 404 not_found, signed in or not', async () => {
      for (const path of [
        '/',
        '/channels',
        '/webhooks',
        `/webhooks/${fixture.webhookId}/nothing`,
        `/channels/${fixture.channelId}/webhooks/`,
      ]) {
        expectProblem(await send(url(path), { method: 'GET' }), 404, 'not_found');
      }
    });

    it('a method a route does not take is 405, with Allow', async () => {
      const answer = await send(url(`/webhooks/${fixture.webhookId}`), { method: 'PUT', headers: OWNER, body: {} });
      expectProblem(answer, 405, 'method_not_allowed');
      expect(answer.headers.allow).toBe('GET, PATCH');
      const remove = await send(url(`/webhooks/${fixture.webhookId}/revoke`), { method: 'DELETE', headers: OWNER });
      expectProblem(remove, 405, 'method_not_allowed');
      expect(remove.headers.allow).toBe('POST');
    });

    it("a path outside the API is the app's", async () => {
      const answer = await send(`${app.origin}/api/health`, { method: 'GET' });
      expect(answer.json).toEqual({ ok: true });
    });

    it('ids are percent-decoded path segments', async () => {
      const channelId = 'ops team/α';
      await world.putChannel({ id: channelId, ownerId: CALLERS['the channel owner'].userId, archived: false });
      const created = await send(url(`/channels/${encodeURIComponent(channelId)}/webhooks`), {
        method: 'POST',
        headers: OWNER,
        body: { name: 'Ops' },
      });
      expect(created.status, created.text).toBe(201);
      expect((created.json as { webhook: { channelId: string } }).webhook.channelId).toBe(channelId);
      const listed = await send(url(`/channels/${encodeURIComponent(channelId)}/webhooks`), {
        method: 'GET',
        headers: OWNER,
      });
      expect((listed.json as { webhooks: unknown[] }).webhooks).toHaveLength(1);
    });
  });

  describe('the sign-in', () => {
    it('comes before the body: a signed-out write with a bad body is 401', async () => {
      const body = target.parserFirst ? '{"colour": "red"}' : '{"bad';
      expectProblem(
        await sendRaw(
          url(`/channels/${fixture.channelId}/webhooks`),
          'POST',
          { 'content-type': 'application/json' },
          body,
        ),
        401,
        'unauthenticated',
      );
    });

    it('a sign-in that fails is a 500 reported to onError; one that answers no actor, a 500 misconfigured', async () => {
      world.heard.errors.length = 0;
      expectProblem(
        await send(url(`/webhooks/${fixture.webhookId}`), { method: 'GET', headers: { cookie: 'session=broken' } }),
        500,
        'internal_error',
      );
      expectProblem(
        await send(url(`/webhooks/${fixture.webhookId}`), { method: 'GET', headers: { cookie: 'session=odd' } }),
        500,
        'misconfigured',
      );
      expect(world.heard.errors).toEqual([
        {
          error: new Error('the session store is down'),
          context: { stage: 'authenticate', route: 'GET /webhooks/{webhookId}' },
        },
        {
          error: expect.objectContaining({ code: 'misconfigured' }),
          context: { stage: 'authenticate', route: 'GET /webhooks/{webhookId}' },
        },
      ]);
    });
  });

  describe('bodies', () => {
    it('is 413 past 32 KiB', async () => {
      const answer = await send(url(`/channels/${fixture.channelId}/webhooks`), {
        method: 'POST',
        headers: OWNER,
        body: { name: 'CI', description: 'x'.repeat(33_000) },
      });
      expectProblem(answer, 413, 'payload_too_large');
    });

    it('not JSON, or not an object: 400 invalid_json (a parser mounted first answers it itself)', async () => {
      for (const body of ['{"name": "CI"', '["CI"]', '"CI"']) {
        const answer = await sendRaw(
          url(`/channels/${fixture.channelId}/webhooks`),
          'POST',
          { ...OWNER, 'content-type': 'application/json' },
          body,
        );
        if (target.parserFirst) expect(answer.status).toBeGreaterThanOrEqual(400);
        else expectProblem(answer, 400, 'invalid_json', { errors: [{ pointer: '', message: expect.any(String) }] });
      }
      expect(await world.store.listWebhooks(fixture.channelId)).toHaveLength(1);
    });

    it('unknown properties and wrong types: 400 invalid_argument, a pointer each', async () => {
      const answer = await send(url(`/channels/${fixture.channelId}/webhooks`), {
        method: 'POST',
        headers: OWNER,
        body: { name: 7, description: false, colour: 'red' },
      });
      expectProblem(answer, 400, 'invalid_argument', {
        errors: [
          { pointer: '/colour', message: 'is not an allowed property' },
          { pointer: '/name', message: 'must be a string' },
          { pointer: '/description', message: 'must be a string or null' },
        ],
      });
    });

    it('no rename and no move: a PATCH with name or channelId is 400, saying why', async () => {
      const answer = await send(url(`/webhooks/${fixture.webhookId}`), {
        method: 'PATCH',
        headers: OWNER,
        body: { name: 'Renamed', channelId: 'elsewhere' },
      });
      expectProblem(answer, 400, 'invalid_argument', {
        errors: [
          {
            pointer: '/name',
            message: expect.stringMatching(/^cannot change: a webhook keeps the name it was created with/),
          },
          { pointer: '/channelId', message: expect.stringMatching(/^cannot change: a webhook stays in its channel/) },
        ],
      });
      expect((await world.store.getWebhook(fixture.webhookId))?.name).toBe('CI');
    });

    it("the manager's rules: 400 with its code, the field's pointer and its message", async () => {
      const create = (body: object) =>
        send(url(`/channels/${fixture.channelId}/webhooks`), { method: 'POST', headers: OWNER, body });
      const rule = (pointer: string) => ({ errors: [{ pointer, message: expect.any(String) }] });
      expectProblem(await create({ name: '   ' }), 400, 'invalid_name', rule('/name'));
      expectProblem(
        await create({ name: 'CI', description: 'x'.repeat(501) }),
        400,
        'invalid_description',
        rule('/description'),
      );
      const avatar = await create({ name: 'CI', avatarUrl: 'http://user:pw@chat.example.com/a.png' });
      expectProblem(avatar, 400, 'invalid_avatar_url', rule('/avatarUrl'));
      expect(avatar.text).not.toContain('user:pw');
    });
  });

  describe('the lifecycle rules', () => {
    it('409 for a webhook in an archived channel and for a revoked webhook; revoking twice is 200', async () => {
      const own = await world.fixture();
      await world.putChannel({ id: own.channelId, ownerId: CALLERS['the channel owner'].userId, archived: true });
      expectProblem(
        await send(url(`/channels/${own.channelId}/webhooks`), {
          method: 'POST',
          headers: OWNER,
          body: { name: 'CI' },
        }),
        409,
        'channel_archived',
      );
      const revoke = () => send(url(`/webhooks/${own.webhookId}/revoke`), { method: 'POST', headers: OWNER, body: {} });
      expect((await revoke()).status).toBe(200);
      expect((await revoke()).status).toBe(200);
      expectProblem(
        await send(url(`/webhooks/${own.webhookId}/rotate`), { method: 'POST', headers: OWNER }),
        409,
        'webhook_revoked',
      );
      expectProblem(
        await send(url(`/webhooks/${own.webhookId}`), { method: 'PATCH', headers: OWNER, body: { description: 'x' } }),
        409,
        'webhook_revoked',
      );
    });

    it('the history takes ?limit= from 1 to 100', async () => {
      const posts = (limit: string) =>
        send(url(`/webhooks/${fixture.webhookId}/posts?limit=${limit}`), { method: 'GET', headers: OWNER });
      expect(((await posts('1')).json as { posts: unknown[] }).posts).toHaveLength(1);
      for (const limit of ['0', '101', 'ten', '1.5']) expectProblem(await posts(limit), 400, 'invalid_argument');
    });
  });
});

// A mount that strips basePath itself (node:http, Koa, a Fetch runtime without a router) hands on
// what is not under it: a path beside it that only starts with the same letters is the app's.
describe('basePath', () => {
  it("ends at a segment boundary: /api/manage-old/… is the app's, /api/manage/… the API's", async () => {
    const manager = createWebhookManager({ store: createMemoryStore(), baseUrl: 'https://chat.example.com' });
    const api = createManagementApi({ manager, authenticate: () => CALLERS['the channel owner'], basePath: BASE_PATH });
    const serve = (url: string) => api.serve({ method: 'GET', url, headers: {}, body: () => null }, null as never);
    for (const url of [
      '/api/manage-old/webhooks/wh_1',
      '/api/manage-old',
      '/api/managed?x=1',
      'https://chat.example.com/api/manage-old/webhooks/wh_1',
      '/api',
    ]) {
      expect(serve(url), url).toBeNull();
    }
    for (const [url, code] of [
      ['/api/manage', 'not_found'],
      ['/api/manage?x=1', 'not_found'],
      ['/api/manage/webhooks/wh_1', 'webhook_not_found'],
      ['https://chat.example.com/api/manage/webhooks/wh_1', 'webhook_not_found'],
    ]) {
      const answer = await serve(url!);
      expect([answer?.status, (answer?.body as { code?: string } | undefined)?.code], url).toEqual([404, code]);
    }
  });
});

// A body whose headers announce none (a Fetch stream, HTTP/2) is still a body: without a type, 415.
describe('a rotate without a type whose body arrives unannounced', () => {
  it('is 415 when it has a byte, and 200 when it has none', async () => {
    const store = createMemoryStore();
    const owner = CALLERS['the channel owner']!;
    store.putChannel({ id: 'general', ownerId: owner.userId, archived: false });
    const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
    const { webhook } = await manager.create(owner, { channelId: 'general', name: 'CI' });
    const api = createManagementApi({ manager, authenticate: () => owner, basePath: BASE_PATH });
    const rotate = (chunks: string[]) =>
      api.fetch(
        new Request(`https://chat.example.com${BASE_PATH}/webhooks/${webhook.id}/rotate`, {
          method: 'POST',
          body: new ReadableStream({
            start(controller) {
              for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
              controller.close();
            },
          }),
          duplex: 'half',
        } as RequestInit),
      );
    const refused = await rotate(['{}']);
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([
      415,
      'unsupported_media_type',
    ]);
    expect((await store.getWebhook(webhook.id))?.rotatedAt).toBeNull();
    expect((await rotate([])).status).toBe(200);
  });
});

/** Sends `body` as it is, with exactly `headers`: no content type unless given. */
function sendRaw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const length =
      payload === undefined || 'transfer-encoding' in headers ? {} : { 'content-length': String(payload.length) };
    const all = { ...headers, ...length };
    const req = request(url, { method, headers: all, agent: false }, (res) => readAnswer(res).then(resolve, reject));
    req.on('error', reject);
    req.end(payload);
  });
}

// A POST with no Content-Length at all, as curl -X POST sends it: Node's client always adds one.
function sendBare(url: string, headers: Record<string, string>): Promise<{ status: number }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('end', () => resolve({ status: Number(received.split(' ')[1]) }));
    const lines = [`POST ${pathname} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close'];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}
