import { checkOptions } from '../../../src/store-kit/index.js';
import { DEFAULT_TABLE_PREFIX, TABLE_PREFIX } from '../sql/index.js';

/**
 * Options of {@link mysqlSchema}.
 *
 * @example
 * ```ts
 * const options: MysqlSchemaOptions = { tablePrefix: 'hooks_' };
 * const sql = mysqlSchema(options);
 * ```
 */
export interface MysqlSchemaOptions {
  /**
   * Prefix of every table and index name: lower-case letters, digits and `_`, starting with a letter
   * or `_`. Default `'channel_webhooks_'`.
   */
  tablePrefix?: string;
}

/** One step of the schema. Steps are applied in order, each once, and never changed once released. */
interface Migration {
  version: number;
  /** Its statements, each run alone: MySQL commits every DDL statement by itself. */
  statements: (p: string) => string[];
}

// Every text column is utf8mb4 with a binary collation: ids, hashes and keys compare byte for
// byte, as on the other stores, whatever the server's or the database's default collation.
const TEXT = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    statements: (p) => [
      `CREATE TABLE IF NOT EXISTS ${p}channels (
  id VARCHAR(255) ${TEXT} NOT NULL PRIMARY KEY,
  owner_id VARCHAR(255) ${TEXT} NOT NULL,
  archived BOOLEAN NOT NULL DEFAULT FALSE
) ENGINE=InnoDB`,
      `CREATE TABLE IF NOT EXISTS ${p}webhooks (
  seq BIGINT NOT NULL AUTO_INCREMENT UNIQUE,
  id VARCHAR(64) ${TEXT} NOT NULL PRIMARY KEY,
  channel_id VARCHAR(255) ${TEXT} NOT NULL,
  name VARCHAR(1024) ${TEXT} NOT NULL,
  secret_hash VARCHAR(128) ${TEXT} NOT NULL,
  created_by VARCHAR(255) ${TEXT} NOT NULL,
  created_at BIGINT NOT NULL,
  rotated_at BIGINT NULL,
  revoked_at BIGINT NULL,
  last_post_at BIGINT NULL,
  description TEXT ${TEXT} NULL,
  avatar_url TEXT ${TEXT} NULL,
  KEY ${p}webhooks_channel_idx (channel_id, created_at, seq)
) ENGINE=InnoDB`,
      `CREATE TABLE IF NOT EXISTS ${p}messages (
  seq BIGINT NOT NULL PRIMARY KEY,
  id VARCHAR(64) ${TEXT} NOT NULL,
  channel_id VARCHAR(255) ${TEXT} NOT NULL,
  webhook_id VARCHAR(64) ${TEXT} NOT NULL,
  author_name VARCHAR(1024) ${TEXT} NOT NULL,
  body LONGTEXT ${TEXT} NOT NULL,
  blocks LONGTEXT ${TEXT} NOT NULL,
  created_at CHAR(24) ${TEXT} NOT NULL,
  idempotency_key TEXT ${TEXT} NULL,
  key_hash BINARY(32) NULL,
  UNIQUE KEY ${p}messages_key_idx (webhook_id, key_hash),
  KEY ${p}messages_channel_feed_idx (channel_id, seq)
) ENGINE=InnoDB`,
      `CREATE TABLE IF NOT EXISTS ${p}feed (
  id TINYINT NOT NULL PRIMARY KEY,
  epoch CHAR(8) ${TEXT} NOT NULL,
  next_seq BIGINT NOT NULL DEFAULT 0,
  pruned_seq BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB`,
      `INSERT IGNORE INTO ${p}feed (id, epoch) VALUES (1, LEFT(MD5(CONCAT(RAND(), UUID())), 8))`,
      `CREATE TABLE IF NOT EXISTS ${p}post_heads (
  webhook_id VARCHAR(64) ${TEXT} NOT NULL PRIMARY KEY,
  next BIGINT NOT NULL
) ENGINE=InnoDB`,
      `CREATE TABLE IF NOT EXISTS ${p}posts (
  webhook_id VARCHAR(64) ${TEXT} NOT NULL,
  slot INT NOT NULL,
  position BIGINT NOT NULL,
  at BIGINT NOT NULL,
  status INT NOT NULL,
  code VARCHAR(255) ${TEXT} NULL,
  errors LONGTEXT ${TEXT} NOT NULL,
  idempotency_key TEXT ${TEXT} NULL,
  message_id VARCHAR(64) ${TEXT} NULL,
  body_bytes INT NULL,
  count INT NOT NULL,
  PRIMARY KEY (webhook_id, slot)
) ENGINE=InnoDB`,
    ],
  },
];

/**
 * The schema version this release writes and reads. `migrate()` records each applied version in
 * `<prefix>migrations`, and refuses tables of a newer one with code `schema_too_new`.
 *
 * @example
 * ```ts
 * const [rows] = await pool.query('SELECT max(version) AS version FROM channel_webhooks_migrations');
 * if (rows[0].version !== MYSQL_SCHEMA_VERSION) console.warn('run store.migrate()');
 * ```
 */
export const MYSQL_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/**
 * The MySQL / MariaDB schema of `createMysqlStore` at {@link MYSQL_SCHEMA_VERSION}, as SQL text
 * (statements ending in `;`): every step of the schema in order, for a new database, to read or to
 * feed your own migration tool. `migrate()` applies the same steps one by one, each once, under
 * `GET_LOCK`, and records each version it applied in `<prefix>migrations`.
 *
 * Design notes:
 * - `body`, `blocks` and `idempotency_key` hold JSON text (`JSON.stringify` of the value) in
 *   `utf8mb4` columns with a binary collation, not the `JSON` type: MySQL's `JSON` rewrites the
 *   text (key order, duplicate keys), and the escapes keep U+0000 and lone surrogates, so any
 *   JavaScript string comes back exactly. Read a body with `JSON_UNQUOTE(body)`.
 * - A key is unique per webhook through `key_hash`, the SHA-256 of the key's text: a unique index
 *   on a hash of 32 bytes holds a key of any length (an index on the text would stop at 3,072
 *   bytes). Rows without a key are `NULL` there, and `NULL`s never conflict.
 * - A message's `seq` is its place in the feed, taken from the one row of `<prefix>feed` under its
 *   row lock, in the insert's own transaction, right before the insert and the commit: the lock is
 *   held until the commit, so numbers commit in the order they are taken and a reader never sees
 *   a later one before an earlier one. An `AUTO_INCREMENT` id would not do: it is taken before the
 *   commit, and a row committed after a later-numbered one would be passed over. `epoch` tells this
 *   database's cursors from another's; `pruned_seq` is the last place `pruneMessages()` removed.
 * - Webhook times are epoch ms in `BIGINT`; a message's `created_at` is its ISO 8601 string, which
 *   sorts as it compares.
 * - There are no foreign keys: a webhook may outlive its channel (then it can only be revoked).
 * - The post history is a ring per webhook: `post_heads` counts each webhook's records, and the
 *   record numbered `position` takes the slot `position % 100` of `posts`, over the one 100 records
 *   before it. So it never holds more than 100 rows a webhook and a record never costs a delete.
 *
 * @example
 * ```ts
 * import { mysqlSchema } from 'channel-webhooks/mysql';
 * await writeFile('migrations/001_channel_webhooks.sql', mysqlSchema({ tablePrefix: 'hooks_' }));
 * ```
 */
export function mysqlSchema(options: MysqlSchemaOptions = {}): string {
  checkOptions('mysqlSchema', options, { tablePrefix: TABLE_PREFIX });
  const p = options.tablePrefix ?? DEFAULT_TABLE_PREFIX;
  return MIGRATIONS.flatMap((migration) => migration.statements(p).map((statement) => `${statement};\n`)).join('\n');
}

/** The steps after `version`, for a table prefix. */
export function migrationsAfter(version: number, prefix: string): Array<{ version: number; statements: string[] }> {
  return MIGRATIONS.filter((migration) => migration.version > version).map((migration) => ({
    version: migration.version,
    statements: migration.statements(prefix),
  }));
}
