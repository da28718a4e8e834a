import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/clock.js';
import { followFeed } from '../../src/feed/follow-feed.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { createWebhookManager } from '../../src/lifecycle/create-webhook-manager.js';
import { createMemoryStore, type MemoryStore } from '../../src/memory/memory-store.js';
import {
  FEED_METHODS,
  LIFECYCLE_STORE_METHODS,
  POST_HISTORY_METHODS,
  POST_STORE_METHODS,
  type FeedStore,
  type LifecycleStore,
  type PostHistoryStore,
  type PostStore,
  type StoreMethodName,
} from '../../src/ports.js';

const OWNER = { userId: 'u1', role: 'member' } as const;

/** A store with only the methods `names` of `store`, each counting its calls in `called`. */
function only<T>(store: MemoryStore, names: readonly StoreMethodName[], called: Set<string> = new Set()): T {
  const methods = store as unknown as Record<string, (...args: unknown[]) => unknown>;
  return Object.fromEntries(
    names.map((name) => [
      name,
      (...args: unknown[]) => {
        called.add(name);
        return methods[name]!(...args);
      },
    ]),
  ) as T;
}

async function world() {
  const clock = createFakeClock();
  const store = createMemoryStore();
  store.putChannel({ id: 'general', ownerId: OWNER.userId, archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com', clock });
  const { webhook, url } = await manager.create(OWNER, { channelId: 'general', name: 'CI' });
  const post = (handle: ReturnType<typeof createWebhookHandler>, text: string) =>
    handle({
      method: 'POST',
      url: new URL(url).pathname,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
  return { clock, store, webhook, post };
}

// Each caller of a store calls the methods of its own port, and nothing else: the lists its
// factory checks a store for are the lists its port's type is made of.
describe('each caller takes a store with only its own port', () => {
  it('the handler posts through the methods of PostStore, and records through those of PostHistoryStore', async () => {
    const { clock, store, webhook, post } = await world();
    const called = new Set<string>();
    const handle = createWebhookHandler({
      store: only<PostStore & PostHistoryStore>(store, [...POST_STORE_METHODS, ...POST_HISTORY_METHODS], called),
      clock,
    });
    expect((await post(handle, 'hi')).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect([...called].sort()).toEqual(['getWebhook', 'insertMessage', 'recordPosts']);
    expect(store.listMessages('general').map((message) => message.body)).toEqual(['hi']);
    expect(store.listPosts(webhook.id, 10).map((record) => record.status)).toEqual([201]);
  });

  it('the manager creates, lists, rotates, revokes and updates through the methods of LifecycleStore', async () => {
    const { clock, store } = await world();
    const called = new Set<string>();
    const manager = createWebhookManager({
      store: only<LifecycleStore>(store, LIFECYCLE_STORE_METHODS, called),
      baseUrl: 'https://chat.example.com',
      clock,
    });
    const { webhook } = await manager.create(OWNER, { channelId: 'general', name: 'Deploys' });
    await manager.update(OWNER, webhook.id, { description: 'From CI' });
    await manager.rotate(OWNER, webhook.id);
    await manager.revoke(OWNER, webhook.id);
    expect((await manager.list(OWNER, 'general')).map(({ name, revokedAt }) => [name, revokedAt !== null])).toEqual([
      ['CI', false],
      ['Deploys', true],
    ]);
    expect([...called].sort()).toEqual([...LIFECYCLE_STORE_METHODS].sort());
  });

  it('followFeed reads through the methods of FeedStore', async () => {
    const { clock, store, post } = await world();
    await post(createWebhookHandler({ store, clock }), 'first');
    const feed = followFeed(only<FeedStore>(store, FEED_METHODS));
    const { value } = await feed.next();
    await feed.return();
    expect(value?.message.body).toBe('first');
  });

  it.each([
    ['the handler', POST_STORE_METHODS, (store: never) => createWebhookHandler({ store })],
    [
      'the manager',
      LIFECYCLE_STORE_METHODS,
      (store: never) => createWebhookManager({ store, baseUrl: 'https://chat.example.com' }),
    ],
  ] as const)('%s refuses a store without any one method of its port, naming it', (_, names, build) => {
    const store = createMemoryStore();
    for (const missing of names) {
      const rest = names.filter((name) => name !== missing);
      expect(() => build(only(store, rest))).toThrow(`it has no ${missing}()`);
    }
  });
});
