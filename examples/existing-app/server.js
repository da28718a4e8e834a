// An Express app that already had users, channels and messages in SQLite, adding incoming webhooks:
// the store reads its channels table and writes each webhook message into its messages table, the
// management API sits behind the app's own sign-in, and the channel settings page shows the element
// only to those the library lets manage the channel (manager.canManage).
import { createServer } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import express from 'express';
import { createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createExpressManagementMiddleware, createExpressMiddleware } from 'channel-webhooks/express';
import { createManagementApi } from 'channel-webhooks/manage';
import { createSqliteStore } from 'channel-webhooks/sqlite';
import { createAppSchema } from './schema.js';

const ELEMENT = fileURLToPath(import.meta.resolve('channel-webhooks/element'));

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

const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/**
 * Builds the app on the SQLite file `file`.
 *
 * @param {object} options
 * @param {string} options.file - the app's database file.
 * @param {string} options.baseUrl - where the app is reachable; webhook URLs start with it.
 */
export function createApp({ file, baseUrl }) {
  const database = new Database(file);
  createAppSchema(database);
  const store = createSqliteStore({ database, channels: CHANNELS, messages: MESSAGES });
  const manager = createWebhookManager({ store, baseUrl });
  const handle = createWebhookHandler({ store });

  // The app's own sign-in: a bearer token (or cookie) of one of its users; their role is theirs.
  const signIn = database.prepare('SELECT id AS userId, role FROM users WHERE token = ?');
  const authenticate = (req) => {
    const token =
      /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ??
      /(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    return token === undefined ? null : (signIn.get(token) ?? null);
  };

  const app = express();
  app.disable('x-powered-by');
  // Before any body parser: the middleware reads (and size-limits) the webhook body itself.
  app.use(createExpressMiddleware(handle));
  app.use('/api/manage', createExpressManagementMiddleware(createManagementApi({ manager, authenticate, handle })));
  app.get('/element.js', (_req, res) => res.type('text/javascript').sendFile(ELEMENT));
  app.use(express.json());

  const channel = database.prepare('SELECT id, name FROM channels WHERE id = ?');
  const history = database.prepare(
    'SELECT kind, author_id AS authorId, coalesce(author_name, users.name) AS author, text, created_at AS createdAt FROM messages JOIN users ON users.id = author_id WHERE channel_id = ? ORDER BY seq',
  );
  const addMessage = database.prepare(
    "INSERT INTO messages (channel_id, kind, author_id, text, created_at) VALUES (?, 'person', ?, ?, ?)",
  );

  // The room's history, from the app's own table: people's posts and webhooks' in one order.
  app.get('/channels/:id/messages', (req, res) => {
    if (authenticate(req) === null) return res.status(401).json({ error: 'sign in' });
    if (channel.get(req.params.id) === undefined) return res.status(404).json({ error: 'no such channel' });
    res.json({ messages: history.all(req.params.id) });
  });
  app.post('/channels/:id/messages', (req, res) => {
    const user = authenticate(req);
    if (user === null) return res.status(401).json({ error: 'sign in' });
    if (typeof req.body?.text !== 'string' || req.body.text === '') return res.status(400).json({ error: 'text' });
    addMessage.run(req.params.id, user.userId, req.body.text, new Date().toISOString());
    res.status(201).json({ ok: true });
  });

  // The channel's settings page: the element for those who may manage its webhooks, a sentence for others.
  app.get('/channels/:id/settings', async (req, res) => {
    const user = authenticate(req);
    if (user === null) return res.status(401).type('text/plain').send('Sign in first.');
    const found = channel.get(req.params.id);
    if (found === undefined) return res.status(404).type('text/plain').send('No such channel.');
    const name = escapeHtml(found.name);
    const webhooks = (await manager.canManage(user, found.id))
      ? `<script type="module" src="/element.js"></script>
<channel-webhooks-settings api="/api/manage" channel-id="${escapeHtml(found.id)}"></channel-webhooks-settings>`
      : `<p>Only the owner of #${name} and the organization's admins manage its webhooks.</p>`;
    res.type('html').send(`<!doctype html>
<html lang="en"><meta charset="utf-8"><title>#${name}: settings</title>
<h1>#${name}: settings</h1>
${webhooks}
</html>`);
  });

  return { app, database, store, manager };
}

/**
 * Listens on `port` (0 picks a free one) on loopback, then builds the app with the origin it got.
 *
 * @param {object} [options]
 * @param {number} [options.port] - default PORT or 3000.
 * @param {string} [options.file] - default DATABASE_FILE or app.sqlite.
 */
export async function start({
  port = Number(process.env.PORT ?? 3000),
  file = process.env.DATABASE_FILE ?? 'app.sqlite',
} = {}) {
  let handler = (_req, res) => res.writeHead(503, { 'retry-after': '1' }).end();
  const server = createServer({ requestTimeout: 15_000, headersTimeout: 5_000 }, (req, res) => handler(req, res));
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const created = createApp({ file, baseUrl: origin });
  handler = created.app;
  server.on('close', () => created.database.close());
  return { server, origin, ...created };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { server, origin } = await start();
  console.log(`Listening on ${origin}`);
  console.log(
    `Settings of #general (as its owner): curl -H 'Authorization: Bearer ada-token' ${origin}/channels/general/settings`,
  );
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
