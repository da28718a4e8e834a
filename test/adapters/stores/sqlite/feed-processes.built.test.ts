import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../../adapters/stores/sqlite/index.js';
import { followFeed, type FeedEntry } from '../../../../src/index.js';
import { createWebhookHandler, freshFile, post, seed, spawnChild, type Child } from './support.js';

// The feed of a SQLite file, followed in this process on a connection of its own while another
// process (child.mjs on the built package) stores the messages: the follower hears of them through
// PRAGMA data_version.
const stored = (child: Child) => child.lines.filter((line) => line.status === 201).map((line) => line.id);
const take = async (entries: AsyncIterator<FeedEntry>, count: number): Promise<string[]> => {
  const ids: string[] = [];
  while (ids.length < count) {
    const next = await Promise.race([
      entries.next(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${ids.length} of ${count} entries within 20 s`)), 20_000),
      ),
    ]);
    if (next.done === true) throw new Error('the follower ended');
    ids.push(next.value.message.id);
  }
  return ids;
};

describe('SQLite feed, two processes on one file', () => {
  it('a follower in one process receives every message another process stores, once and in order', async () => {
    const file = freshFile();
    const { path, store, database } = await seed(file);
    const stop = new AbortController();
    const follower = followFeed(store, { channelId: 'general', signal: stop.signal });
    // Following before the other process stores anything: each message comes live.
    const delivered = take(follower, 100);
    const child = spawnChild('stay', { SQLITE_FILE: file, HOOK_PATH: path, COUNT: '100' });
    try {
      await child.waitFor((lines) => lines.filter((line) => line.status !== undefined).length === 100);
      expect(stored(child)).toHaveLength(100);
      expect(await delivered).toEqual(stored(child));
      // Nothing came twice: the next entry is the next message.
      const next = await post(createWebhookHandler({ store }), path, 'from this process');
      expect(await take(follower, 1)).toEqual([(next.body as { message: { id: string } }).message.id]);
    } finally {
      child.kill('SIGKILL');
      await child.exited;
      stop.abort();
      await follower.return();
      database.close();
    }
  }, 60_000);

  for (const ending of ['goes on', 'is killed (SIGKILL) right after its 201s'] as const) {
    it(`a follower away while another process stores 100 messages resumes after its cursor with exactly those 100, in order, when that process ${ending}`, async () => {
      const file = freshFile();
      const { path, store, database } = await seed(file);
      await post(createWebhookHandler({ store }), path, 'before');
      const first = followFeed(store, { channelId: 'general' });
      const seen = await first.next();
      const cursor = (seen.value as FeedEntry).cursor;
      await first.return();
      database.close();

      const child = spawnChild('stay', { SQLITE_FILE: file, HOOK_PATH: path, COUNT: '100' });
      try {
        await child.waitFor((lines) => lines.filter((line) => line.status !== undefined).length === 100);
        if (ending !== 'goes on') {
          child.kill('SIGKILL');
          await child.exited;
        }
        // A new connection, as a restarted follower would open.
        const reopened = new Database(file);
        const stop = new AbortController();
        const again = followFeed(createSqliteStore({ database: reopened }), {
          channelId: 'general',
          after: cursor,
          signal: stop.signal,
        });
        try {
          expect(await take(again, 100)).toEqual(stored(child));
        } finally {
          stop.abort();
          await again.return();
          reopened.close();
        }
      } finally {
        child.kill('SIGKILL');
        await child.exited;
      }
    }, 60_000);
  }
});
