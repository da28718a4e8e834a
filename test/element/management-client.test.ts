import { describe, expect, it } from 'vitest';
import { createManagementClient, type ManagementFailure } from '../../src/element/management-client.js';
import { createManagementApi } from '../../src/manage/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import type { WebhookStore } from '../../src/ports.js';
import { ALICE, PAGE, world } from './management-world.js';

/** The failure a call rejected with. */
async function failureOf(call: Promise<unknown>): Promise<ManagementFailure> {
  const failure = await call.then(
    () => {
      throw new Error('the call succeeded');
    },
    (error: unknown) => error as ManagementFailure,
  );
  expect(failure.name).toBe('ManagementFailure');
  return failure;
}

const summary = ({ kind, status, code, errors }: ManagementFailure) => ({ kind, status, code, errors });

describe("the settings element's client of the management API", () => {
  it("lists, creates, tests, rotates and revokes a channel's webhooks, and reads one's recent posts", async () => {
    const w = await world();
    expect(await w.client.list('general')).toEqual([]);

    const created = await w.client.create('general', { name: 'Deploys', description: 'From CI' });
    expect(created.webhook).toMatchObject({
      channelId: 'general',
      name: 'Deploys',
      description: 'From CI',
      status: 'active',
    });
    expect(created.url).toMatch(new RegExp(`^https://chat\\.example\\.com/hooks/channels/${created.webhook.id}/`));
    expect((await w.client.list('general')).map(({ id, name }) => ({ id, name }))).toEqual([
      { id: created.webhook.id, name: 'Deploys' },
    ]);

    expect(await w.client.test(created.webhook.id, created.url, 'Hello')).toEqual({
      status: 201,
      code: null,
      detail: '',
    });
    expect(w.store.listMessages('general').map((message) => message.body)).toEqual(['Hello']);

    const rotated = await w.client.rotate(created.webhook.id);
    expect(rotated.webhook).toMatchObject({ id: created.webhook.id, status: 'active' });
    expect(rotated.url).not.toBe(created.url);
    const old = await w.client.test(created.webhook.id, created.url, 'Hello again');
    expect(old).toMatchObject({ status: 404, code: 'not_found' });
    expect(old.detail).not.toBe('');
    expect(await w.client.test(created.webhook.id, rotated.url, 'Hello, new URL')).toEqual({
      status: 201,
      code: null,
      detail: '',
    });

    // The history is written on a later tick, off the answer's path; it keeps the posts that proved their secret.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const posts = await w.client.posts(created.webhook.id);
    const stored = w.store.listMessages('general').map((message) => message.id);
    expect(posts.map(({ status, messageId }) => ({ status, messageId }))).toEqual([
      { status: 201, messageId: stored[1] },
      { status: 201, messageId: stored[0] },
    ]);

    const revoked = await w.client.revoke(created.webhook.id);
    expect(revoked).toMatchObject({ id: created.webhook.id, status: 'revoked' });
    expect(JSON.stringify([revoked, await w.client.list('general')])).not.toContain(rotated.url);
  });

  it("asks under the API's base, resolved against the page, with its ids encoded, the page's cookies and no cache", async () => {
    const w = await world();
    await failureOf(w.client.list('gen eral/x?'));
    await failureOf(w.client.rotate('wh_a/b'));
    expect(w.sent).toEqual([
      {
        url: 'https://chat.example.com/api/manage/channels/gen%20eral%2Fx%3F/webhooks',
        init: { method: 'GET', credentials: 'same-origin', cache: 'no-store', headers: { accept: 'application/json' } },
      },
      {
        url: 'https://chat.example.com/api/manage/webhooks/wh_a%2Fb/rotate',
        init: {
          method: 'POST',
          credentials: 'same-origin',
          cache: 'no-store',
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          body: '{}',
        },
      },
    ]);
    const urls: string[] = [];
    const elsewhere = createManagementClient(
      'https://manage.example.com/v1',
      (async (input: URL) => {
        urls.push(String(input));
        return Response.json({ webhooks: [] });
      }) as typeof fetch,
      PAGE,
    );
    expect(await elsewhere.list('general')).toEqual([]);
    expect(urls).toEqual(['https://manage.example.com/v1/channels/general/webhooks']);
  });

  it('turns each refusal of the API into the kind of failure the element explains, with its status and code', async () => {
    const w = await world();
    const active = await w.client.create('general', { name: 'Deploys' });
    const gone = await w.client.create('general', { name: 'Old' });
    await w.client.revoke(gone.webhook.id);

    expect(summary(await failureOf(w.client.list('secret')))).toEqual({
      kind: 'not_allowed',
      status: 404,
      code: 'channel_not_found',
      errors: [],
    });
    expect(summary(await failureOf(w.client.list('nowhere')))).toMatchObject({ kind: 'not_allowed', status: 404 });
    expect(summary(await failureOf(w.client.rotate('wh_unknown')))).toMatchObject({
      kind: 'webhook_gone',
      status: 404,
      code: 'webhook_not_found',
    });
    expect(summary(await failureOf(w.client.rotate(gone.webhook.id)))).toMatchObject({
      kind: 'webhook_gone',
      status: 409,
      code: 'webhook_revoked',
    });
    expect(summary(await failureOf(w.client.create('old', { name: 'Late' })))).toMatchObject({
      kind: 'archived',
      status: 409,
      code: 'channel_archived',
    });
    const invalid = await failureOf(w.client.create('general', { name: ' ' }));
    expect(summary(invalid)).toEqual({
      kind: 'invalid',
      status: 400,
      code: 'invalid_name',
      errors: [{ pointer: '/name', message: invalid.message }],
    });
    expect(invalid.message).not.toBe('');
    expect(summary(await failureOf(w.client.test(active.webhook.id, gone.url, 'x')))).toMatchObject({
      kind: 'server',
      status: 400,
      code: 'invalid_argument',
    });

    const signedOut = await world({ signedIn: false });
    expect(summary(await failureOf(signedOut.client.list('general')))).toMatchObject({
      kind: 'signed_out',
      status: 401,
      code: 'unauthenticated',
    });

    const { recordPosts: _, listPosts: __, ...withoutHistory } = createMemoryStore();
    const noHistory = await world({ store: withoutHistory as WebhookStore });
    const quiet = await noHistory.client.create('general', { name: 'Quiet' });
    expect(summary(await failureOf(noHistory.client.posts(quiet.webhook.id)))).toMatchObject({
      kind: 'unavailable',
      status: 501,
      code: 'history_unavailable',
    });

    const noHandler = await world({ handle: false });
    const untested = await noHandler.client.create('general', { name: 'Untested' });
    expect(summary(await failureOf(noHandler.client.test(untested.webhook.id, untested.url, 'x')))).toMatchObject({
      kind: 'test_unavailable',
      status: 501,
      code: 'test_unavailable',
    });
  });

  it('a page of another site is refused (403), no answer is a network failure, any other answer a server failure', async () => {
    const api = createManagementApi({
      manager: (await world()).manager,
      authenticate: () => ALICE,
      basePath: '/api/manage',
      onError: () => {},
    });
    const crossSite = createManagementClient(
      '/api/manage',
      (async (input: URL, init: RequestInit) => {
        // What the browser adds to a request from a page of another site.
        const headers = { ...(init.headers as Record<string, string>), 'sec-fetch-site': 'cross-site' };
        return api.fetch(new Request(input, { method: init.method, headers }));
      }) as typeof fetch,
      PAGE,
    );
    expect(summary(await failureOf(crossSite.list('general')))).toMatchObject({
      kind: 'refused',
      status: 403,
      code: 'cross_site_request',
    });

    const unreachable = createManagementClient(
      '/api/manage',
      (async () => {
        throw new TypeError('fetch failed');
      }) as typeof fetch,
      PAGE,
    );
    expect(summary(await failureOf(unreachable.list('general')))).toEqual({
      kind: 'network',
      status: 0,
      code: null,
      errors: [],
    });
    // An `api` no URL can be made of fails the same way, before any request.
    expect(summary(await failureOf(createManagementClient('https://[', fetch, PAGE).list('general')))).toMatchObject({
      kind: 'network',
    });

    const answering = (response: () => Response) =>
      createManagementClient('/api/manage', (async () => response()) as typeof fetch, PAGE);
    // A proxy's page in front of the API, and an answer that is no JSON object.
    expect(
      summary(await failureOf(answering(() => new Response('<h1>Bad gateway</h1>', { status: 502 })).list('general'))),
    ).toEqual({ kind: 'server', status: 502, code: null, errors: [] });
    expect(summary(await failureOf(answering(() => Response.json(['no', 'object'])).list('general')))).toEqual({
      kind: 'server',
      status: 200,
      code: null,
      errors: [],
    });
    expect(summary(await failureOf(answering(() => new Response('', { status: 401 })).list('general')))).toMatchObject({
      kind: 'signed_out',
      status: 401,
    });
    expect(summary(await failureOf(answering(() => new Response('', { status: 403 })).list('general')))).toMatchObject({
      kind: 'refused',
      status: 403,
    });
  });
});
