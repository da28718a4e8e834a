import { describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { createWebhookManager } from '../../src/lifecycle/create-webhook-manager.js';
import { createManagementApi } from '../../src/manage/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import { actorOfCookie, CALLERS } from './support.js';

const OWNER = CALLERS['the channel owner'];

async function world({ handle = true } = {}) {
  const store = createMemoryStore();
  store.putChannel({ id: 'ops', ownerId: OWNER.userId, archived: false });
  // The URLs live on another origin than the API: the route posts through the handler in process.
  const manager = createWebhookManager({ store, baseUrl: 'https://hooks.example.com' });
  const first = await manager.create(OWNER, { channelId: 'ops', name: 'CI' });
  const second = await manager.create(OWNER, { channelId: 'ops', name: 'Deploys' });
  const api = createManagementApi({
    manager,
    authenticate: (request) => actorOfCookie(request.headers.get('cookie')),
    onError: () => {},
    ...(handle ? { handle: createWebhookHandler({ store }) } : {}),
  });
  const test = async (webhookId: string, url: string, caller: string = OWNER.userId) => {
    const response = await api.fetch(
      new Request(`https://chat.example.com/webhooks/${webhookId}/test`, {
        method: 'POST',
        headers: { cookie: `session=${caller}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, text: 'Test message' }),
      }),
    );
    return {
      status: response.status,
      json: (await response.json()) as { status?: number; code?: string; body?: { code?: string } },
    };
  };
  return { store, manager, first, second, test };
}

describe('the test message route', () => {
  it("posts through the endpoint with the URL it is given and answers the endpoint's answer", async () => {
    const w = await world();
    const answer = await w.test(w.first.webhook.id, w.first.url);
    expect([answer.status, answer.json.status]).toEqual([200, 201]);
    expect(w.store.listMessages('ops')).toEqual([
      expect.objectContaining({
        body: 'Test message',
        author: expect.objectContaining({ id: w.first.webhook.id, name: 'CI' }),
      }),
    ]);
  });

  it('an old URL after a rotation is answered as the endpoint answers it: 404 not_found', async () => {
    const w = await world();
    await w.manager.rotate(OWNER, w.first.webhook.id);
    const answer = await w.test(w.first.webhook.id, w.first.url);
    expect([answer.status, answer.json.status, answer.json.body?.code]).toEqual([200, 404, 'not_found']);
    expect(w.store.listMessages('ops')).toEqual([]);
  });

  it("refuses another webhook's URL, even one the caller manages: 400 invalid_argument, nothing posted", async () => {
    const w = await world();
    const answer = await w.test(w.first.webhook.id, w.second.url);
    expect([answer.status, answer.json.code]).toEqual([400, 'invalid_argument']);
    expect((await w.test(w.first.webhook.id, 'not a url')).json.code).toBe('invalid_argument');
    expect(w.store.listMessages('ops')).toEqual([]);
  });

  it('a caller who may not manage the webhook gets 404 webhook_not_found, with a working URL, and nothing is posted', async () => {
    const w = await world();
    const answer = await w.test(w.first.webhook.id, w.first.url, CALLERS['another member'].userId);
    expect([answer.status, answer.json.code]).toEqual([404, 'webhook_not_found']);
    expect(w.store.listMessages('ops')).toEqual([]);
  });

  it('without a handler: 501 test_unavailable, after the permission check', async () => {
    const w = await world({ handle: false });
    expect((await w.test(w.first.webhook.id, w.first.url)).json.code).toBe('test_unavailable');
    expect((await w.test(w.first.webhook.id, w.first.url, CALLERS['another member'].userId)).json.code).toBe(
      'webhook_not_found',
    );
  });
});
