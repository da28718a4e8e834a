import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasMiniflare, startTestWorker, workerdTitle, type TestWorker } from './support.js';

// The store's optional parts, in workerd: a channel's message feed (readFeed, watchFeed), and the
// history of a webhook's posts (recordPosts, listPosts).
let worker: TestWorker;
beforeAll(async () => {
  if (hasMiniflare) worker = await startTestWorker();
});
afterAll(() => worker?.dispose());

interface Page {
  entries: Array<{ cursor: string; message: { id: string; body: string } }>;
  heldBack: boolean;
}

const readFeed = async (options: Record<string, unknown>) => {
  const answer = await worker.manage({ op: 'readFeed', options });
  return answer.status === 200 ? (answer.json as Page) : (answer.json as { code: string });
};

describe.skipIf(!hasMiniflare)(workerdTitle('Durable Object store in workerd: the feed and the history'), () => {
  it("reads a channel's messages in the order stored, after a cursor, at most limit; cursors compare as strings", async () => {
    await worker.manage({ op: 'putChannel', channel: { id: 'feed', ownerId: 'u-owner', archived: false } });
    const { url } = (await worker.manage({ op: 'create', channelId: 'feed', name: 'Feed' })).json as { url: string };
    const path = new URL(url).pathname;
    for (let i = 1; i <= 12; i++) expect((await worker.post(path, { text: `message ${i}` })).status).toBe(201);
    const stored = (await worker.manage({ op: 'messages', channelId: 'feed' })).json as Array<{ id: string }>;
    const all = (await readFeed({ channelId: 'feed', limit: 100 })) as Page;
    expect(all.heldBack).toBe(false);
    expect(all.entries.map((entry) => entry.message)).toEqual(stored);
    const cursors = all.entries.map((entry) => entry.cursor);
    expect([...cursors].sort()).toEqual(cursors);
    expect(new Set(cursors).size).toBe(12);
    expect(await readFeed({ channelId: 'feed', after: cursors[8], limit: 2 })).toEqual({
      entries: all.entries.slice(9, 11),
      heldBack: false,
    });
    expect(await readFeed({ channelId: 'feed', after: cursors[11], limit: 10 })).toEqual({
      entries: [],
      heldBack: false,
    });
  });

  it('refuses a cursor it never gave out (invalid_cursor), and a feed of every channel (feed_unavailable)', async () => {
    for (const after of ['not a cursor!', '', 'ffffffffffffffff']) {
      expect(await readFeed({ channelId: 'feed', after, limit: 10 })).toMatchObject({ code: 'invalid_cursor' });
    }
    expect(await readFeed({ after: 'not a cursor!', limit: 10 })).toMatchObject({ code: 'invalid_cursor' });
    expect(await readFeed({ limit: 10 })).toMatchObject({
      code: 'feed_unavailable',
      message: expect.stringMatching(/needs a channelId/),
    });
  });

  it('calls a watchFeed listener at once and while watched, and never after it stopped', async () => {
    const counted = (await worker.manage({ op: 'watchFeed', ms: 700 })).json as {
      whileWatched: number;
      afterStop: number;
    };
    expect(counted.whileWatched).toBeGreaterThanOrEqual(2);
    expect(counted.afterStop).toBe(0);
  });

  it("keeps a webhook's records newest first, a minute's 429s as one record, at most 100", async () => {
    const webhookId = 'wh_historyAAAAAAAAAAAAAAA';
    const minute = Date.UTC(2026, 0, 1, 12);
    const record = (at: number, status: number, code: string | null) => ({
      webhookId,
      at,
      status,
      code,
      errors: [],
      idempotencyKey: null,
      messageId: status === 201 ? `m-${at}` : null,
      bodyBytes: 10,
      count: 1,
    });
    await worker.manage({
      op: 'recordPosts',
      records: [
        record(minute + 1, 201, null),
        record(minute + 2, 429, 'rate_limited'),
        record(minute + 3, 429, 'rate_limited'),
      ],
    });
    await worker.manage({ op: 'recordPosts', records: [record(minute + 4, 400, 'invalid_payload')] });
    expect((await worker.manage({ op: 'listPosts', webhookId, limit: 10 })).json).toEqual([
      record(minute + 4, 400, 'invalid_payload'),
      { ...record(minute + 2, 429, 'rate_limited'), count: 2 },
      record(minute + 1, 201, null),
    ]);
    await worker.manage({
      op: 'recordPosts',
      records: Array.from({ length: 100 }, (_, i) => record(minute + 60_000 + i, 201, null)),
    });
    const kept = (await worker.manage({ op: 'listPosts', webhookId, limit: 1_000 })).json as Array<{ at: number }>;
    expect(kept).toHaveLength(100);
    expect(kept[0]!.at).toBe(minute + 60_099);
    expect(kept[99]!.at).toBe(minute + 60_000);
  });
});
