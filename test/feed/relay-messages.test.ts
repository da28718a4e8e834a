import { describe, expect, it } from 'vitest';
import { createMemoryStore, relayMessages, type FeedPage, type Message } from '../../src/index.js';
import { insertInput, makeMessage, makeWebhook } from '../../src/testing/fixtures.js';

const START = Date.parse('2026-01-01T00:00:00Z');

async function storeWith(count: number) {
  const store = createMemoryStore();
  const webhook = makeWebhook('general', START);
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  await store.insertWebhook(webhook);
  const ids: string[] = [];
  const post = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const message = makeMessage(webhook, START + ids.length + 1, { body: `m${ids.length}` });
      await store.insertMessage(insertInput(webhook, message, null));
      ids.push(message.id);
    }
  };
  await post(count);
  return { store, ids, post };
}

/** The app's own store: its rows and its checkpoint, written together as one transaction would. */
function appStore() {
  const rows: string[] = [];
  let saved: string | null = null;
  return {
    rows,
    checkpoint: () => saved,
    save: (message: Message, cursor: string) => {
      rows.push(message.id);
      saved = cursor;
    },
  };
}

describe('relayMessages', () => {
  it('delivers every stored message in order, then the new ones as they are stored', async () => {
    const { store, ids, post } = await storeWith(25);
    const app = appStore();
    const stop = new AbortController();
    const relay = relayMessages(store, {
      checkpoint: app.checkpoint,
      deliver: app.save,
      signal: stop.signal,
      pageSize: 7,
    });
    await expect.poll(() => app.rows.length).toBe(25);
    await post(5);
    await expect.poll(() => app.rows.length).toBe(30);
    stop.abort();
    await relay;
    expect(app.rows).toEqual(ids);
  });

  it('resumes after the checkpoint when started again', async () => {
    const { store, ids, post } = await storeWith(10);
    const app = appStore();
    const first = new AbortController();
    const running = relayMessages(store, { checkpoint: app.checkpoint, deliver: app.save, signal: first.signal });
    await expect.poll(() => app.rows.length).toBe(10);
    first.abort();
    await running;
    await post(10);
    const second = new AbortController();
    const again = relayMessages(store, {
      checkpoint: async () => app.checkpoint(),
      deliver: app.save,
      signal: second.signal,
    });
    await expect.poll(() => app.rows.length).toBe(20);
    second.abort();
    await again;
    expect(app.rows).toEqual(ids);
  });

  it('stops with the error of a failed deliver, and a restart delivers that message again, skipping none', async () => {
    const { store, ids } = await storeWith(12);
    const app = appStore();
    const broken = new Error('app database down');
    let failing = true;
    const deliver = (message: Message, cursor: string) => {
      if (failing && message.id === ids[5]) throw broken;
      app.save(message, cursor);
    };
    await expect(relayMessages(store, { checkpoint: app.checkpoint, deliver })).rejects.toBe(broken);
    expect(app.rows).toEqual(ids.slice(0, 5));
    failing = false;
    const stop = new AbortController();
    const again = relayMessages(store, { checkpoint: app.checkpoint, deliver, signal: stop.signal });
    await expect.poll(() => app.rows.length).toBe(12);
    stop.abort();
    await again;
    expect(app.rows).toEqual(ids);
  });

  it('holds the reading back while deliver is slow: never more than a page ahead of it', async () => {
    const { store, ids } = await storeWith(50);
    let read = 0;
    const counted = {
      ...store,
      readFeed: async (options: Parameters<typeof store.readFeed>[0]) => {
        const page: FeedPage = await store.readFeed(options);
        read += page.entries.length;
        return page;
      },
    };
    const delivered: string[] = [];
    let release: (() => void) | undefined;
    const stop = new AbortController();
    const relay = relayMessages(counted, {
      checkpoint: () => null,
      deliver: (message) =>
        new Promise<void>((resolve) => {
          release = () => {
            delivered.push(message.id);
            resolve();
          };
        }),
      signal: stop.signal,
      pageSize: 10,
    });
    for (let i = 0; i < 25; i++) {
      await expect.poll(() => release, { interval: 1 }).toBeDefined();
      // Time for the relay to read on, if it would, while this message waits.
      await new Promise((resolve) => setTimeout(resolve, 2));
      expect(read - delivered.length).toBeLessThanOrEqual(10);
      const next = release!;
      release = undefined;
      next();
    }
    stop.abort();
    await relay;
    expect(delivered).toEqual(ids.slice(0, 25));
  });

  it('refuses options without checkpoint or deliver', async () => {
    const store = createMemoryStore();
    await expect(relayMessages(store, { deliver: () => {} } as never)).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('checkpoint'),
    });
    await expect(relayMessages(store, { checkpoint: () => null } as never)).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('deliver'),
    });
  });
});
