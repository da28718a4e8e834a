// An Express app that already had users, channels and messages (in SQLite, or in PostgreSQL when
// DATABASE_URL is set) and its own live delivery of posts to the browser, adding incoming webhooks:
// the store reads its channels table and writes each webhook message into its messages table, so
// the room's own stream shows webhook posts between people's; the management API sits behind the
// app's own sign-in, and the channel settings page shows the element only to those the library
// lets manage the channel (manager.canManage).
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import express from 'express';
import { createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createExpressManagementMiddleware, createExpressMiddleware } from 'channel-webhooks/express';
import { createManagementApi } from 'channel-webhooks/manage';
import { openAppData } from './app-data.js';

export { CHANNELS, MESSAGES } from './app-data.js';

const ELEMENT = fileURLToPath(import.meta.resolve('channel-webhooks/element'));
const ROOM_SCRIPT = fileURLToPath(new URL('./room.js', import.meta.url));

/** How long the stream waits for a nudge before it reads the table anyway (a post by another process). */
const POLL_MS = 1_000;

const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

// System colours follow the reader's light or dark setting with contrast that holds in both.
const page = (title, body) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
  body { margin: 0 auto; max-width: 44rem; padding: 1rem; background: Canvas; color: CanvasText; }
  #posts { list-style: none; padding: 0; }
  #posts li { padding: 0.5rem 0; border-bottom: 1px solid GrayText; }
  .author { font-weight: 600; margin-inline-end: 0.5rem; }
  .badge { font-size: 0.8rem; border: 1px solid currentColor; border-radius: 0.25rem; padding: 0 0.25rem; margin-inline-end: 0.5rem; }
  form { display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: center; }
  input { flex: 1; min-width: 10rem; font: inherit; padding: 0.25rem 0.5rem; }
  button { font: inherit; padding: 0.25rem 0.75rem; }
</style></head>
<body>
${body}
</body></html>`;

/**
 * Builds the app on its database: PostgreSQL at `databaseUrl` when given, else the SQLite file `file`.
 *
 * @param {object} options
 * @param {string} options.baseUrl - where the app is reachable; webhook URLs start with it.
 * @param {string} [options.databaseUrl] - the app's PostgreSQL.
 * @param {string} [options.file] - the app's SQLite file, when there is no `databaseUrl`.
 */
export async function createApp({ baseUrl, databaseUrl, file }) {
  const data = await openAppData({ databaseUrl, file });
  const { store } = data;
  const manager = createWebhookManager({ store, baseUrl });

  // The app's own live delivery reads its messages table; a post stored by this process, a
  // person's or a webhook's (onMessage), wakes it at once instead of at the next poll.
  const posted = new EventEmitter().setMaxListeners(0);
  const nudge = () => posted.emit('post');
  const handle = createWebhookHandler({ store, onMessage: nudge });

  // The app's own sign-in: a bearer token (or cookie) of one of its users; their role is theirs.
  const authenticate = (req) => {
    const token =
      /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ??
      /(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    return token === undefined ? null : data.signIn(token);
  };

  const app = express();
  app.disable('x-powered-by');
  // Before any body parser: the middleware reads (and size-limits) the webhook body itself.
  app.use(createExpressMiddleware(handle));
  app.use('/api/manage', createExpressManagementMiddleware(createManagementApi({ manager, authenticate, handle })));
  app.get('/element.js', (_req, res) => res.type('text/javascript').sendFile(ELEMENT));
  app.get('/room.js', (_req, res) => res.type('text/javascript').sendFile(ROOM_SCRIPT));
  app.use(express.json());

  // Every route below is the signed-in user's view of one channel.
  const room = async (req, res) => {
    const user = await authenticate(req);
    if (user === null) {
      res.status(401).type('text/plain').send('Sign in first.');
      return null;
    }
    const channel = await data.channel(req.params.id);
    if (channel === null) {
      res.status(404).type('text/plain').send('No such channel.');
      return null;
    }
    return { user, channel };
  };

  // The room's history, from the app's own table: people's posts and webhooks' in one order.
  app.get('/channels/:id/messages', async (req, res) => {
    if ((await room(req, res)) === null) return;
    const after = Number(req.query.after ?? 0);
    res.json({ messages: await data.postsAfter(req.params.id, Number.isSafeInteger(after) ? after : 0) });
  });
  app.post('/channels/:id/messages', async (req, res) => {
    const found = await room(req, res);
    if (found === null) return;
    const text = req.body?.text;
    if (typeof text !== 'string' || text.trim() === '' || text.length > 4_000)
      return res.status(400).json({ error: 'text: 1 to 4,000 characters' });
    await data.addPost(found.channel.id, found.user.userId, text);
    nudge();
    res.status(201).json({ ok: true });
  });

  // The app's live delivery: its posts table as Server-Sent Events, each event's id its sequence
  // number, so a browser that reconnects (after a restart too) resumes after the last post it got.
  const streams = new AbortController();
  app.get('/channels/:id/events', async (req, res) => {
    const found = await room(req, res);
    if (found === null) return;
    const lastId = Number(req.get('last-event-id') ?? 0);
    let after = Number.isSafeInteger(lastId) && lastId > 0 ? lastId : 0;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    res.write('retry: 500\n\n');
    const closed = new AbortController();
    res.on('close', () => closed.abort());
    const signal = AbortSignal.any([streams.signal, closed.signal]);
    try {
      while (!signal.aborted) {
        const posts = await data.postsAfter(found.channel.id, after);
        for (const post of posts) {
          res.write(`id: ${post.seq}\nevent: post\ndata: ${JSON.stringify(post)}\n\n`);
          after = post.seq;
        }
        if (posts.length === 0) await nextNudge(posted, signal, POLL_MS);
      }
    } catch (error) {
      // The database failed mid-stream: the browser reconnects and resumes after the last post.
      console.error('stream of', found.channel.id, 'stopped:', error.message);
    }
    res.end();
    // At shutdown the connection goes too: the browser would otherwise reconnect on it, kept alive,
    // to a server that is closing, and hold server.close() open.
    if (streams.signal.aborted) req.socket.end();
  });

  app.get('/channels/:id', async (req, res) => {
    const found = await room(req, res);
    if (found === null) return;
    const name = escapeHtml(found.channel.name);
    res.type('html').send(
      page(
        `#${name}`,
        `<header><h1>#${name}</h1><p><a href="/channels/${escapeHtml(found.channel.id)}/settings">Settings of #${name}</a></p></header>
<main data-channel-id="${escapeHtml(found.channel.id)}">
  <p id="live" role="status">connecting…</p>
  <ol id="posts" aria-label="Messages of #${name}"></ol>
  <form id="post">
    <label for="text">Message</label>
    <input id="text" name="text" required maxlength="4000" autocomplete="off">
    <button type="submit">Send</button>
  </form>
</main>
<script type="module" src="/room.js"></script>`,
      ),
    );
  });

  // The channel's settings page: the element for those who may manage its webhooks, a sentence for others.
  app.get('/channels/:id/settings', async (req, res) => {
    const found = await room(req, res);
    if (found === null) return;
    const name = escapeHtml(found.channel.name);
    const webhooks = (await manager.canManage(found.user, found.channel.id))
      ? `<script type="module" src="/element.js"></script>
<channel-webhooks-settings api="/api/manage" channel-id="${escapeHtml(found.channel.id)}"></channel-webhooks-settings>`
      : `<p>Only the owner of #${name} and the organization's admins manage its webhooks.</p>`;
    res.type('html').send(
      page(
        `#${name}: settings`,
        `<header><h1>#${name}: settings</h1><p><a href="/channels/${escapeHtml(found.channel.id)}">Back to #${name}</a></p></header>
<main>
${webhooks}
</main>`,
      ),
    );
  });

  const endStreams = () => streams.abort();
  const close = async () => {
    endStreams();
    await data.close();
  };
  return { app, data, store, manager, endStreams, close };
}

/** Resolves at the next post, at `signal`'s abort, or after `ms`, whichever comes first. */
function nextNudge(posted, signal, ms) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      posted.off('post', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    posted.on('post', done);
    signal.addEventListener('abort', done);
  });
}

/**
 * Listens on `port` (0 picks a free one) on loopback, then builds the app with the origin it got.
 *
 * @param {object} [options]
 * @param {number} [options.port] - default PORT or 3000.
 * @param {string} [options.databaseUrl] - default DATABASE_URL: PostgreSQL when set.
 * @param {string} [options.file] - default DATABASE_FILE or app.sqlite, when there is no database URL.
 */
export async function start({
  port = Number(process.env.PORT ?? 3000),
  databaseUrl = process.env.DATABASE_URL,
  file = process.env.DATABASE_FILE ?? 'app.sqlite',
} = {}) {
  let handler = (_req, res) => res.writeHead(503, { 'retry-after': '1' }).end();
  const server = createServer({ requestTimeout: 15_000, headersTimeout: 5_000 }, (req, res) => handler(req, res));
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const created = await createApp({ baseUrl: origin, databaseUrl, file });
  handler = created.app;
  // At shutdown the streams end and every answer goes with `Connection: close`, so no kept-alive
  // connection holds server.close() open; the database closes once the requests in flight are answered.
  let stopping = false;
  const answering = new Set();
  server.on('request', (_req, res) => {
    if (stopping) res.setHeader('connection', 'close');
    answering.add(res);
    res.on('close', () => answering.delete(res));
  });
  const stop = async () => {
    stopping = true;
    for (const res of answering) if (!res.headersSent) res.setHeader('connection', 'close');
    const closed = new Promise((resolve) => server.close(resolve));
    created.endStreams();
    await closed;
    await created.close();
  };
  return { server, origin, stop, ...created };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { origin, data, stop } = await start();
  console.log(`Listening on ${origin} (${data.database})`);
  console.log(`The room #general, as Bob: open ${origin}/channels/general with the cookie session=bob-token`);
  console.log(
    `Settings of #general (as its owner): curl -H 'Authorization: Bearer ada-token' ${origin}/channels/general/settings`,
  );
  const shutdown = () => stop().then(() => process.exit(0));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
