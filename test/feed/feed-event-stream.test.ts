import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, feedEventStream, type ErrorContext } from '../../src/index.js';
import { insertInput, makeMessage, makeWebhook } from '../../src/testing/fixtures.js';

describe('feedEventStream', () => {
  it('leaves no keep-alive wait listening on the signal once an event came first', async () => {
    const store = createMemoryStore();
    const webhook = makeWebhook('general', Date.parse('2026-01-01T00:00:00Z'));
    await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    await store.insertWebhook(webhook);
    const gone = new AbortController();
    const stream = feedEventStream({ store, channelId: 'general', keepAliveMs: 60_000 }, undefined, gone.signal);
    expect((await stream.next()).value).toBe(': connected\n\n');
    for (let i = 0; i < 50; i++) {
      const next = stream.next();
      const message = makeMessage(webhook, Date.parse('2026-01-01T00:00:01Z') + i);
      await store.insertMessage(insertInput(webhook, message, null));
      expect((await next).value).toContain(`"id":"${message.id}"`);
    }
    // The stream's own listener, none left behind by the 50 waits for a keep-alive.
    expect(getEventListeners(gone.signal, 'abort')).toHaveLength(1);
    gone.abort();
    await stream.return();
  });

  // Rule: a store failure that ends the stream reaches onError with the shape every onError gets:
  // the stage `feed`, and the stream's channel when it has one.
  it.each([
    ['of one channel', { channelId: 'general' }, { stage: 'feed', channelId: 'general' }],
    ['of every channel', {}, { stage: 'feed' }],
  ])('tells onError of the store failure that ended a stream %s', async (_, only, context) => {
    const store = createMemoryStore();
    const failing = { ...store, readFeed: () => Promise.reject(new Error('database down')) };
    const heard: Array<[unknown, ErrorContext]> = [];
    const options = {
      store: failing,
      ...only,
      onError: (error: unknown, c: ErrorContext) => void heard.push([error, c]),
    };
    const chunks: string[] = [];
    for await (const chunk of feedEventStream(options, undefined, new AbortController().signal)) chunks.push(chunk);
    expect(chunks).toEqual([': connected\n\n']);
    expect(heard).toEqual([[expect.objectContaining({ message: 'database down' }), context]]);
  });
});
