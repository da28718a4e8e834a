import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { createWebhookManager, type Actor } from '../../src/manager/create-webhook-manager.js';
import type { WebhookHandler } from '../../src/handler/handler-types.js';
import { createMemoryStore, type MemoryStore } from '../../src/memory/memory-store.js';
import type { Message, WebhookStore } from '../../src/ports.js';

const OWNER: Actor = { userId: 'u-owner', role: 'member' };

/** A handler over a memory store with two webhooks, one in an archived channel, and one whose store fails. */
export interface WebhookFixture {
  store: MemoryStore;
  handle: WebhookHandler;
  /** A handler over the same webhooks whose `insertMessage` always throws. */
  failingHandle: WebhookHandler;
  /** Path of the active webhook: `/hooks/channels/{id}/{secret}`. */
  path: string;
  /** The active webhook's id. */
  webhookId: string;
  /** Path of a webhook whose channel got archived after creation. */
  archivedPath: string;
  /** Path with the right webhook id and a wrong (well-formed) secret. */
  wrongSecretPath: string;
  /** The messages stored in the active channel so far. */
  messages(): Promise<Message[]>;
}

/** A fresh fixture; each has its own store and rate-limit state. */
export async function createWebhookFixture(): Promise<WebhookFixture> {
  const store = createMemoryStore();
  await store.putChannel({ id: 'general', ownerId: OWNER.userId, archived: false });
  await store.putChannel({ id: 'old', ownerId: OWNER.userId, archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'http://localhost' });
  const active = await manager.create(OWNER, { channelId: 'general', name: 'CI' });
  const archived = await manager.create(OWNER, { channelId: 'old', name: 'Legacy' });
  await store.putChannel({ id: 'old', ownerId: OWNER.userId, archived: true });
  const path = new URL(active.url).pathname;
  const failingStore: WebhookStore = {
    ...store,
    insertMessage: async () => {
      throw new Error('disk full');
    },
  };
  return {
    store,
    handle: createWebhookHandler({ store }),
    failingHandle: createWebhookHandler({ store: failingStore }),
    path,
    webhookId: active.webhook.id,
    archivedPath: new URL(archived.url).pathname,
    wrongSecretPath: path.replace(/[^/]{43}$/, 'A'.repeat(43)),
    messages: async () => store.listMessages('general'),
  };
}
