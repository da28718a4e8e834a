// The app's own schema and seed, as an app that had no webhooks already had them: its users (with
// the token its sign-in checks), its channels and its messages. The library adds only its own
// prefixed tables beside these, and reads and writes these through the store's options.

/** @param {import('better-sqlite3').Database} database */
export function createAppSchema(database) {
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
  `);
  // Demo accounts: Ada owns #general, Bob is a plain member, and "Webhooks" is the user the app
  // shows as the author of every webhook message. Tokens stand in for the app's real sessions.
  database.exec(`
    INSERT OR IGNORE INTO users VALUES
      ('u-ada', 'Ada', 'member', 'ada-token'),
      ('u-bob', 'Bob', 'member', 'bob-token'),
      ('u-webhooks', 'Webhooks', 'member', 'webhooks-user-cannot-sign-in');
    INSERT OR IGNORE INTO channels (id, name, owner_id) VALUES ('general', 'general', 'u-ada');
  `);
}
