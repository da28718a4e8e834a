import { ChannelWebhookError, checkOptions } from '../../../src/store-kit/index.js';
import { DEFAULT_TABLE_PREFIX, TABLE_PREFIX } from '../sql/index.js';
import type { PostgresSchemaOptions } from './schema.js';

/**
 * One step of the PostgreSQL schema, as {@link postgresMigrations} gives it: its version, a name for
 * what it adds, and its SQL for one table prefix, which also records the step in `<prefix>migrations`.
 *
 * @example
 * ```ts
 * const step: PostgresMigration = postgresMigrations().at(-1)!;
 * await writeFile(`V${step.version}__${step.name}.sql`, step.sql);
 * ```
 */
export interface PostgresMigration {
  /** The schema version this step brings the tables to. */
  version: number;
  /** What the step adds, in `snake_case` (`message_feed`). */
  name: string;
  /** The step's statements, then the line that records it in `<prefix>migrations`. */
  sql: string;
}

/**
 * A step of the schema. Steps are applied in order, each once, and never changed once released.
 * Each is written so that it also brings up a database made before versions were recorded, whose
 * earlier `migrate()` ran every `CREATE … IF NOT EXISTS` of its release and added nothing else: a
 * table or index of a later step may already be there, a column of a later step never is.
 */
interface Step {
  version: number;
  name: string;
  sql: (p: string) => string;
  /** True when the tables already have what the step adds: how a database without a record is placed. */
  present: (p: string) => string;
}

const STEPS: readonly Step[] = [
  {
    version: 1,
    name: 'tables',
    sql: (p) => `CREATE TABLE IF NOT EXISTS ${p}channels (
  id text PRIMARY KEY,
  owner_id text NOT NULL,
  archived boolean NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS ${p}webhooks (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  channel_id text NOT NULL,
  name text NOT NULL,
  secret_hash text NOT NULL,
  created_by text NOT NULL,
  created_at bigint NOT NULL,
  rotated_at bigint,
  revoked_at bigint
);
CREATE INDEX IF NOT EXISTS ${p}webhooks_channel_idx ON ${p}webhooks (channel_id, created_at, seq);
CREATE TABLE IF NOT EXISTS ${p}messages (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  channel_id text NOT NULL,
  webhook_id text NOT NULL,
  author_name text NOT NULL,
  body json NOT NULL,
  blocks json NOT NULL,
  created_at timestamptz NOT NULL,
  idempotency_key text,
  CONSTRAINT ${p}messages_key UNIQUE (webhook_id, idempotency_key)
);
CREATE INDEX IF NOT EXISTS ${p}messages_channel_idx ON ${p}messages (channel_id, seq);
`,
    present: (p) => `to_regclass('${p}webhooks') IS NOT NULL`,
  },
  {
    version: 2,
    name: 'webhook_last_post_at',
    sql: (p) => `ALTER TABLE ${p}webhooks ADD COLUMN IF NOT EXISTS last_post_at bigint;
`,
    present: (p) => hasColumn(p, 'webhooks', 'last_post_at'),
  },
  {
    version: 3,
    // Only keyed messages in the key's index; an earlier migrate() made this index beside the
    // constraint on a database of version 2, so the constraint goes here whether or not it did.
    name: 'partial_idempotency_key_index',
    sql: (
      p,
    ) => `CREATE UNIQUE INDEX IF NOT EXISTS ${p}messages_key_idx ON ${p}messages (webhook_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
ALTER TABLE ${p}messages DROP CONSTRAINT IF EXISTS ${p}messages_key;
`,
    present: (p) =>
      `to_regclass('${p}messages_key_idx') IS NOT NULL AND NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = to_regclass('${p}messages') AND conname = '${p}messages_key')`,
  },
  {
    version: 4,
    name: 'webhook_profile',
    sql: (
      p,
    ) => `ALTER TABLE ${p}webhooks ADD COLUMN IF NOT EXISTS description text, ADD COLUMN IF NOT EXISTS avatar_url text;
`,
    present: (p) => hasColumn(p, 'webhooks', 'description'),
  },
  {
    version: 5,
    name: 'post_history',
    sql: (p) => `CREATE TABLE IF NOT EXISTS ${p}post_heads (
  webhook_id text PRIMARY KEY,
  next bigint NOT NULL
) WITH (fillfactor = 70);
CREATE TABLE IF NOT EXISTS ${p}posts (
  webhook_id text NOT NULL,
  slot integer NOT NULL,
  position bigint NOT NULL,
  at bigint NOT NULL,
  status integer NOT NULL,
  code text,
  errors json NOT NULL,
  idempotency_key text,
  message_id text,
  body_bytes integer,
  count integer NOT NULL,
  PRIMARY KEY (webhook_id, slot)
) WITH (fillfactor = 70);
`,
    present: (p) => `to_regclass('${p}posts') IS NOT NULL`,
  },
  {
    version: 6,
    // The feed's place of a message is (tx, seq). Messages stored before it get tx 0, below every
    // real transaction id, so they come first and in their old order, and a constant default adds
    // the column without rewriting the table; the key and the channel index are built anew.
    name: 'message_feed',
    sql: (p) => `ALTER TABLE ${p}messages ADD COLUMN IF NOT EXISTS tx xid8 NOT NULL DEFAULT '0';
ALTER TABLE ${p}messages ALTER COLUMN tx SET DEFAULT pg_current_xact_id();
ALTER TABLE ${p}messages DROP CONSTRAINT ${p}messages_pkey;
ALTER TABLE ${p}messages ADD CONSTRAINT ${p}messages_pkey PRIMARY KEY (tx, seq);
CREATE INDEX IF NOT EXISTS ${p}messages_channel_feed_idx ON ${p}messages (channel_id, tx, seq);
DROP INDEX IF EXISTS ${p}messages_channel_idx;
CREATE TABLE IF NOT EXISTS ${p}feed (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  epoch text NOT NULL DEFAULT substr(md5(random()::text || clock_timestamp()::text), 1, 8),
  pruned_tx xid8 NOT NULL DEFAULT '0',
  pruned_seq bigint NOT NULL DEFAULT 0
);
INSERT INTO ${p}feed DEFAULT VALUES ON CONFLICT DO NOTHING;
`,
    present: (p) => hasColumn(p, 'messages', 'tx'),
  },
  {
    version: 7,
    // The history as a log in post order, folded into chunks per webhook (see `postgresSchema`).
    // Each webhook's ring becomes one chunk of its records in their order, ending where its head
    // did, so listPosts answers as before; no database without a record can have this step.
    name: 'post_log',
    sql: (p) => `${postHistoryTablesSql(p)}INSERT INTO ${p}post_chunks (webhook_id, position, length, records)
SELECT webhook_id, max(position) + 1 - count(*), count(*),
  json_agg(json_build_array(status, at, count, code, errors::text, idempotency_key, message_id, body_bytes) ORDER BY position)
FROM ${p}posts GROUP BY webhook_id;
DROP TABLE ${p}posts, ${p}post_heads;
`,
    present: (p) => `to_regclass('${p}post_log') IS NOT NULL`,
  },
];

/**
 * The tables of the post history since version 7: the log that posts append to and the chunks it
 * is folded into (see `postgresSchema`). The log's records are stored out of line uncompressed: a
 * batch is written once and read once, and compressing it cost more than the rest of its append.
 */
export function postHistoryTablesSql(p: string): string {
  return `CREATE TABLE ${p}post_log (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  webhook_ids text[] NOT NULL,
  records json NOT NULL,
  folded integer[] NOT NULL
);
ALTER TABLE ${p}post_log ALTER COLUMN records SET STORAGE EXTERNAL;

CREATE TABLE ${p}post_chunks (
  webhook_id text NOT NULL,
  position bigint NOT NULL,
  length integer NOT NULL,
  records json NOT NULL,
  PRIMARY KEY (webhook_id, position)
);
`;
}

function hasColumn(p: string, table: string, column: string): string {
  return `EXISTS (SELECT FROM pg_attribute WHERE attrelid = to_regclass('${p}${table}') AND attname = '${column}' AND NOT attisdropped)`;
}

/**
 * The schema version this release writes and reads. `migrate()` records each version it applied in
 * `<prefix>migrations`, one table per prefix (or schema on the search path).
 *
 * @example
 * ```ts
 * const { rows } = await pool.query('SELECT max(version) AS version FROM channel_webhooks_migrations');
 * if (rows[0].version !== POSTGRES_SCHEMA_VERSION) console.warn('run store.migrate()');
 * ```
 */
export const POSTGRES_SCHEMA_VERSION = STEPS[STEPS.length - 1]!.version;

/** The SQLSTATE the migration raises for tables of a newer release (class `CW`, no server's own). */
export const SCHEMA_TOO_NEW_SQLSTATE = 'CW001';

/** The table that records the applied steps, for a prefix. */
export function migrationsTableSql(p: string, ifNotExists = true): string {
  return `CREATE TABLE ${ifNotExists ? 'IF NOT EXISTS ' : ''}${p}migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);
`;
}

/** The line that records `steps` as applied. */
export function recordStepsSql(p: string, steps: ReadonlyArray<{ version: number; name: string }>): string {
  const rows = steps.map((step) => `(${step.version}, '${step.name}')`).join(', ');
  return `INSERT INTO ${p}migrations (version, name) VALUES ${rows} ON CONFLICT (version) DO NOTHING;
`;
}

/** The version and name of every step: what a database of the current schema records. */
export function allSteps(): ReadonlyArray<{ version: number; name: string }> {
  return STEPS.map(({ version, name }) => ({ version, name }));
}

/**
 * Every step of the PostgreSQL schema, in order, as SQL for one table prefix: for a migration tool
 * of your own (Prisma, Drizzle, Flyway, Atlas, …) that applies files in order, or to run a step
 * ahead of a deploy. Each step records itself in `<prefix>migrations`, as `migrate()` does, so that
 * `migrate()` afterwards finds nothing left to do. The first step creates that table.
 * A database made before versions were recorded is for `migrate()`, which finds its version by what
 * its tables hold.
 *
 * @example
 * ```ts
 * import { postgresMigrations } from 'channel-webhooks/postgres';
 * for (const step of postgresMigrations({ tablePrefix: 'hooks_' })) {
 *   await writeFile(`migrations/V${step.version}__channel_webhooks_${step.name}.sql`, step.sql);
 * }
 * ```
 */
export function postgresMigrations(options: PostgresSchemaOptions = {}): PostgresMigration[] {
  checkOptions('postgresMigrations', options, { tablePrefix: TABLE_PREFIX });
  const p = options.tablePrefix ?? DEFAULT_TABLE_PREFIX;
  return STEPS.map((step) => ({
    version: step.version,
    name: step.name,
    sql: `${step.version === 1 ? migrationsTableSql(p) : ''}${step.sql(p)}${recordStepsSql(p, [step])}`,
  }));
}

/**
 * The migration, as one simple-protocol query, so one transaction on one connection whatever the
 * pool (PgBouncer in transaction mode included), in one round trip:
 * - `pg_advisory_xact_lock`, keyed by the prefix, makes instances that migrate at once take turns;
 *   each later statement reads what the one before it committed (READ COMMITTED);
 * - tables without a record (made before versions were recorded) are placed by what they hold: the
 *   steps whose additions are all there, in order, are recorded as applied;
 * - tables of a newer release raise {@link SCHEMA_TOO_NEW_SQLSTATE} before anything is changed;
 * - every step not recorded runs, in order, each recorded in the same transaction, so a failed one
 *   leaves nothing: by its record rather than by the highest version, so that a step released
 *   beside another of a higher number is not passed over.
 */
export function migrateSql(p: string, lockKey: number): string {
  const detect = STEPS.map((step) => `WHEN NOT (${step.present(p)}) THEN ${step.version - 1}`).join('\n      ');
  const known = STEPS.map((step) => `(${step.version}, '${step.name}')`).join(', ');
  const apply = STEPS.map(
    (step) => `  IF NOT EXISTS (SELECT FROM ${p}migrations WHERE version = ${step.version}) THEN
    EXECUTE $step$${step.sql(p)}$step$;
    INSERT INTO ${p}migrations (version, name) VALUES (${step.version}, '${step.name}');
  END IF;`,
  ).join('\n');
  return `SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
SELECT pg_advisory_xact_lock(${lockKey});
${migrationsTableSql(p)}DO $migrate$
DECLARE
  at_version integer;
BEGIN
  IF NOT EXISTS (SELECT FROM ${p}migrations) THEN
    at_version := CASE
      ${detect}
      ELSE ${POSTGRES_SCHEMA_VERSION}
    END;
    INSERT INTO ${p}migrations (version, name)
      SELECT version, name FROM (VALUES ${known}) AS step (version, name) WHERE version <= at_version;
  END IF;
  SELECT coalesce(max(version), 0) INTO at_version FROM ${p}migrations;
  IF at_version > ${POSTGRES_SCHEMA_VERSION} THEN
    RAISE EXCEPTION 'PostgreSQL store: the tables of prefix ''${p}'' are at schema version %, newer than this release''s ${POSTGRES_SCHEMA_VERSION}: upgrade channel-webhooks', at_version
      USING ERRCODE = '${SCHEMA_TOO_NEW_SQLSTATE}';
  END IF;
${apply}
END
$migrate$;
`;
}

/** The failure of the migration, or `schema_too_new` for tables of a newer release. */
export function refuseNewerSchema(error: unknown): never {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause?.code === SCHEMA_TOO_NEW_SQLSTATE) {
    throw new ChannelWebhookError('schema_too_new', String(cause.message), { cause });
  }
  throw error;
}
