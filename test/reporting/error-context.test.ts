import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createNodeListener } from '../../adapters/frameworks/node/index.js';
import {
  createMemoryStore,
  createWebhookHandler,
  createWebhookManager,
  feedEventStream,
  type ErrorContext,
  type WebhookHandler,
} from '../../src/index.js';
import { createManagementApi } from '../../src/manage/index.js';
import { listen, send } from '../support/http.js';
import { BASE_URL, CHANNEL_ID, OWNER, request, splitUrl } from '../support/setup.js';

const FIELDS = new Set(['stage', 'webhookId', 'channelId', 'route', 'event']);

// Rule: every onError gets one shape of context, so one function, typed once, hears the handler,
// the manager, the management API, the node:http listener and the feed; a context holds only the
// fields of that shape, never the URL or the secret.
describe('one ErrorContext for every onError', () => {
  it('one function hears every factory, each context of the one shape', async () => {
    const heard: ErrorContext[] = [];
    const onError = (_error: unknown, context: ErrorContext) => void heard.push(context);
    const store = createMemoryStore();
    await store.putChannel({ id: CHANNEL_ID, ownerId: OWNER.userId, archived: false });
    const manager = createWebhookManager({
      store,
      baseUrl: BASE_URL,
      onAudit: () => {
        throw new Error('audit table gone');
      },
      onError,
    });
    const { webhook, url } = await manager.create(OWNER, { channelId: CHANNEL_ID, name: 'CI' });

    const failing = { ...store, insertMessage: () => Promise.reject(new Error('disk full')) };
    const handle = createWebhookHandler({ store: failing, onError });
    expect((await handle(request(url, { text: 'x' }))).status).toBe(500);

    const api = createManagementApi({
      manager,
      authenticate: () => {
        throw new Error('session store down');
      },
      onError,
    });
    expect((await api.fetch(new Request(`${BASE_URL}/channels/${CHANNEL_ID}/webhooks`))).status).toBe(500);

    // An answer Node cannot write: a header value with a line break.
    const answering = createWebhookHandler({ store, onError });
    const broken: WebhookHandler = async (posted) => ({ ...(await answering(posted)), headers: { 'x-note': 'a\nb' } });
    const server = await listen(createServer(createNodeListener(broken, { onError })));
    try {
      const answer = await send(`${server.origin}${new URL(url).pathname}`, { method: 'POST', body: '{}' });
      expect(answer.status).toBe(500);
    } finally {
      await server.close();
    }

    const feed = { store: { ...store, readFeed: () => Promise.reject(new Error('db down')) }, channelId: CHANNEL_ID };
    for await (const _ of feedEventStream({ ...feed, onError }, undefined, new AbortController().signal));

    const { secret } = splitUrl(url);
    expect(heard.map(({ stage }) => stage)).toEqual(['on_audit', 'store', 'authenticate', 'write', 'feed']);
    expect(heard).toEqual([
      expect.objectContaining({ stage: 'on_audit', webhookId: webhook.id, channelId: CHANNEL_ID }),
      { stage: 'store', webhookId: webhook.id },
      { stage: 'authenticate', route: 'GET /channels/{channelId}/webhooks' },
      { stage: 'write' },
      { stage: 'feed', channelId: CHANNEL_ID },
    ]);
    for (const context of heard) {
      expect(Object.keys(context).filter((key) => !FIELDS.has(key))).toEqual([]);
      expect(JSON.stringify(context)).not.toContain(secret);
    }
  });
});
