import { describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { createWebhookManager } from '../../src/lifecycle/create-webhook-manager.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import type { WebhookStore } from '../../src/ports.js';
import { request } from '../support/setup.js';

// A store sharded by channel finds a webhook's data from its id alone: the manager asks it for the
// id of a new webhook (newWebhookId) when it has the method, and makes a random one otherwise.
describe('the webhook id of a store that chooses it', () => {
  it('is the one newWebhookId gives for the webhook’s channel, in the record and in the URL', async () => {
    const store = createMemoryStore();
    await store.putChannel({ id: 'ops', ownerId: 'u1', archived: false });
    const asked: string[] = [];
    const sharded: WebhookStore = Object.assign(Object.create(store) as WebhookStore, {
      newWebhookId: (channelId: string) => {
        asked.push(channelId);
        return `wh_OPS00${String(asked.length).padStart(17, '0')}`;
      },
    });
    const manager = createWebhookManager({ store: sharded, baseUrl: 'https://chat.example.com' });
    const { webhook, url } = await manager.create({ userId: 'u1', role: 'member' }, { channelId: 'ops', name: 'CI' });
    expect(asked).toEqual(['ops']);
    expect(webhook.id).toBe('wh_OPS0000000000000000001');
    expect(new URL(url).pathname).toMatch(/^\/hooks\/channels\/wh_OPS0000000000000000001\/[A-Za-z0-9_-]{43}$/);
    const answer = await createWebhookHandler({ store: sharded })(request(url, { text: 'through the chosen id' }));
    expect(answer.status).toBe(201);
  });

  it('is random, in the library’s shape, when the store has no newWebhookId', async () => {
    const store = createMemoryStore();
    await store.putChannel({ id: 'ops', ownerId: 'u1', archived: false });
    const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
    const ids = await Promise.all(
      [1, 2].map(
        async () =>
          (await manager.create({ userId: 'u1', role: 'member' }, { channelId: 'ops', name: 'CI' })).webhook.id,
      ),
    );
    for (const id of ids) expect(id).toMatch(/^wh_[A-Za-z0-9_-]{22}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });
});
