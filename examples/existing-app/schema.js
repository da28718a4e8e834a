// The app's own schema and seed, as an app that had no webhooks already had them: its users (with
// the token its sign-in checks), its channels and its messages, in SQLite or in PostgreSQL. The
// library adds only its own prefixed tables beside these, and reads and writes these through the
// store's options.

// Demo accounts: Ada owns #general, Bob is a plain member, and "Webhooks" is the user the app
// shows as the author of every webhook message. Tokens stand in for the app's real sessions.
const SEED_USERS = `('u-ada', 'Ada', 'member', 'ada-token'),
  ('u-bob', 'Bob', 'member', 'bob-token'),
  ('u-webhooks', 'Webhooks', 'member', 'webhooks-user-cannot-sign-in')`;

/** @param {import('better-sqlite3').Database} database */
export function createSqliteSchema(database) {
  database.exec(`
    CREATE TABLE IF NOT EXISTS users (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      token TEXT NOT NULL UNIQUE
    );
    CREATE TABLE IF NOT EXISTS channels (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      owner_id TEXT NOT NULL REFERENCES users(id),
      archived INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS messages (
      seq INTEGER PRIMARY KEY,
      external_id TEXT UNIQUE,
      channel_id TEXT NOT NULL REFERENCES channels(id),
      kind TEXT NOT NULL CHECK (kind IN ('person', 'webhook')),
      author_id TEXT NOT NULL REFERENCES users(id),
      author_name TEXT,
      text TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    INSERT OR IGNORE INTO users VALUES ${SEED_USERS};
    INSERT OR IGNORE INTO channels (id, name, owner_id) VALUES ('general', 'general', 'u-ada');
  `);
}

/**
 * The same tables in PostgreSQL, with its own types: `archived` is a boolean (the store reads it as
 * one), `external_id` a uuid and `created_at` a timestamptz, which the store's values are converted to.
 *
 * @param {import('pg').Pool} pool
 */
export async function createPostgresSchema(pool) {
  await pool.query(`
    CREATE TABLE IF NOT EXISTS users (
      id text PRIMARY KEY,
      name text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      token text NOT NULL UNIQUE
    );
    CREATE TABLE IF NOT EXISTS channels (
      id text PRIMARY KEY,
      name text NOT NULL,
      owner_id text NOT NULL REFERENCES users(id),
      archived boolean NOT NULL DEFAULT false
    );
    CREATE TABLE IF NOT EXISTS messages (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      external_id uuid UNIQUE,
      channel_id text NOT NULL REFERENCES channels(id),
      kind text NOT NULL CHECK (kind IN ('person', 'webhook')),
      author_id text NOT NULL REFERENCES users(id),
      author_name text,
      text text NOT NULL,
      created_at timestamptz NOT NULL
    );
    INSERT INTO users VALUES ${SEED_USERS} ON CONFLICT DO NOTHING;
    INSERT INTO channels (id, name, owner_id) VALUES ('general', 'general', 'u-ada') ON CONFLICT DO NOTHING;
  `);
}
