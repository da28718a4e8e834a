import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelShard } from '../../../../adapters/stores/cloudflare/shard.js';
import { makeMessage, makeWebhook, randomId } from '../../../../src/testing/fixtures.js';
import type { Message, WebhookRecord } from '../../../../src/index.js';
import { hasMiniflare, startTestWorker, workerdTitle, type TestWorker } from './support.js';

// Retention on Durable Objects, in workerd: `pruneMessages` reaches the objects of the channels it
// is given, deletes each one's oldest messages in batches, raises the object's low-water mark, and
// the feed goes on after it; an object made at schema version 1 upgrades as it starts, then prunes.
let worker: TestWorker;
beforeAll(async () => {
  if (hasMiniflare) worker = await startTestWorker();
});
afterAll(() => worker?.dispose());

const t0 = Date.UTC(2026, 0, 1);

interface Entry {
  cursor: string;
  message: Message;
}

const readFeed = async (options: Record<string, unknown>) => {
  const answer = await worker.manage({ op: 'readFeed', options });
  return answer.status === 200 ? (answer.json as { entries: Entry[] }).entries : (answer.json as { code: string });
};

const prune = async (before: number, options: Record<string, unknown>) => {
  const answer = await worker.manage({ op: 'prune', before, options });
  return answer.json as { deleted: number; calls: number } & { code?: string; message?: string };
};

/** A channel with a webhook, in its own object. */
async function channelWithWebhook(): Promise<WebhookRecord> {
  const webhook = makeWebhook(`c_${randomId()}`, t0);
  await worker.manage({ op: 'putChannel', channel: { id: webhook.channelId, ownerId: 'u-owner', archived: false } });
  await worker.manage({ op: 'insertWebhook', webhook });
  return webhook;
}

/** Stores a message of `webhook` created at `at`, with the key `key`. */
async function insert(webhook: WebhookRecord, at: number, key: string | null) {
  const message = makeMessage(webhook, at, { body: `at ${at - t0}` });
  const input = { message, idempotencyKey: key, secretHash: webhook.secretHash, postedAt: at };
  return (await worker.manage({ op: 'insertMessage', input })).json as { outcome: string; message: Message };
}

describe.skipIf(!hasMiniflare)(workerdTitle('Durable Object store in workerd: pruning messages'), () => {
  it('deletes the oldest messages in batches of limit, with their keys, never the newest; the feed reads on after the mark', async () => {
    const webhook = await channelWithWebhook();
    const other = await channelWithWebhook();
    const stored: Message[] = [];
    for (let i = 1; i <= 6; i++) stored.push((await insert(webhook, t0 + i, `k${i}`)).message);
    for (let i = 1; i <= 3; i++) await insert(other, t0 + i, null);
    const cursors = ((await readFeed({ channelId: webhook.channelId, limit: 10 })) as Entry[]).map((e) => e.cursor);

    const channelIds = [webhook.channelId];
    expect(await prune(t0 + 100, { channelIds, limit: 2 })).toEqual({ deleted: 2, calls: 1 });
    expect(await prune(t0 + 100, { channelIds, limit: 2 })).toEqual({ deleted: 2, calls: 1 });
    // The sixth is the object's newest: SQLite would give its number to the next message.
    expect(await prune(t0 + 100, { channelIds, limit: 2 })).toEqual({ deleted: 1, calls: 1 });
    expect(await prune(t0 + 100, { channelIds, limit: 2 })).toEqual({ deleted: 0, calls: 1 });
    expect((await worker.manage({ op: 'messages', channelId: webhook.channelId })).json).toEqual(stored.slice(5));
    // Another channel's object is not reached.
    expect((await worker.manage({ op: 'messages', channelId: other.channelId })).json).toHaveLength(3);

    for (const cursor of cursors.slice(0, 4))
      expect(await readFeed({ channelId: webhook.channelId, after: cursor, limit: 10 })).toMatchObject({
        code: 'cursor_expired',
      });
    expect(await readFeed({ channelId: webhook.channelId, after: cursors[4], limit: 10 })).toEqual([
      { cursor: cursors[5], message: stored[5] },
    ]);

    // A deleted message's key stores a new message; a kept one's is still a duplicate.
    const again = await insert(webhook, t0 + 7, 'k1');
    expect(again.outcome).toBe('created');
    expect(await insert(webhook, t0 + 8, 'k6')).toMatchObject({ outcome: 'duplicate', message: stored[5] });
    const next = (await readFeed({ channelId: webhook.channelId, after: cursors[5], limit: 10 })) as Entry[];
    expect(next.map((entry) => entry.message)).toEqual([again.message]);
    expect(next[0]!.cursor > cursors[5]!).toBe(true);
  });

  it('stops at the first message created at or after before, and deletes nothing after it', async () => {
    const webhook = await channelWithWebhook();
    const stored: Message[] = [];
    for (const at of [1, 50, 2, 3, 60]) stored.push((await insert(webhook, t0 + at, null)).message);
    expect(await prune(t0 + 10, { channelIds: [webhook.channelId] })).toEqual({ deleted: 1, calls: 1 });
    expect((await worker.manage({ op: 'messages', channelId: webhook.channelId })).json).toEqual(stored.slice(1));
    expect(await prune(t0 + 55, { channelIds: [webhook.channelId] })).toEqual({ deleted: 3, calls: 1 });
    expect((await worker.manage({ op: 'messages', channelId: webhook.channelId })).json).toEqual(stored.slice(4));
  });

  it('calls each object once, however many of its channels are given, and sums what they deleted', async () => {
    const a = await channelWithWebhook();
    const b = await channelWithWebhook();
    for (let i = 1; i <= 3; i++) {
      await insert(a, t0 + i, null);
      await insert(b, t0 + i, null);
    }
    expect(await prune(t0 + 100, { channelIds: [a.channelId, a.channelId] })).toEqual({ deleted: 2, calls: 1 });
    expect(await prune(t0 + 100, { channelIds: [a.channelId, b.channelId] })).toEqual({ deleted: 2, calls: 2 });
    expect(await prune(t0 + 100, { channelIds: [] })).toEqual({ deleted: 0, calls: 0 });
  });

  it('prunes nothing in an object that holds nothing, and gives it no tables', async () => {
    const channelId = `c_${randomId()}`;
    expect(await prune(t0 + 100, { channelIds: [channelId] })).toEqual({ deleted: 0, calls: 1 });
    const storage = (await worker.manage({ op: 'storage', shard: channelShard(channelId) })).json as {
      tables: string[];
    };
    expect(storage.tables).toEqual([]);
  });

  it('refuses a bad before, limit or channelIds with invalid_argument', async () => {
    const channelIds = ['general'];
    for (const [before, options] of [
      [Number.NaN, { channelIds }],
      [t0, {}],
      [t0, { channelIds: 'general' }],
      [t0, { channelIds, limit: 0 }],
      [t0, { channelIds, batch: 10 }],
    ] as const) {
      expect(await prune(before, options)).toMatchObject({
        code: 'invalid_argument',
        message: expect.stringMatching(/^DurableObjectStore\.pruneMessages/),
      });
    }
  });

  it('upgrades an object made at schema version 1 as it starts, keeps its feed, then prunes it', async () => {
    const webhook = makeWebhook(`c_${randomId()}`, t0);
    const old = [1, 2, 3, 4].map((i) => ({ ...makeMessage(webhook, t0 + i), idempotencyKey: `k${i}` }));
    const shard = channelShard(webhook.channelId);
    const channel = { id: webhook.channelId, ownerId: 'u-owner', archived: false };
    await worker.manage({ op: 'schema-v1', channel, messages: old });
    expect((await worker.manage({ op: 'storage', shard })).json).toMatchObject({ versions: [1] });

    const messages = old.map(({ idempotencyKey: _, ...message }) => message);
    const before = (await readFeed({ channelId: webhook.channelId, limit: 10 })) as Entry[];
    expect(before.map((entry) => entry.message)).toEqual(messages);
    const storage = (await worker.manage({ op: 'storage', shard })).json as { tables: string[]; versions: number[] };
    expect(storage.versions).toEqual([1, 2]);
    expect(storage.tables).toContain('feed');

    expect(await prune(t0 + 3, { channelIds: [webhook.channelId] })).toEqual({ deleted: 2, calls: 1 });
    expect(await readFeed({ channelId: webhook.channelId, after: before[0]!.cursor, limit: 10 })).toMatchObject({
      code: 'cursor_expired',
    });
    expect(await readFeed({ channelId: webhook.channelId, after: before[1]!.cursor, limit: 10 })).toEqual(
      before.slice(2),
    );
    await worker.manage({ op: 'insertWebhook', webhook });
    const later = await insert(webhook, t0 + 5, 'k1');
    expect(later.outcome).toBe('created');
    expect(await insert(webhook, t0 + 6, 'k3')).toMatchObject({ outcome: 'duplicate', message: messages[2] });
    const after = (await readFeed({ channelId: webhook.channelId, after: before[3]!.cursor, limit: 10 })) as Entry[];
    expect(after.map((entry) => entry.message)).toEqual([later.message]);
    expect(after[0]!.cursor > before[3]!.cursor).toBe(true);
  });
});
