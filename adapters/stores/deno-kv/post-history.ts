import type { DenoKv } from './deno-kv.js';
import { framesSize, readFrames, setFrames, toFrames } from './frames.js';
import type { KeyLayout } from './key-layout.js';
import { type KvRunner, LOST_RACE } from './kv-runner.js';
import { POST_HISTORY_LIMIT, type PostRecord } from '../../../src/store-kit/index.js';

/**
 * A webhook's history head: the sequence number of its next record, and its last 429 and 415
 * records (`last415` is absent from a head written before 415s were folded).
 */
interface Head {
  next: number;
  last429: Kept | null;
  last415?: Kept | null;
}

/** A kept record and its place in the webhook's sequence. */
interface Kept {
  seq: number;
  record: PostRecord;
}

// One commit holds at most this much of a webhook's records, well under the KV's 800 KiB a commit.
const COMMIT_BYTES = 400 * 1024;

/**
 * The post history of the Deno KV store. A webhook's records are a ring of `POST_HISTORY_LIMIT`
 * slots (record `seq` goes to slot `seq % 100`, over the oldest) and a head with the next `seq`:
 * keeping the newest 100 costs no deletes and no count, and a listing is one range read. A 429 (or
 * 415) record is added to the webhook's last 429 (or 415) record when that one is of the same minute
 * and still kept; the head carries that record, so adding to it needs no read. Each commit checks the head's
 * versionstamp: writers of one webhook's history never lose each other's records.
 */
export function createPostHistory(kv: DenoKv, keys: KeyLayout, run: KvRunner) {
  const recordBatch = (webhookId: string, records: readonly PostRecord[]) =>
    run('recordPosts', async () => {
      const headEntry = await kv.get(keys.postHead(webhookId));
      // Every read gives a fresh object: changing it changes nothing stored until the commit.
      const head = (headEntry.value as Head | null) ?? { next: 0, last429: null };
      const slots = new Map<number, Kept>();
      for (const record of records) {
        const field = record.status === 429 ? 'last429' : record.status === 415 ? 'last415' : null;
        const last = field === null ? null : (head[field] ?? null);
        if (
          last !== null &&
          minute(last.record.at) === minute(record.at) &&
          last.seq >= head.next - POST_HISTORY_LIMIT
        ) {
          last.record = { ...last.record, count: last.record.count + record.count };
          slots.set(last.seq % POST_HISTORY_LIMIT, { seq: last.seq, record: last.record });
          continue;
        }
        const kept = { seq: head.next++, record };
        slots.set(kept.seq % POST_HISTORY_LIMIT, kept);
        if (field !== null) head[field] = kept;
      }
      const operation = kv.atomic().check(headEntry).set(keys.postHead(webhookId), head);
      for (const [slot, kept] of slots) {
        const frames = toFrames(kept);
        setFrames(operation, frames, keys.post(webhookId, slot), (part) => keys.postPart(webhookId, slot, part));
        // A record takes two frames at most (its raw idempotency key is at most a body's size): the
        // second frame of the record this one replaces goes with it.
        if (frames.length === 1) operation.delete(keys.postPart(webhookId, slot, 1));
      }
      return (await operation.commit()).ok ? undefined : LOST_RACE;
    });

  return {
    /** Keeps each webhook's records, in order, in commits of at most `COMMIT_BYTES`. */
    async record(records: readonly PostRecord[]): Promise<void> {
      const byWebhook = new Map<string, PostRecord[]>();
      for (const record of records) {
        const list = byWebhook.get(record.webhookId);
        if (list === undefined) byWebhook.set(record.webhookId, [record]);
        else list.push(record);
      }
      await Promise.all(
        [...byWebhook].map(async ([webhookId, list]) => {
          for (const batch of inBatches(list)) await recordBatch(webhookId, batch);
        }),
      );
    },

    /** The webhook's kept records, newest first, at most `limit`. */
    list: (webhookId: string, limit: number): Promise<PostRecord[]> =>
      run('listPosts', async () => {
        const kept: Promise<Kept>[] = [];
        for await (const entry of kv.list({ prefix: keys.posts(webhookId) })) {
          const slot = entry.key.at(-1) as number;
          kept.push(readFrames<Kept>(kv, entry, (part) => keys.postPart(webhookId, slot, part)));
        }
        return (await Promise.all(kept))
          .sort((a, b) => b.seq - a.seq)
          .slice(0, Math.max(0, limit))
          .map((entry) => entry.record);
      }),
  };
}

const minute = (at: number): number => Math.floor(at / 60_000);

// Records in runs whose frames stay under COMMIT_BYTES (a record of a huge raw idempotency key takes
// two frames of its own), each run a commit.
function inBatches(records: PostRecord[]): PostRecord[][] {
  const batches: PostRecord[][] = [];
  let batch: PostRecord[] = [];
  let bytes = 0;
  for (const record of records) {
    const size = framesSize(toFrames(record));
    if (batch.length > 0 && bytes + size > COMMIT_BYTES) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(record);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
