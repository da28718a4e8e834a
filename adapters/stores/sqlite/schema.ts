import { DEFAULT_TABLE_PREFIX, TABLE_PREFIX } from '../sql/index.js';
import { checkOptions } from '../../../src/store-kit/index.js';

/**
 * Options of {@link sqliteSchema}.
 *
 * @example
 * ```ts
 * const options: SqliteSchemaOptions = { tablePrefix: 'hooks_' };
 * const sql = sqliteSchema(options);
 * ```
 */
export interface SqliteSchemaOptions {
  /**
   * Prefix of every table and index name: lower-case letters, digits and `_`, starting with a letter
   * or `_`. Default `'channel_webhooks_'`.
   */
  tablePrefix?: string;
}

/** One step of the schema. Steps are applied in order, each once, and never changed once released. */
interface Migration {
  version: number;
  sql: (p: string) => string;
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: (p) => `CREATE TABLE IF NOT EXISTS ${p}channels (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  archived INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS ${p}webhooks (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  channel_id TEXT NOT NULL,
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  rotated_at INTEGER,
  revoked_at INTEGER,
  last_post_at INTEGER
);

CREATE INDEX IF NOT EXISTS ${p}webhooks_channel_idx ON ${p}webhooks (channel_id, created_at, seq);

CREATE TABLE IF NOT EXISTS ${p}messages (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  channel_id TEXT NOT NULL,
  webhook_id TEXT NOT NULL,
  author_name TEXT NOT NULL,
  body TEXT NOT NULL,
  blocks TEXT NOT NULL,
  created_at TEXT NOT NULL,
  idempotency_key TEXT
);

CREATE UNIQUE INDEX IF NOT EXISTS ${p}messages_key_idx ON ${p}messages (webhook_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS ${p}messages_channel_idx ON ${p}messages (channel_id, seq);

CREATE TABLE IF NOT EXISTS ${p}rate_hits (
  key TEXT NOT NULL,
  expires_at REAL NOT NULL,
  tag INTEGER NOT NULL,
  PRIMARY KEY (key, expires_at, tag)
) WITHOUT ROWID;
`,
  },
  {
    version: 2,
    // A webhook's profile: what it is for, and the image an app shows beside its messages.
    sql: (p) => `ALTER TABLE ${p}webhooks ADD COLUMN description TEXT;
ALTER TABLE ${p}webhooks ADD COLUMN avatar_url TEXT;
`,
  },
  {
    version: 3,
    // The feed: its epoch (a new database is a new feed, whose cursors no old one matches) and the
    // last message number pruned (a cursor before it has lost messages after it).
    sql: (p) => `CREATE TABLE IF NOT EXISTS ${p}feed (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  epoch TEXT NOT NULL,
  pruned_seq INTEGER NOT NULL DEFAULT 0
);
INSERT OR IGNORE INTO ${p}feed (id, epoch) VALUES (1, lower(hex(randomblob(4))));
`,
  },
  {
    version: 4,
    // The history of each webhook's recent posts: a ring of POST_HISTORY_LIMIT slots per webhook.
    sql: (p) => `CREATE TABLE IF NOT EXISTS ${p}post_heads (
  webhook_id TEXT PRIMARY KEY,
  next INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS ${p}posts (
  webhook_id TEXT NOT NULL,
  slot INTEGER NOT NULL,
  position INTEGER NOT NULL,
  at INTEGER NOT NULL,
  status INTEGER NOT NULL,
  code TEXT,
  errors TEXT NOT NULL,
  idempotency_key TEXT,
  message_id TEXT,
  body_bytes INTEGER,
  count INTEGER NOT NULL,
  PRIMARY KEY (webhook_id, slot)
) WITHOUT ROWID;
`,
  },
  {
    version: 5,
    // The post log: a batch of history records appended in post order, folded into the rings later.
    sql: (p) => `CREATE TABLE IF NOT EXISTS ${p}post_log (
  seq INTEGER PRIMARY KEY,
  webhook_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  status INTEGER NOT NULL,
  code TEXT,
  errors TEXT NOT NULL,
  idempotency_key TEXT,
  message_id TEXT,
  body_bytes INTEGER,
  count INTEGER NOT NULL
);
`,
  },
  {
    version: 6,
    // The limiter's log: requests appended in the order they were allowed, one page for a batch;
    // the requests of the window in flight move over, so no decision of the upgrade's moment is lost.
    sql: (p) => `CREATE TABLE IF NOT EXISTS ${p}rate_log (
  seq INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  expires_at REAL NOT NULL,
  tag INTEGER NOT NULL
);
INSERT INTO ${p}rate_log (key, expires_at, tag) SELECT key, expires_at, tag FROM ${p}rate_hits ORDER BY expires_at;
DROP TABLE ${p}rate_hits;
`,
  },
  {
    version: 7,
    // A post's time goes to a small table of the webhooks that posted since the last fold, and from
    // there into their history heads, rather than into the webhook's row: the row is read by every
    // post and is no longer written by one. Rows keep the times written before this step.
    sql: (p) => `ALTER TABLE ${p}post_heads ADD COLUMN last_post_at INTEGER;
CREATE TABLE IF NOT EXISTS ${p}post_times (
  webhook_id TEXT PRIMARY KEY,
  at INTEGER NOT NULL
) WITHOUT ROWID;
`,
  },
];

/**
 * The schema version this release writes and reads. `migrate()` records each applied version in
 * `<prefix>migrations`, one table per prefix, so that the host app's own `PRAGMA user_version` stays
 * the host app's.
 *
 * @example
 * ```ts
 * const row = database.prepare('SELECT max(version) AS version FROM channel_webhooks_migrations').get();
 * if (row.version !== SQLITE_SCHEMA_VERSION) console.warn('run store.migrate()');
 * ```
 */
export const SQLITE_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/**
 * The SQLite schema of `createSqliteStore` and `createSqliteRateLimiter` at {@link SQLITE_SCHEMA_VERSION},
 * as SQL text: every step of the schema in order, for a new database, to read or to feed your own
 * migration tool. `migrate()` applies the same steps one by one, each once, and records each
 * version it applied in `<prefix>migrations`.
 *
 * Design notes:
 * - `body`, `blocks` and `idempotency_key` hold JSON text (`JSON.stringify` of the value), which
 *   escapes U+0000 and lone surrogates: any JavaScript string comes back exactly, and keys compare
 *   exactly. Read a body with `body ->> '$'`.
 * - Webhook times are epoch ms (`INTEGER`); a message's `created_at` is its ISO 8601 string.
 * - Each post writes as few pages as it can, since a commit writes every page it changed to the
 *   log: the messages table, its channel index, and the key index only for a post with a key (a
 *   partial index); message ids are random UUIDs made by the handler, so they have no index.
 * - `rate_log` holds one row per allowed request still in its window, with the time it leaves it,
 *   appended in the order the requests were allowed (so a batch of decisions writes one page, where
 *   rows kept by key took a page of each key). Each limiter keeps the windows in memory and, before
 *   each decision, under the write lock, reads the rows appended since the last one it read (found
 *   again by its `seq` and `tag`; when it is gone, it reads the whole window again). A sweep, once
 *   per window, deletes the rows that left it.
 * - A message's `seq` is its place in the feed: one writer at a time assigns it, so it is also the
 *   order of commits. The feed's cursor is `<prefix>feed.epoch` and `seq`; `pruned_seq` is the last
 *   one `pruneMessages()` deleted, which never deletes the newest message (SQLite would hand its
 *   `seq` out again).
 * - There are no foreign keys: a webhook may outlive its channel (then it can only be revoked).
 * - The post history is a ring per webhook: `post_heads` counts each webhook's records, and the
 *   record numbered `position` takes the slot `position % 100` of `posts`, over the one 100 records
 *   before it. So the history never holds more than 100 rows a webhook and a record costs two
 *   writes, never a delete. `errors` and `idempotency_key` hold JSON text, as in `messages`.
 * - A post does not write the rings: `recordPosts` appends its batch to `post_log`, in post order
 *   (one or two pages for a whole batch, where the rings take a page of each webhook), and the log
 *   is folded into the rings, and emptied, in one transaction once it holds 2,048 records and
 *   before every `listPosts`. So the log never holds more than 2,048 records and a read sees every
 *   record written before it.
 * - Nor does a post write its webhook's row, which every post reads: the guarded insert sets the
 *   webhook's time in `post_times` (a row per webhook that posted since the last fold, a few pages
 *   that the posts of a batch share), and each fold of the post log moves those times into the
 *   webhooks' `post_heads` rows, which it writes anyway. A read of a webhook takes its
 *   `lastPostAt` from `post_times`, else `post_heads`, else its row (the times written before
 *   version 7), so it sees every post's time once its insert committed.
 *
 * @example
 * ```ts
 * import { sqliteSchema } from 'channel-webhooks/sqlite';
 * await writeFile('migrations/001_channel_webhooks.sql', sqliteSchema({ tablePrefix: 'hooks_' }));
 * ```
 */
export function sqliteSchema(options: SqliteSchemaOptions = {}): string {
  checkOptions('sqliteSchema', options, { tablePrefix: TABLE_PREFIX });
  const p = options.tablePrefix ?? DEFAULT_TABLE_PREFIX;
  return MIGRATIONS.map((migration) => migration.sql(p)).join('\n');
}

/** The steps after `version`, for a table prefix. */
export function migrationsAfter(version: number, prefix: string): Array<{ version: number; sql: string }> {
  return MIGRATIONS.filter((migration) => migration.version > version).map((migration) => ({
    version: migration.version,
    sql: migration.sql(prefix),
  }));
}
