import {
  createFailureReport,
  createLookupGate,
  createProvenCredentials,
  messageFieldValue,
  WEBHOOK_COLUMNS,
  webhookRowValues,
  type ResolvedMessageMapping,
} from '../sql/index.js';
import { MESSAGE_FIELDS, WEBHOOK_FIELDS, asFields, channelFields, readRows } from './rows.js';
import {
  type PostgresListenClient,
  type PostgresQueryable,
  resolveOptions,
  type PostgresStoreOptions,
  type ResolvedOptions,
} from './options.js';
import { migrateSql, refuseNewerSchema } from './migrations.js';
import { storeTimedOut, withDeadline } from './with-deadline.js';
import {
  ChannelWebhookError,
  createNotifiedFeed,
  isChannelWebhookError,
  mergeFolded,
  type Async,
  type Channel,
  type FeedPage,
  type InsertMessageInput,
  type InsertMessageResult,
  type Message,
  type ReadFeedOptions,
  type StoreMethods,
  type WebhookRecord,
  type WebhookStore,
} from '../../../src/store-kit/index.js';
import { announceBatchSql, announceSql, createFeedReader, feedChannel, feedStatements } from './postgres-feed.js';
import { createFeedListener } from './feed-listener.js';
import { createGroupCommit } from '../sql/index.js';
import {
  appendPostsSql,
  appendValues,
  FOLD_AT,
  foldPostsSql,
  listPostsSql,
  readPosts,
  type StoredRecord,
} from './post-history.js';

/**
 * The PostgreSQL store, with the extra methods of the reference stores and its migration.
 *
 * @example
 * ```ts
 * const store: PostgresStore = createPostgresStore({ pool });
 * await store.migrate();
 * const messages = await store.listMessages('general');
 * ```
 */
export interface PostgresStore extends Async<Omit<StoreMethods, 'readFeed'>> {
  /**
   * Creates the tables, or brings them up to `POSTGRES_SCHEMA_VERSION` step by step from any earlier
   * version, in one transaction; tables of a newer release reject it with `schema_too_new`, having
   * changed nothing. Safe on every start and from any number of instances at once (they take turns
   * on an advisory lock of the table prefix). See docs/stores.md, "Upgrading".
   */
  migrate(): Promise<void>;
  /** Creates or replaces a channel in the store's channels table. */
  putChannel(channel: Channel): Promise<void>;
  /** The channel's messages, oldest first. */
  listMessages(channelId: string): Promise<Message[]>;
  /**
   * The feed, present when the store has a listening connection (`listen`, or a node-postgres
   * `Pool` as `pool`) or a `notifier`. Reads return
   * only messages of transactions that ended before the oldest one still open on the server, and
   * say `heldBack` when newer ones wait behind it (see `postgresSchema`): a transaction that writes
   * anywhere on the server and stays open holds new messages back for as long as it does.
   */
  readFeed?(options: ReadFeedOptions): Promise<FeedPage>;
  /**
   * Present with `readFeed`: `LISTEN`s on one connection (from `listen` or the pool) while anything
   * watches (the guarded insert sends a `NOTIFY` in its own transaction), and calls every listener
   * again after each reconnection. With a `notifier` (and no `listen`), it hears the notifier
   * instead, and this store's own commits at once.
   */
  watchFeed?(listener: (channelId?: string) => void): () => void;
}

const MIGRATE_TIMEOUT_MS = 60_000;
// Credentials remembered as proven (see `createProvenCredentials`): about 1.5 MB at most.
const PROVEN_CREDENTIALS = 10_000;
// The most posts (or lookups) one statement carries. A batch holds the row locks of its webhooks
// until it commits, so its size bounds how long one post can wait behind others' rows; 64 is
// twice the posts the benchmark keeps in flight, so batches there are never cut, while a
// statement of 64 rows stays a few milliseconds of server time.
const MAX_BATCH = 64;
// One batch of each kind out at a time gathers the most posts per statement (at 32 in flight, ten
// or more); a batch out longer than 25 ms is waiting on a row lock (a revocation's, or a host
// app's transaction), and then others may go beside it, four at most, so the posts of other
// webhooks are not held up behind it and a batch takes at most four of the pool's connections.
const GROUP_COMMIT = { maxSize: MAX_BATCH, inFlight: 1, stalledAfterMs: 25, most: 4 };

/**
 * A {@link WebhookStore} on PostgreSQL, shared by any number of instances. Every method is one
 * statement (one round trip), so an accepted post costs two (look up the webhook, insert the
 * message). The insert is guarded and idempotent in that one statement: it locks the webhook row and
 * then the channel row, stores only if, on their newest committed versions, the webhook still
 * answers to the post's secret and its channel is active, and uses
 * `INSERT … ON CONFLICT (webhook_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO UPDATE … RETURNING`: N racing posts with
 * one key, on any number of instances, store one message and all get it back. A failed or
 * timed-out call rejects with a `ChannelWebhookError` (`store_failed` or `store_timeout`) and, being
 * one statement, has written nothing or everything. Webhook lookups pass a bounded gate
 * (`maxConcurrentLookups`, `maxQueuedLookups`), so a flood of posts to unknown ids cannot take
 * every connection; a post whose credential this store saw accepted (or issued) waits in a lane of
 * its own that such a flood cannot fill, so real senders keep posting through it. Bad options
 * throw `ChannelWebhookError` code `invalid_argument`. The post history (`recordPosts`, `listPosts`)
 * is written in post order and read per webhook: a batch is one row of a log, folded into one row
 * per webhook that keeps its last 100 records before every `listPosts` and once this instance has
 * appended 8,192 records (see `postgresSchema`). Folds of any number of instances take turns on an
 * advisory lock of the table prefix; appends wait for none. A batch the server refuses for a
 * value one record holds is appended again record by record, so that record fails alone.
 *
 * Each call has one deadline, `timeoutMs` from the call: it bounds the wait for a lookup slot and for
 * a pool connection, and what is left of it goes to node-postgres as the query's `query_timeout`,
 * which drops the connection of a query that hangs. Give the pool `statement_timeout` (so the server
 * stops work nobody waits for) and `connectionTimeoutMillis` (so a request that gave up waiting for a
 * connection leaves the pool's queue), both about `timeoutMs`. Behind PgBouncer, which refuses the
 * startup parameter `statement_timeout`, set it on the server for the app's role instead
 * (`ALTER ROLE app SET statement_timeout = '5s'`; docs/stores.md, "Behind PgBouncer").
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { createPostgresStore } from 'channel-webhooks/postgres';
 *
 * const pool = new pg.Pool({
 *   connectionString: process.env.DATABASE_URL,
 *   statement_timeout: 5_000,
 *   connectionTimeoutMillis: 5_000,
 * });
 * pool.on('error', (error) => console.error('idle PostgreSQL connection failed', error));
 * const store = createPostgresStore({ pool, tablePrefix: 'channel_webhooks_' });
 * await store.migrate();
 * await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
 * ```
 */
export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  const {
    prefix: p,
    timeoutMs,
    channels: c,
    messages: mapped,
    maxConcurrentLookups,
    maxQueuedLookups,
    preparedStatements,
    feedPollMs,
  } = resolveOptions(options);
  const { pool } = options;
  const gate = createLookupGate(maxConcurrentLookups, maxQueuedLookups, 'PostgreSQL store');
  const proven = createProvenCredentials(PROVEN_CREDENTIALS);
  // Turned off for good when the server loses track of a prepared statement: a pooler between the
  // pool and PostgreSQL that does not keep them (PgBouncer in transaction mode before 1.21).
  let prepare = preparedStatements;
  // Records this instance appended to the post log since it last folded it.
  let unfolded = 0;
  const notified =
    options.notifier === undefined
      ? null
      : createNotifiedFeed({
          notifier: options.notifier,
          pollMs: feedPollMs,
          report: createFailureReport(options.onError, 'createPostgresStore'),
        });

  const foldSql = foldPostsSql(p, lockKey(p));
  const sql = {
    migrate: statement('migrate', migrateSql(p, lockKey(p)), false),
    putChannel: statement(
      'putChannel',
      `INSERT INTO ${c.table} (${c.id}, ${c.ownerId}, ${c.archived}) VALUES ($1, $2, $3)
       ON CONFLICT (${c.id}) DO UPDATE SET ${c.ownerId} = EXCLUDED.${c.ownerId}, ${c.archived} = EXCLUDED.${c.archived}`,
    ),
    listMessages: statement(
      'listMessages',
      `SELECT ${asFields(MESSAGE_FIELDS)} FROM ${p}messages WHERE channel_id = $1 ORDER BY tx, seq`,
    ),
    getChannel: statement('getChannel', `SELECT ${asFields(channelFields(c))} FROM ${c.table} WHERE ${c.id} = $1`),
    insertWebhook: statement(
      'insertWebhook',
      `INSERT INTO ${p}webhooks (${WEBHOOK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    ),
    getWebhook: statement('getWebhook', `SELECT ${asFields(WEBHOOK_FIELDS)} FROM ${p}webhooks WHERE id = $1`),
    listWebhooks: statement(
      'listWebhooks',
      `SELECT ${asFields(WEBHOOK_FIELDS)} FROM ${p}webhooks WHERE channel_id = $1 ORDER BY created_at, seq`,
    ),
    updateWebhookSecret: statement(
      'updateWebhookSecret',
      `UPDATE ${p}webhooks SET secret_hash = $2, rotated_at = $3 WHERE id = $1 AND revoked_at IS NULL RETURNING ${asFields(WEBHOOK_FIELDS)}`,
    ),
    revokeWebhook: statement(
      'revokeWebhook',
      `UPDATE ${p}webhooks SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${asFields(WEBHOOK_FIELDS)}`,
    ),
    // A field left out of the change keeps its value; one given as null is cleared.
    updateWebhookProfile: statement(
      'updateWebhookProfile',
      `UPDATE ${p}webhooks SET description = CASE WHEN $2 THEN $3 ELSE description END,
         avatar_url = CASE WHEN $4 THEN $5 ELSE avatar_url END
       WHERE id = $1 AND revoked_at IS NULL RETURNING ${asFields(WEBHOOK_FIELDS)}`,
    ),
    insertMessage: statement('insertMessage', guardedInsertSql(p, c, mapped)),
    insertMessages: statement('insertMessage', guardedInsertsSql(p, c, mapped)),
    getWebhooks: statement(
      'getWebhook',
      `SELECT ${asFields(WEBHOOK_FIELDS)} FROM ${p}webhooks WHERE id = ANY($1::text[])`,
    ),
    recordPosts: statement('recordPosts', appendPostsSql(p)),
    // The fold is one simple-protocol query of several statements, never prepared; it is named for
    // the method whose call it is part of.
    foldForRecord: statement('recordPosts', foldSql, false),
    foldForList: statement('listPosts', foldSql, false),
    listPosts: statement('listPosts', listPostsSql(p)),
    readFeed: statement('readFeed', feedStatements(p).all),
    readChannelFeed: statement('readChannelFeed', feedStatements(p).channel),
  };

  /**
   * Sends a statement once its caller's `deadline` allows, as a named prepared statement unless
   * that is off; what is left of the deadline becomes the query's `query_timeout`.
   */
  const send = (query: Statement, values: unknown[], deadline: number, ms: number): Promise<{ rows: unknown[] }> => {
    const left = deadline - Date.now();
    // A call whose time ran out while it waited (for a lookup slot) gives way without querying.
    if (left <= 0) return Promise.reject(storeTimedOut(query.what, ms));
    const unnamed = { text: query.text, values, query_timeout: left };
    if (!prepare || query.name === undefined) return pool.query(unnamed);
    // The server refuses a lost or clashing prepared statement at its Parse or Bind step, before
    // running anything, so it is sent again unnamed.
    return pool.query({ name: query.name, ...unnamed }).catch((error: unknown) => {
      if (!lostPreparedStatement(error)) throw error;
      prepare = false;
      return pool.query(unnamed);
    });
  };

  /** The one way a statement of a single call runs: under the call's deadline, through `send`. What it reads back goes through `readRows`. */
  const run = (query: Statement, values: unknown[], ms = timeoutMs): Promise<{ rows: unknown[] }> =>
    withDeadline(send(query, values, Date.now() + ms, ms), ms, query.what);

  // Lookups and guarded inserts that arrive while others are out go together (see
  // `createGroupCommit`): a batch of one is today's statement of one row, a larger one its
  // statement over arrays. The batch's outcome of each call is that call's own.
  const lookups = createGroupCommit<string, WebhookRecord | null>(
    GROUP_COMMIT,
    async (ids, deadline) => {
      if (ids.length === 1)
        return [readRows<WebhookRecord>(await send(sql.getWebhook, ids, deadline, timeoutMs))[0] ?? null];
      const found = new Map(
        readRows<WebhookRecord>(await send(sql.getWebhooks, [ids], deadline, timeoutMs)).map((webhook) => [
          webhook.id,
          webhook,
        ]),
      );
      return ids.map((id) => found.get(id) ?? null);
    },
    () => storeTimedOut('getWebhook', timeoutMs),
  );
  const inserts = createGroupCommit<InsertMessageInput, InsertMessageResult>(
    GROUP_COMMIT,
    async (posts, deadline) => {
      const single = async (post: InsertMessageInput) =>
        readRows<GuardedRow>(await send(sql.insertMessage, insertValues(post, mapped), deadline, timeoutMs))[0]!;
      if (posts.length === 1) return [judge(posts[0]!, await single(posts[0]!), new Map())];
      let rows: GuardedRow[];
      try {
        rows = readRows<GuardedRow>(await send(sql.insertMessages, batchValues(posts, mapped), deadline, timeoutMs));
      } catch (error) {
        // A value one post holds that the server refuses (a constraint of the app's messages table)
        // fails the whole statement, which wrote nothing: each post goes again alone, one after the
        // other in the batch's order (so the first of two with one key is still the one stored), and
        // fails alone.
        if (!refusedForItsData(error)) throw error;
        let previous: Promise<unknown> = Promise.resolve();
        return posts.map((post) => {
          const outcome = previous.then(() => single(post)).then((row) => judge(post, row, new Map()));
          previous = outcome.catch(() => undefined);
          return outcome;
        });
      }
      const sent = new Map(posts.map((post) => [post.message.id, post.message]));
      // A post whose webhook or channel row another transaction held waits for it on its own, and
      // the rest of its batch is answered at once.
      return posts.map((post, i) =>
        rows[i]!.skipped ? single(post).then((row) => judge(post, row, sent)) : judge(post, rows[i]!, sent),
      );
    },
    () => storeTimedOut('insertMessage', timeoutMs),
  );

  /** A post's outcome from its row of the guarded insert; `sent` holds the batch's messages by id. */
  const judge = (
    { message, secretHash }: InsertMessageInput,
    row: GuardedRow,
    sent: Map<string, Message>,
  ): InsertMessageResult => {
    const webhookId = message.author.id;
    if (row.active !== true) {
      proven.forget(webhookId, secretHash);
      return { outcome: 'webhook_inactive' };
    }
    if (row.archived === null) return { outcome: 'channel_not_found' };
    if (row.archived) return { outcome: 'channel_archived' };
    proven.prove(webhookId, secretHash);
    if (row.inserted !== true) return { outcome: 'duplicate', message: row.earlier! };
    // A post of the batch with the same key as an earlier one of it is answered with that one's message.
    if (row.storedId === undefined || row.storedId === message.id) {
      // Called for a batch's posts in one go, after its commit: their channels go in one announcement.
      notified?.stored(message.channelId);
      return { outcome: 'created', message };
    }
    return { outcome: 'duplicate', message: sent.get(row.storedId)! };
  };

  const connect = options.listen ?? (options.notifier === undefined ? poolConnect(pool) : null);
  const listener = connect === null ? null : createFeedListener(connect, feedChannel(p), options.onError);
  const watchFeed =
    notified === null
      ? listener?.watch
      : listener === null
        ? notified.watch
        : (wake: (channelId?: string) => void) => {
            const unwatch = [notified.watch(wake), listener.watch(wake)];
            return () => {
              for (const leave of unwatch) leave();
            };
          };
  const feed =
    watchFeed === undefined
      ? {}
      : {
          readFeed: createFeedReader((channel, values) => run(channel ? sql.readChannelFeed : sql.readFeed, values)),
          watchFeed,
        };

  return {
    ...feed,
    async migrate() {
      await run(sql.migrate, [], MIGRATE_TIMEOUT_MS).catch(refuseNewerSchema);
    },

    async putChannel(channel) {
      await run(sql.putChannel, [channel.id, channel.ownerId, channel.archived]);
    },

    listMessages: async (channelId) => readRows<Message>(await run(sql.listMessages, [channelId])),

    async getChannel(channelId) {
      const [channel] = readRows<Channel>(await run(sql.getChannel, [channelId]));
      return channel ?? null;
    },

    async insertWebhook(webhook) {
      await run(sql.insertWebhook, webhookRowValues(webhook));
      if (webhook.revokedAt === null) proven.prove(webhook.id, webhook.secretHash);
    },

    getWebhook(webhookId, presentedSecretHash) {
      // A slot is held until the lookup's batch settles, so the gate bounds the lookups out at once
      // (and the group commit the connections they occupy). The lane is chosen by the whole
      // presented credential: a wrong secret for a real id waits where an unknown id waits, so
      // neither the answer nor its odds tell them apart. A lookup joins only a batch not yet sent,
      // so it never reads a webhook as it was before the lookup was asked.
      const deadline = Date.now() + timeoutMs;
      return withDeadline(
        gate(proven.has(webhookId, presentedSecretHash), () => lookups(webhookId, deadline)),
        timeoutMs,
        sql.getWebhook.what,
      );
    },

    listWebhooks: async (channelId) => readRows<WebhookRecord>(await run(sql.listWebhooks, [channelId])),

    async updateWebhookSecret(webhookId, secretHash, rotatedAt) {
      const [webhook] = readRows<WebhookRecord>(await run(sql.updateWebhookSecret, [webhookId, secretHash, rotatedAt]));
      if (webhook === undefined) return null;
      proven.prove(webhookId, secretHash);
      return webhook;
    },

    async revokeWebhook(webhookId, revokedAt) {
      const [webhook] = readRows<WebhookRecord>(await run(sql.revokeWebhook, [webhookId, revokedAt]));
      proven.forget(webhookId);
      return webhook ?? null;
    },

    async updateWebhookProfile(webhookId, change) {
      const [webhook] = readRows<WebhookRecord>(
        await run(sql.updateWebhookProfile, [
          webhookId,
          change.description !== undefined,
          change.description ?? null,
          change.avatarUrl !== undefined,
          change.avatarUrl ?? null,
        ]),
      );
      return webhook ?? null;
    },

    insertMessage(input) {
      // One statement, so the guard and the write are one atomic step (for a batch, one statement
      // over its posts; see `guardedInsertsSql`):
      // - `w` locks the webhook row FOR NO KEY UPDATE, found by id alone: when a revocation or
      //   rotation holds the row, the lock waits for it to commit and then yields the row's newest
      //   version, so `active` is judged on what was committed last, never on this statement's older
      //   snapshot. A revocation or rotation that comes later waits for this post to commit.
      //   Posts to one webhook serialize here, which its rate limit makes cheap.
      // - `c` locks the channel row FOR SHARE, only for an active webhook, and likewise reads its
      //   newest version: an archival waits for the post or the post sees it. The webhook is always
      //   locked before the channel, and the store's own writes each take one row, so posts, rotations,
      //   revocations and archivals cannot deadlock.
      // - The insert uses ON CONFLICT DO UPDATE (a no-op write) rather than DO NOTHING: DO NOTHING
      //   returns no row for a key that a concurrent transaction committed after this statement's
      //   snapshot, and a second SELECT would be another round trip. DO UPDATE returns the stored
      //   row; `xmax = 0` tells a fresh insert from the earlier row.
      // - `touch` sets last_post_at only when a message was created.
      // - Only a duplicate sends the stored message back: a created row holds exactly the message
      //   sent, which is the answer then.
      // - `announce` sends the feed's NOTIFY for a created message; PostgreSQL delivers it at
      //   commit, and only if the transaction commits. The row's `tx` (its transaction) is the
      //   column's default.
      return withDeadline(inserts(input, Date.now() + timeoutMs), timeoutMs, sql.insertMessage.what);
    },

    async recordPosts(records) {
      if (records.length === 0) return;
      // One row of the log for the whole batch: one round trip, one row, however many records.
      const batch = mergeFolded(records);
      let appended = batch.length;
      const failures: unknown[] = [];
      try {
        await run(sql.recordPosts, appendValues(batch));
      } catch (error) {
        if (batch.length === 1 || !refusedForItsData(error)) throw error;
        // One record the server refuses fails the whole append: the others are appended again one
        // by one, in order, and only the records that fail alone are lost (and reported, once).
        for (const record of batch) {
          try {
            await run(sql.recordPosts, appendValues([record]));
          } catch (failure) {
            failures.push(failure);
            appended--;
          }
        }
      }
      unfolded += appended;
      if (unfolded >= FOLD_AT) {
        unfolded = 0;
        await run(sql.foldForRecord, []).catch((error: unknown) => {
          throw new ChannelWebhookError(
            'store_failed',
            'PostgreSQL store: recordPosts appended its records to the post log, but folding the log failed; the log keeps them for the next fold',
            { cause: error },
          );
        });
      }
      if (failures.length > 0)
        throw new ChannelWebhookError(
          'store_failed',
          `PostgreSQL store: recordPosts failed for ${failures.length} of ${batch.length} records, each written alone; the others are kept`,
          { cause: failures.length === 1 ? failures[0] : new AggregateError(failures) },
        );
    },

    async listPosts(webhookId, limit) {
      // Reads are rare and posts many: a read folds the log first, so it sees every record
      // appended before it.
      await run(sql.foldForList, []);
      return readPosts(webhookId, readRows<StoredRecord[]>(await run(sql.listPosts, [webhookId, limit])), limit);
    },
  };
}

/**
 * How a node-postgres `Pool` checks a connection out, or `null` for another kind of pool: a `Client`
 * has a `connect()` too, which connects the client itself.
 */
function poolConnect(pool: PostgresQueryable): (() => Promise<PostgresListenClient>) | null {
  const candidate = pool as PostgresQueryable & { connect?: () => Promise<PostgresListenClient>; idleCount?: unknown };
  return typeof candidate.connect === 'function' && typeof candidate.idleCount === 'number'
    ? () => candidate.connect!()
    : null;
}

/**
 * What the guarded insert answers for a post. Of a batch only: `storedId`, the id of the row its key
 * or id met, and `skipped`, when its webhook's or channel's row was held by another transaction.
 */
interface GuardedRow {
  inserted: boolean | null;
  earlier: Message | null;
  active: boolean | null;
  archived: boolean | null;
  storedId?: string;
  skipped?: boolean;
}

/** The parameters of the guarded insert of one post (and, with a mapping, the app's row as JSON). */
function insertValues(
  { message, idempotencyKey, secretHash, postedAt }: InsertMessageInput,
  mapped: ResolvedMessageMapping | null,
): unknown[] {
  const values: unknown[] = [
    message.id,
    message.channelId,
    message.author.id,
    message.author.name,
    JSON.stringify(message.body),
    JSON.stringify(message.blocks),
    message.createdAt,
    idempotencyKey === null ? null : JSON.stringify(idempotencyKey),
    secretHash,
    postedAt,
  ];
  if (mapped !== null) values.push(JSON.stringify(appRow(mapped, message)));
  return values;
}

/**
 * The app's row for `message`, by column name, for `json_populate_record`: blocks go as the JSON
 * array they are, so a `json` or `jsonb` column gets the array and a `text` one its JSON text. A
 * PostgreSQL `text` or `jsonb` value cannot hold U+0000 or a lone surrogate, which a post may
 * carry: in the app's row each becomes U+FFFD, so the post is stored (the store's own row keeps
 * the message exactly).
 */
function appRow(mapped: ResolvedMessageMapping, message: Message): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const column of mapped.columns) {
    if (!('field' in column)) row[column.column] = column.value;
    else
      row[column.column] = wellFormed(
        column.field === 'blocks' ? message.blocks : messageFieldValue(message, column.field),
      );
  }
  return row;
}

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `value` with every string in it (keys too) storable in PostgreSQL text. */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(UNSTORABLE, '\uFFFD');
  if (Array.isArray(value)) return value.map(wellFormed);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [wellFormed(key), wellFormed(inner)]));
  return value;
}

/**
 * The parameters of the guarded insert of a batch: one array per column, in the order of
 * `insertValues`, and with a mapping the app's rows as one JSON array, in the batch's order.
 */
function batchValues(posts: InsertMessageInput[], mapped: ResolvedMessageMapping | null): unknown[] {
  const columns: unknown[][] = Array.from({ length: 10 }, () => new Array<unknown>(posts.length));
  for (let i = 0; i < posts.length; i++) {
    const values = insertValues(posts[i]!, null);
    for (let k = 0; k < values.length; k++) columns[k]![i] = values[k];
  }
  if (mapped === null) return columns;
  return [...columns, JSON.stringify(posts.map((post) => appRow(mapped, post.message)))];
}

/** A statement of the store, with the name it is prepared under (none for one that is never prepared). */
interface Statement {
  what: string;
  text: string;
  name: string | undefined;
}

// One name per statement text: stores with other table prefixes or channel sources may share the
// pool, and node-postgres refuses one name for two texts on a connection.
function statement(what: string, text: string, prepared = true): Statement {
  return { what, text, name: prepared ? `channel_webhooks_${what}_${statementHash(text)}` : undefined };
}

// A stable 31-bit key per table prefix, so migrations of different prefixes do not wait on each other.
function lockKey(prefix: string): number {
  let hash = 0x6368;
  for (let i = 0; i < prefix.length; i++) hash = (Math.imul(hash, 31) + prefix.charCodeAt(i)) | 0;
  return hash & 0x7fffffff;
}

/** The guarded insert (see `insertMessage`), for a table prefix and a channel source. */
function guardedInsertSql(p: string, c: ResolvedOptions['channels'], mapped: ResolvedMessageMapping | null): string {
  return `WITH w AS MATERIALIZED (
     SELECT channel_id, (revoked_at IS NULL AND secret_hash = $9) AS active
     FROM ${p}webhooks WHERE id = $3
     FOR NO KEY UPDATE
   ), c AS MATERIALIZED (
     SELECT coalesce(ch.${c.archived}, false) AS archived
     FROM ${c.table} ch JOIN w ON ch.${c.id} = w.channel_id
     WHERE w.active
     FOR SHARE OF ch
   ), ins AS (
     INSERT INTO ${p}messages (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key)
     SELECT $1, $2, $3, $4, $5::json, $6::json, $7::timestamptz, $8 FROM c WHERE c.archived IS FALSE
     ON CONFLICT (webhook_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO UPDATE SET idempotency_key = EXCLUDED.idempotency_key
     RETURNING (xmax = 0) AS inserted, CASE WHEN xmax = 0 THEN NULL ELSE ${MESSAGE_FIELDS} END AS earlier
   ), touch AS (
     UPDATE ${p}webhooks SET last_post_at = $10 WHERE id = $3 AND EXISTS (SELECT 1 FROM ins WHERE inserted)
   ),${
     mapped === null
       ? ''
       : ` app AS (
     INSERT INTO ${mapped.table} (${appColumns(mapped)})
     SELECT ${appColumns(mapped, 'r.')} FROM json_populate_record(null::${mapped.table}, $11::json) r
     WHERE EXISTS (SELECT 1 FROM ins WHERE inserted)
   ),`
   } announce AS (
     ${announceSql(p)}
   )
   SELECT ${asFields(`json_build_object('inserted', ins.inserted, 'earlier', ins.earlier, 'active', (SELECT active FROM w), 'archived', (SELECT bool_or(archived) FROM c))`)}
   FROM (VALUES (1)) one LEFT JOIN ins ON true CROSS JOIN (SELECT count(*) FROM announce) announced`;
}

/**
 * The guarded insert of a batch, one statement over arrays (`$1`…`$10` as in the single insert, one
 * element per post), answering one row per post in the batch's order. It keeps every guarantee of
 * the single insert (see `insertMessage`):
 * - `w` locks the batch's webhook rows FOR NO KEY UPDATE, and `c` the channels of the webhooks that
 *   a post still answers to FOR SHARE, each post then judged against the newest committed versions
 *   with its own secret hash. Both skip rows that another transaction holds (SKIP LOCKED): a
 *   batch never waits on a lock, so a revocation in progress, or a host app's transaction, holds
 *   up only the posts of its own rows, which `skipped` marks (the row exists but was not locked)
 *   and which are then sent again each in the single statement, which waits for the lock. So a
 *   batch's posts never wait on each other's rows, and batches cannot deadlock.
 * - `chosen` keeps, of the posts of one webhook with one key, the first: an `ON CONFLICT DO UPDATE`
 *   may not meet one row twice in a statement, and the later ones are answered with the first's
 *   message, as racing posts are.
 * - Each post finds its row of `ins` by key (a keyed post) or by its own id (one without a key);
 *   `storedId` says whose message that row holds.
 * - `touch` sets each webhook's last_post_at once, to its latest post created, and `announce` sends
 *   one notification per channel that got a message, all delivered at the one commit.
 */
function guardedInsertsSql(p: string, c: ResolvedOptions['channels'], mapped: ResolvedMessageMapping | null): string {
  return `WITH batch AS MATERIALIZED (
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[],
       $9::text[], $10::bigint[]) WITH ORDINALITY
       AS b(id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key, secret_hash, posted_at, i)
   ), w AS MATERIALIZED (
     SELECT id, channel_id, revoked_at, secret_hash FROM ${p}webhooks WHERE id = ANY($3::text[])
     ORDER BY id
     FOR NO KEY UPDATE SKIP LOCKED
   ), c AS MATERIALIZED (
     SELECT ch.${c.id}::text AS id, coalesce(ch.${c.archived}, false) AS archived
     FROM ${c.table} ch
     WHERE ch.${c.id} IN (SELECT w.channel_id FROM w JOIN batch b ON b.webhook_id = w.id AND b.secret_hash = w.secret_hash WHERE w.revoked_at IS NULL)
     ORDER BY ch.${c.id}
     FOR SHARE OF ch SKIP LOCKED
   ), judged AS MATERIALIZED (
     SELECT b.*, (w.revoked_at IS NULL AND w.secret_hash = b.secret_hash) AS active, c.archived,
       CASE WHEN w.id IS NULL THEN EXISTS (SELECT 1 FROM ${p}webhooks s WHERE s.id = b.webhook_id)
         WHEN w.revoked_at IS NULL AND w.secret_hash = b.secret_hash AND c.id IS NULL
         THEN EXISTS (SELECT 1 FROM ${c.table} s WHERE s.${c.id} = w.channel_id)
         ELSE false END AS skipped
     FROM batch b
     LEFT JOIN w ON w.id = b.webhook_id
     LEFT JOIN c ON c.id = w.channel_id AND w.revoked_at IS NULL AND w.secret_hash = b.secret_hash
   ), chosen AS (
     SELECT * FROM (
       SELECT j.*, row_number() OVER (PARTITION BY j.webhook_id, j.idempotency_key ORDER BY j.i) AS n
       FROM judged j WHERE j.active AND j.archived IS FALSE
     ) k WHERE k.idempotency_key IS NULL OR k.n = 1
   ), ins AS (
     INSERT INTO ${p}messages (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key)
     SELECT id, channel_id, webhook_id, author_name, body::json, blocks::json, created_at, idempotency_key FROM chosen ORDER BY i
     ON CONFLICT (webhook_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO UPDATE SET idempotency_key = EXCLUDED.idempotency_key
     RETURNING id, channel_id, webhook_id, idempotency_key, (xmax = 0) AS inserted, CASE WHEN xmax = 0 THEN NULL ELSE ${MESSAGE_FIELDS} END AS earlier
   ), touch AS (
     UPDATE ${p}webhooks h SET last_post_at = t.at
     FROM (SELECT b.webhook_id, max(b.posted_at) AS at FROM ins JOIN batch b ON b.id = ins.id WHERE ins.inserted GROUP BY b.webhook_id) t
     WHERE h.id = t.webhook_id
   ),${
     mapped === null
       ? ''
       : ` app AS (
     INSERT INTO ${mapped.table} (${appColumns(mapped)})
     SELECT ${appColumns(mapped, 'r.')}
     FROM ROWS FROM (json_populate_recordset(null::${mapped.table}, $11::json)) WITH ORDINALITY AS r
     JOIN batch b ON b.i = r.ordinality JOIN ins ON ins.id = b.id AND ins.inserted
     ORDER BY b.i
   ),`
   } announce AS (
     ${announceBatchSql(p)}
   )
   SELECT ${asFields(`json_build_object('inserted', r.inserted, 'earlier', r.earlier, 'storedId', r.id, 'active', j.active, 'archived', j.archived, 'skipped', j.skipped)`)}
   FROM judged j
   LEFT JOIN ins r ON r.webhook_id = j.webhook_id AND (r.idempotency_key = j.idempotency_key OR (j.idempotency_key IS NULL AND r.id = j.id))
   CROSS JOIN (SELECT count(*) FROM announce) announced
   ORDER BY j.i`;
}

/** The app's columns of a mapping, as a list (each prefixed by `alias`). */
function appColumns(mapped: ResolvedMessageMapping, alias = ''): string {
  return mapped.columns.map(({ column }) => `${alias}${column}`).join(', ');
}

// FNV-1a of a statement's text, in base 36: part of its prepared statement's name.
function statementHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `${(hash >>> 0).toString(36)}${text.length.toString(36)}`;
}

// SQLSTATE classes 22 (data exception) and 23 (integrity constraint violation): the server refused
// the statement for a value it was given, not for the connection or the server's state. The error
// is node-postgres's own, or the store's with it as `cause`.
function refusedForItsData(error: unknown): boolean {
  const failure = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = isChannelWebhookError(error) ? failure?.cause?.code : failure?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

// 26000: the named statement does not exist on the server's connection; 42P05: another statement
// of that name does. Both mean the session the pool prepared it in is not the one that runs it.
function lostPreparedStatement(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '26000' || code === '42P05';
}
