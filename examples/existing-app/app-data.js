// The app's data on either database it runs on: its own queries (sign-in, a channel, the posts
// after a sequence number, a person's post) and the webhook store mapped onto its own tables. The
// rest of the app (server.js) does not know which database it is on.
import Database from 'better-sqlite3';
import pg from 'pg';
import { createPostgresStore } from 'channel-webhooks/postgres';
import { createSqliteStore } from 'channel-webhooks/sqlite';
import { createPostgresSchema, createSqliteSchema } from './schema.js';

/** Where the store reads the app's channels. */
export const CHANNELS = { table: 'channels', id: 'id', ownerId: 'owner_id', archived: 'archived' };

/** How each webhook message becomes a row of the app's messages table. */
export const MESSAGES = {
  table: 'messages',
  columns: {
    id: 'external_id',
    channelId: 'channel_id',
    authorName: 'author_name',
    body: 'text',
    createdAt: 'created_at',
  },
  values: { kind: 'webhook', author_id: 'u-webhooks' },
};

/** At most this many posts per read of the room's history, so a long history streams in pages. */
const PAGE = 100;

/**
 * @typedef {object} Post - one row of the room's history, a person's or a webhook's.
 * @property {number} seq - its place in the app's messages table.
 * @property {'person' | 'webhook'} kind
 * @property {string} author - the webhook's name, or the person's.
 * @property {string} text
 * @property {string} createdAt - ISO 8601.
 */

/**
 * @typedef {object} AppData
 * @property {string} database - `'sqlite'` or `'postgres'`.
 * @property {import('channel-webhooks').WebhookStore} store
 * @property {(token: string) => Promise<{ userId: string, role: string } | null>} signIn
 * @property {(id: string) => Promise<{ id: string, name: string } | null>} channel
 * @property {(channelId: string, afterSeq: number) => Promise<Post[]>} postsAfter
 * @property {(channelId: string, userId: string, text: string) => Promise<void>} addPost
 * @property {() => Promise<void>} close
 */

/**
 * Opens the app's database: PostgreSQL when `databaseUrl` is given, else the SQLite file `file`.
 *
 * @param {{ databaseUrl?: string, file?: string }} options
 * @returns {Promise<AppData>}
 */
export function openAppData({ databaseUrl, file }) {
  return databaseUrl ? openPostgres(databaseUrl) : Promise.resolve(openSqlite(file ?? 'app.sqlite'));
}

/** @param {string} file @returns {AppData} */
function openSqlite(file) {
  const database = new Database(file);
  createSqliteSchema(database);
  const store = createSqliteStore({ database, channels: CHANNELS, messages: MESSAGES });
  const signIn = database.prepare('SELECT id AS userId, role FROM users WHERE token = ?');
  const channel = database.prepare('SELECT id, name FROM channels WHERE id = ?');
  const posts = database.prepare(
    `SELECT seq, kind, coalesce(author_name, users.name) AS author, text, created_at AS createdAt
     FROM messages JOIN users ON users.id = author_id
     WHERE channel_id = ? AND seq > ? ORDER BY seq LIMIT ${PAGE}`,
  );
  const add = database.prepare(
    "INSERT INTO messages (channel_id, kind, author_id, text, created_at) VALUES (?, 'person', ?, ?, ?)",
  );
  return {
    database: 'sqlite',
    store,
    signIn: async (token) => signIn.get(token) ?? null,
    channel: async (id) => channel.get(id) ?? null,
    postsAfter: async (channelId, afterSeq) => posts.all(channelId, afterSeq),
    addPost: async (channelId, userId, text) => {
      add.run(channelId, userId, text, new Date().toISOString());
    },
    close: async () => database.close(),
  };
}

/** @param {string} databaseUrl @returns {Promise<AppData>} */
async function openPostgres(databaseUrl) {
  const pool = new pg.Pool({ connectionString: databaseUrl, statement_timeout: 5_000, connectionTimeoutMillis: 5_000 });
  pool.on('error', (error) => console.error('PostgreSQL: an idle connection failed:', error.message));
  await createPostgresSchema(pool);
  const store = createPostgresStore({ pool, channels: CHANNELS, messages: MESSAGES });
  await store.migrate();
  const first = async (text, values) => (await pool.query(text, values)).rows[0] ?? null;
  return {
    database: 'postgres',
    store,
    signIn: (token) => first('SELECT id AS "userId", role FROM users WHERE token = $1', [token]),
    channel: (id) => first('SELECT id, name FROM channels WHERE id = $1', [id]),
    postsAfter: async (channelId, afterSeq) =>
      (
        await pool.query(
          `SELECT seq::int, kind, coalesce(author_name, users.name) AS author, text,
             to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
           FROM messages JOIN users ON users.id = author_id
           WHERE channel_id = $1 AND seq > $2 ORDER BY seq LIMIT ${PAGE}`,
          [channelId, afterSeq],
        )
      ).rows,
    addPost: async (channelId, userId, text) => {
      await pool.query(
        "INSERT INTO messages (channel_id, kind, author_id, text, created_at) VALUES ($1, 'person', $2, $3, now())",
        [channelId, userId, text],
      );
    },
    close: () => pool.end(),
  };
}
