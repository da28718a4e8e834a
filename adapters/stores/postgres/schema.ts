import { checkOptions } from '../../../src/store-kit/index.js';
import { DEFAULT_TABLE_PREFIX, TABLE_PREFIX } from '../sql/index.js';
import { allSteps, migrationsTableSql, postHistoryTablesSql, recordStepsSql } from './migrations.js';

/**
 * Options of {@link postgresSchema}.
 *
 * @example
 * ```ts
 * const options: PostgresSchemaOptions = { tablePrefix: 'hooks_' };
 * const sql = postgresSchema(options);
 * ```
 */
export interface PostgresSchemaOptions {
  /**
   * Prefix of every table and index name: lower-case letters, digits and `_`, starting with a letter
   * or `_`. Default `'channel_webhooks_'`.
   */
  tablePrefix?: string;
}

/**
 * The PostgreSQL schema of `createPostgresStore` at `POSTGRES_SCHEMA_VERSION`, as SQL text for a new
 * database: the tables as they are now, and `<prefix>migrations` recording every step, so that
 * `migrate()` afterwards finds nothing to do. `adapters/stores/postgres/schema.sql` in the package is
 * this text for the default prefix. Its statements are plain `CREATE`s: on tables that are already
 * there it fails rather than record a version it did not reach. `migrate()` brings a database of any
 * earlier version up step by step instead; `postgresMigrations()` gives those steps, for your own
 * migration tool.
 *
 * Design notes:
 * - `body` and `blocks` are `json`, not `text` or `jsonb`: `json` keeps the text as sent (key order,
 *   duplicate keys) and any JavaScript string, including U+0000 and lone surrogates, which a `text`
 *   column refuses or alters. Read the body with `body #>> '{}'`.
 * - `idempotency_key` holds the key as a JSON string literal (`"deploy-42"`), for the same reason;
 *   a unique index on `(webhook_id, idempotency_key)` makes the idempotent insert one statement.
 *   Rows without a key are `NULL` there and never conflict, so the index is partial: it holds only
 *   keyed messages (a tenth of the size at one post in ten keyed).
 * - Times of webhooks are epoch ms in `bigint`; a message's time is a `timestamptz`.
 * - The feed (PostgreSQL 13 or later): each message records the transaction that stored it (`tx`),
 *   and its place in the feed is `(tx, seq)`. A reader returns only messages of transactions below
 *   the oldest one still open, so a message whose `seq` was handed out before another's but which
 *   commits after it is never passed over. `<prefix>feed` holds the feed's `epoch` and the last
 *   place moved out of the table (`pruned_tx`, `pruned_seq`), which the retention recipe of
 *   docs/scaling.md keeps; a cursor before it gets `cursor_expired`. The primary key is the place,
 *   `(tx, seq)`, and the channel index `(channel_id, tx, seq)`, so every channel and each one read in
 *   feed order (`listMessages` too); both grow at their right edge, as transaction ids increase.
 * - There are no foreign keys: a webhook may outlive its channel (then it can only be revoked).
 * - The post history is written in post order and read per webhook. `recordPosts` appends a batch
 *   as one row of `post_log`: its webhook ids, its records as one JSON array (each an array
 *   `[status, at, count, code, errors, idempotency_key, message_id, body_bytes]`, the errors and
 *   the key as JSON text, as in `messages`) kept out of line uncompressed, and the places of its
 *   415s and 429s. A fold moves the whole log into `post_chunks` in one transaction, under the
 *   advisory lock of the table prefix: for each webhook with records in it, one row that holds
 *   them in order, numbered on from `position` (its records counted since its first), its last 100
 *   only; the webhook's chunks wholly older than its last 100 records are deleted, and a minute's
 *   415s, or 429s, are added to that minute's record when the last 100 hold one. A fold runs before
 *   every `listPosts`, so a read sees every record appended before it, and whenever an instance has
 *   appended 8,192 records, so the log holds about that many per instance (and what a stopped
 *   instance left, until the next fold). A record costs a share of one row, where it was two rows
 *   of its own (its webhook's head and its ring slot, each upserted); bench/README.md has the figures.
 *
 * @example
 * ```ts
 * import { postgresSchema } from 'channel-webhooks/postgres';
 * await writeFile('migrations/001_channel_webhooks.sql', postgresSchema({ tablePrefix: 'hooks_' }));
 * ```
 */
export function postgresSchema(options: PostgresSchemaOptions = {}): string {
  checkOptions('postgresSchema', options, { tablePrefix: TABLE_PREFIX });
  const p = options.tablePrefix ?? DEFAULT_TABLE_PREFIX;
  return `${migrationsTableSql(p, false)}
CREATE TABLE ${p}channels (
  id text PRIMARY KEY,
  owner_id text NOT NULL,
  archived boolean NOT NULL DEFAULT false
);

CREATE TABLE ${p}webhooks (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  channel_id text NOT NULL,
  name text NOT NULL,
  secret_hash text NOT NULL,
  created_by text NOT NULL,
  created_at bigint NOT NULL,
  rotated_at bigint,
  revoked_at bigint,
  last_post_at bigint,
  description text,
  avatar_url text
);

CREATE INDEX ${p}webhooks_channel_idx ON ${p}webhooks (channel_id, created_at, seq);

CREATE TABLE ${p}messages (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id text NOT NULL UNIQUE,
  channel_id text NOT NULL,
  webhook_id text NOT NULL,
  author_name text NOT NULL,
  body json NOT NULL,
  blocks json NOT NULL,
  created_at timestamptz NOT NULL,
  idempotency_key text,
  tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
  PRIMARY KEY (tx, seq)
);

CREATE UNIQUE INDEX ${p}messages_key_idx ON ${p}messages (webhook_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE INDEX ${p}messages_channel_feed_idx ON ${p}messages (channel_id, tx, seq);

${postHistoryTablesSql(p)}
CREATE TABLE ${p}feed (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  epoch text NOT NULL DEFAULT substr(md5(random()::text || clock_timestamp()::text), 1, 8),
  pruned_tx xid8 NOT NULL DEFAULT '0',
  pruned_seq bigint NOT NULL DEFAULT 0
);

INSERT INTO ${p}feed DEFAULT VALUES ON CONFLICT DO NOTHING;

${recordStepsSql(p, allSteps())}`;
}
