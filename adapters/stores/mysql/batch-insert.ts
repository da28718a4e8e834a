import type { InsertMessageInput, InsertMessageResult, Message } from '../../../src/store-kit/index.js';
import type { ResolvedChannelSource } from '../sql/index.js';
import { type Answer, type createCalls, failsAlone, type MysqlRow } from './mysql-calls.js';
import { keyText, type messageWrites } from './message-writes.js';
import { MESSAGE_COLUMNS, toMessage } from './rows.js';

/** A post of a batch with the time its caller stops waiting. */
export interface BatchPost {
  post: InsertMessageInput;
  deadline: number;
}

/** The guarded insert of one post (`createGuardedInsert`), which waits for the rows it locks. */
type SingleInsert = (post: InsertMessageInput, deadline: number) => Promise<InsertMessageResult>;

// A post whose webhook or channel row the batch did not lock: another transaction holds it (or,
// for a channel, it is gone), and the post is sent again alone, which waits for it.
const ALONE = Symbol('alone');

/**
 * The guarded insert of several posts in one transaction, each with its own outcome, as the single
 * insert would give it (see `createMysqlStore`). It locks the batch's webhook rows, then their
 * channels' rows, each in id order and `SKIP LOCKED`, so it never waits on a row lock: a post whose
 * row another transaction holds (a revocation's, the host app's) is sent again alone after the
 * batch and waits for it there, holding up no other post. Each post is judged against the newest
 * committed versions with its own secret hash; the keys of the batch are read in one statement;
 * the first of its posts with one webhook and key is stored and the later ones answered with its
 * message; each webhook's `last_post_at` is written once, the app's rows in one statement, and the
 * messages take one block of places in the feed right before their insert and the commit.
 *
 * A deadlock, a lock wait timeout or a value the server refuses rolls the batch back, and its
 * posts go again alone, one after the other in the batch's order (so the first of two with one key
 * is still the one stored), each failing alone. Any other failure fails the batch's posts.
 */
export function createBatchInsert(
  calls: ReturnType<typeof createCalls>,
  p: string,
  c: ResolvedChannelSource,
  writes: ReturnType<typeof messageWrites>,
  single: SingleInsert,
  stored: (channelId: string) => void,
) {
  const list = (count: number, item = '?') => Array.from({ length: count }, () => item).join(', ');
  const sql = {
    lockWebhooks: (count: number) =>
      `SELECT id, channel_id, secret_hash, revoked_at FROM ${p}webhooks WHERE id IN (${list(count)}) ORDER BY id FOR UPDATE SKIP LOCKED`,
    // Shared, as the single insert locks a channel: posts to one channel never skip each other.
    lockChannels: (count: number, lock: string) =>
      `SELECT ${c.id} AS id, COALESCE(${c.archived}, 0) AS archived FROM ${c.table} WHERE ${c.id} IN (${list(count)}) ORDER BY ${c.id} ${lock}`,
    keyed: (count: number) =>
      `SELECT webhook_id, idempotency_key, ${MESSAGE_COLUMNS} FROM ${p}messages WHERE (webhook_id, key_hash) IN (${list(count, '(?, UNHEX(SHA2(?, 256)))')})`,
    touch: (count: number) =>
      `UPDATE ${p}webhooks SET last_post_at = CASE id ${'WHEN ? THEN ? '.repeat(count)}END WHERE id IN (${list(count)})`,
  };

  // MySQL 8 spells a shared lock that skips `FOR SHARE`, and refuses SKIP LOCKED after
  // `LOCK IN SHARE MODE`, the only spelling MariaDB knows: the server says which it is, once (on
  // the batch's own connection, so that a batch never waits for a second one).
  let shareSkipLocked: string | null = null;

  /** The batch's transaction. */
  const write = async (
    tx: (sql: string, values?: unknown[]) => Promise<Answer>,
    posts: InsertMessageInput[],
  ): Promise<{ value: Written; commit: boolean }> => {
    shareSkipLocked ??= /mariadb/i.test(String((await tx('SELECT VERSION() AS version')).rows[0]?.version))
      ? 'LOCK IN SHARE MODE SKIP LOCKED'
      : 'FOR SHARE SKIP LOCKED';
    const webhookIds = [...new Set(posts.map(({ message }) => message.author.id))];
    const webhooks = rowsById((await tx(sql.lockWebhooks(webhookIds.length), webhookIds)).rows);
    const answers = ({ message, secretHash }: InsertMessageInput) => {
      const webhook = webhooks.get(message.author.id);
      return webhook !== undefined && webhook.revoked_at === null && String(webhook.secret_hash) === secretHash;
    };
    const channelIds = [
      ...new Set(posts.filter(answers).map(({ message }) => String(webhooks.get(message.author.id)!.channel_id))),
    ];
    // A channel is matched by the id the server gives back, exactly: an app's column whose
    // collation matched another spelling of it sends that post alone, where its own collation decides.
    const channels =
      channelIds.length === 0
        ? new Map<string, MysqlRow>()
        : rowsById((await tx(sql.lockChannels(channelIds.length, shareSkipLocked), channelIds)).rows);

    const outcomes: Array<InsertMessageResult | typeof ALONE | null> = posts.map((post) => {
      const webhook = webhooks.get(post.message.author.id);
      if (webhook === undefined) return ALONE;
      if (!answers(post)) return { outcome: 'webhook_inactive' };
      const channel = channels.get(String(webhook.channel_id));
      if (channel === undefined) return ALONE;
      if (Number(channel.archived) !== 0) return { outcome: 'channel_archived' };
      return null;
    });

    // Every webhook of a post still to decide is locked by this transaction, so an earlier post
    // with its key has committed before this read, which sees every committed row (READ COMMITTED).
    const keyed = new Map<string, Map<string, Message>>();
    const pairs = uniquePairs(posts.filter((post, i) => outcomes[i] === null && post.idempotencyKey !== null));
    if (pairs.length > 0)
      for (const row of (await tx(sql.keyed(pairs.length), pairs.flat())).rows)
        remember(keyed, String(row.webhook_id), String(row.idempotency_key), toMessage(row));
    const chosen: InsertMessageInput[] = [];
    for (const [i, post] of posts.entries()) {
      if (outcomes[i] !== null) continue;
      const webhookId = post.message.author.id;
      const key = keyText(post.idempotencyKey);
      const earlier = key === null ? undefined : keyed.get(webhookId)?.get(key);
      if (earlier !== undefined) {
        outcomes[i] = { outcome: 'duplicate', message: earlier };
        continue;
      }
      if (key !== null) remember(keyed, webhookId, key, post.message);
      chosen.push(post);
      outcomes[i] = { outcome: 'created', message: post.message };
    }
    const value = { outcomes: outcomes as Array<InsertMessageResult | typeof ALONE>, created: chosen };
    if (chosen.length === 0) return { value, commit: false };

    const lastPost = new Map<string, number>();
    for (const { message, postedAt } of chosen)
      lastPost.set(message.author.id, Math.max(postedAt, lastPost.get(message.author.id) ?? postedAt));
    await tx(sql.touch(lastPost.size), [...[...lastPost].flat(), ...lastPost.keys()]);
    if (writes.insertAppRows !== null)
      await tx(
        writes.insertAppRows(chosen.length),
        chosen.flatMap(({ message }) => writes.appRowValues(message)),
      );
    await tx(writes.takePlaces, [chosen.length]);
    await tx(
      writes.insertMessages(chosen.length),
      chosen.flatMap((post, i) => writes.messageValues(post, chosen.length - 1 - i)),
    );
    return { value, commit: true };
  };

  return async (
    batch: BatchPost[],
    deadline: number,
  ): Promise<Array<InsertMessageResult | Promise<InsertMessageResult>>> => {
    const posts = batch.map(({ post }) => post);
    let written: Written;
    try {
      // READ COMMITTED (see `createCalls`): the read of the keys takes no snapshot that the feed's
      // counter, changed by every other insert, would then be newer than.
      written = await calls.transaction('insertMessage', (tx) => write(tx, posts), {
        ms: Math.max(1, deadline - Date.now()),
        readCommitted: true,
      });
    } catch (error) {
      if (!failsAlone(error)) throw error;
      let previous: Promise<unknown> = Promise.resolve();
      return batch.map(({ post, deadline: own }) => {
        const outcome = previous.then(() => single(post, own));
        previous = outcome.catch(() => undefined);
        return outcome;
      });
    }
    // After the commit, once per channel: a follower woken now reads the batch's messages.
    for (const channelId of new Set(written.created.map(({ message }) => message.channelId))) stored(channelId);
    // Posts of one webhook that go alone go one after the other, in the batch's order.
    const turns = new Map<string, Promise<unknown>>();
    return written.outcomes.map((outcome, i) => {
      if (outcome !== ALONE) return outcome;
      const { post, deadline } = batch[i]!;
      const webhookId = post.message.author.id;
      const result = (turns.get(webhookId) ?? Promise.resolve()).then(() => single(post, deadline));
      turns.set(
        webhookId,
        result.catch(() => undefined),
      );
      return result;
    });
  };
}

/** What a batch's transaction did: each post's outcome (or ALONE), in order, and the posts it stored. */
interface Written {
  outcomes: Array<InsertMessageResult | typeof ALONE>;
  created: InsertMessageInput[];
}

/** Rows by their `id` column, as text. */
function rowsById(rows: MysqlRow[]): Map<string, MysqlRow> {
  return new Map(rows.map((row) => [String(row.id), row]));
}

/** The distinct (webhook id, key text) pairs of keyed posts. */
function uniquePairs(posts: InsertMessageInput[]): Array<[string, string]> {
  const pairs = new Map<string, [string, string]>();
  for (const { message, idempotencyKey } of posts) {
    const key = keyText(idempotencyKey)!;
    pairs.set(JSON.stringify([message.author.id, key]), [message.author.id, key]);
  }
  return [...pairs.values()];
}

function remember(keyed: Map<string, Map<string, Message>>, webhookId: string, key: string, message: Message): void {
  const ofWebhook = keyed.get(webhookId) ?? new Map<string, Message>();
  ofWebhook.set(key, message);
  keyed.set(webhookId, ofWebhook);
}
