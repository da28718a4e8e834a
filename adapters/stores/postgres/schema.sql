-- Schema of channel-webhooks/postgres for the default table prefix "channel_webhooks_", at its
-- current version: for a new database, the same text as postgresSchema(). It records every step in
-- channel_webhooks_migrations, so store.migrate() afterwards has nothing to do; for a database of an
-- earlier version, run store.migrate() or the steps of postgresMigrations() instead. For another
-- prefix, use postgresSchema({ tablePrefix }).

CREATE TABLE channel_webhooks_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE channel_webhooks_channels (
  id text PRIMARY KEY,
  owner_id text NOT NULL,
  archived boolean NOT NULL DEFAULT false
);

CREATE TABLE channel_webhooks_webhooks (
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

CREATE INDEX channel_webhooks_webhooks_channel_idx ON channel_webhooks_webhooks (channel_id, created_at, seq);

CREATE TABLE channel_webhooks_messages (
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

CREATE UNIQUE INDEX channel_webhooks_messages_key_idx ON channel_webhooks_messages (webhook_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE INDEX channel_webhooks_messages_channel_feed_idx ON channel_webhooks_messages (channel_id, tx, seq);

CREATE TABLE channel_webhooks_post_log (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  webhook_ids text[] NOT NULL,
  records json NOT NULL,
  folded integer[] NOT NULL
);
ALTER TABLE channel_webhooks_post_log ALTER COLUMN records SET STORAGE EXTERNAL;

CREATE TABLE channel_webhooks_post_chunks (
  webhook_id text NOT NULL,
  position bigint NOT NULL,
  length integer NOT NULL,
  records json NOT NULL,
  PRIMARY KEY (webhook_id, position)
);

CREATE TABLE channel_webhooks_feed (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  epoch text NOT NULL DEFAULT substr(md5(random()::text || clock_timestamp()::text), 1, 8),
  pruned_tx xid8 NOT NULL DEFAULT '0',
  pruned_seq bigint NOT NULL DEFAULT 0
);

INSERT INTO channel_webhooks_feed DEFAULT VALUES ON CONFLICT DO NOTHING;

INSERT INTO channel_webhooks_migrations (version, name) VALUES (1, 'tables'), (2, 'webhook_last_post_at'), (3, 'partial_idempotency_key_index'), (4, 'webhook_profile'), (5, 'post_history'), (6, 'message_feed'), (7, 'post_log') ON CONFLICT (version) DO NOTHING;
