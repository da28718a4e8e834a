/** One step of the object's schema. Steps are applied in order, each once, and never changed once released. */
interface Migration {
  version: number;
  sql: string;
}

/**
 * The schema of a webhook object's own SQLite database (one object holds the channels of one shard).
 * A new release that changes it appends a step; every object that has the schema applies the steps
 * it lacks when it starts (`migrateObjectSchema`), before it serves anything, so objects migrate one
 * by one as they wake, with no deploy step and no downtime. An object without it gets it from its
 * first write (see `createObjectState`).
 *
 * - `body`, `blocks` and `idempotency_key` hold JSON text, which escapes U+0000 and lone surrogates:
 *   any string comes back exactly and keys compare exactly.
 * - `webhook_routes` holds, in the object an imported webhook id names, the shard of the channel
 *   that webhook lives in (see `keyShard`).
 * - `messages.seq` is the channel feed's cursor: one object commits one write at a time, so the
 *   order of `seq` is the order in which messages became visible.
 * - `rate_hits` holds one row per allowed request still in its window, with the time it leaves it.
 * - `feed.pruned_seq` (version 2) is the last `seq` `pruneMessages` deleted: a cursor before it has
 *   lost messages. The newest message is never deleted, since SQLite would give its `seq` to the
 *   next one, and a cursor must never come back.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `CREATE TABLE channels (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  archived INTEGER NOT NULL
);
CREATE TABLE webhooks (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  channel_id TEXT NOT NULL,
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  rotated_at INTEGER,
  revoked_at INTEGER,
  last_post_at INTEGER,
  description TEXT,
  avatar_url TEXT
);
CREATE INDEX webhooks_channel_idx ON webhooks (channel_id, created_at, seq);
CREATE TABLE webhook_routes (
  id TEXT PRIMARY KEY,
  shard TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE messages (
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
CREATE UNIQUE INDEX messages_key_idx ON messages (webhook_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX messages_channel_idx ON messages (channel_id, seq);
CREATE TABLE rate_hits (
  seq INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  expires_at REAL NOT NULL
);
CREATE INDEX rate_hits_key_idx ON rate_hits (key, expires_at);
CREATE TABLE post_history (
  seq INTEGER PRIMARY KEY,
  webhook_id TEXT NOT NULL,
  record TEXT NOT NULL,
  minute INTEGER
);
CREATE INDEX post_history_webhook_idx ON post_history (webhook_id, seq);
`,
  },
  {
    version: 2,
    sql: `CREATE TABLE feed (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pruned_seq INTEGER NOT NULL
);
INSERT INTO feed (id, pruned_seq) VALUES (1, 0);
`,
  },
];

/**
 * The version of a webhook object's schema this release writes and reads. Each object records the
 * versions it applied in its table `schema_migrations`.
 *
 * @example
 * ```ts
 * console.log(`webhook objects at schema version ${OBJECT_SCHEMA_VERSION}`);
 * ```
 */
export const OBJECT_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The steps after `version`. */
export function objectMigrationsAfter(version: number): readonly Migration[] {
  return MIGRATIONS.filter((migration) => migration.version > version);
}
