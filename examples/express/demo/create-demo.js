// DEMO ONLY. The page `npm start` serves at `/`: a live view of one channel and the owner's webhook
// controls. Its routes have no sign-in, so they are refused unless the request comes over loopback
// to a loopback host name, and state changes must be same-origin JSON. A real app puts webhook
// management behind its own sign-in and permission checks instead (see examples/multi-instance).
import { fileURLToPath } from 'node:url';
import express from 'express';
import { toHtml } from 'channel-webhooks/render';

const PUBLIC = fileURLToPath(new URL('./public/', import.meta.url));
const STATUS = { forbidden: 403, channel_not_found: 404, webhook_not_found: 404, webhook_revoked: 409, channel_archived: 409 };

// No inline script or style anywhere: the page's script and stylesheet are files of this origin.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * True for a loopback address or name.
 *
 * @param {string} host
 */
export function isLoopback(host) {
  return host === 'localhost' || host === '::1' || host === '::ffff:127.0.0.1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The demo page and its management routes, and `publish`, which the handler's `onMessage` calls to
 * push each new message to every open page over Server-Sent Events.
 *
 * @param {object} options
 * @param {{ listMessages(channelId: string): Promise<import('channel-webhooks').Message[]>, getChannel(id: string): Promise<any>, putChannel(channel: any): Promise<void> }} options.store
 * @param {import('channel-webhooks').WebhookManager} options.manager
 * @param {import('channel-webhooks').Actor} options.actor - who the page acts as.
 * @param {string} options.channelId - the one channel the page shows.
 */
export function createDemo({ store, manager, actor, channelId }) {
  /** @type {Set<import('express').Response>} */
  const listeners = new Set();
  const event = (message) => `event: message\ndata: ${JSON.stringify(toEvent(message))}\n\n`;

  const router = express.Router();
  router.get('/', loopbackOnly, securityHeaders, (_req, res) => res.sendFile('index.html', { root: PUBLIC }));
  router.use('/demo', loopbackOnly, securityHeaders);
  router.use('/demo/assets', express.static(PUBLIC, { index: false, fallthrough: false }));

  const api = express.Router();
  api.use(sameOriginJson, express.json({ limit: '4kb' }));
  api.get(
    '/state',
    answer(async () => state()),
  );
  api.post(
    '/webhooks',
    answer(async (req) => manager.create(actor, { channelId, name: String(req.body?.name ?? '') })),
  );
  api.post(
    '/webhooks/:id/rotate',
    answer(async (req) => manager.rotate(actor, req.params.id)),
  );
  api.post(
    '/webhooks/:id/revoke',
    answer(async (req) => ({ webhook: await manager.revoke(actor, req.params.id) })),
  );
  api.post(
    '/channel',
    answer(async (req) => {
      const channel = await store.getChannel(channelId);
      await store.putChannel({ ...channel, archived: req.body?.archived === true });
      return state();
    }),
  );
  api.get('/events', async (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(': live\n\n'); // sends the headers now, so the page knows it is connected
    // Subscribe before reading the history, so nothing posted in between is missed; the page
    // drops the duplicates by message id.
    listeners.add(res);
    req.on('close', () => listeners.delete(res));
    for (const message of await store.listMessages(channelId)) res.write(event(message));
  });
  router.use('/demo/api', api);

  async function state() {
    const channel = await store.getChannel(channelId);
    return { channel: { id: channel.id, archived: channel.archived }, webhooks: await manager.list(actor, channelId) };
  }

  return {
    router,
    /** @param {import('channel-webhooks').Message} message */
    publish(message) {
      if (message.channelId !== channelId) return;
      const chunk = event(message);
      for (const res of listeners) res.write(chunk);
    },
  };
}

// A few emoji by name for the samples; others show as `:name:` unless the sender gave their code points.
const EMOJI = { rocket: '🚀', white_check_mark: '✅', tada: '🎉', warning: '⚠️', wave: '👋', fire: '🔥' };
const renderOptions = { emoji: ({ name }) => (name in EMOJI ? { text: EMOJI[name] } : undefined) };

/** What the page needs of a message. It is rendered here, so the page never parses message text. */
function toEvent(message) {
  return { id: message.id, author: message.author, createdAt: message.createdAt, html: toHtml(message, renderOptions) };
}

function answer(work) {
  return async (req, res) => {
    try {
      res.json(await work(req));
    } catch (error) {
      if (typeof error?.code !== 'string') throw error;
      res.status(STATUS[error.code] ?? 400).json({ code: error.code, message: error.message });
    }
  };
}

// The server listens on loopback, but a browser can still be made to reach it: a page elsewhere
// (cross-site requests) or a DNS name rebound to 127.0.0.1. So the peer and the Host header must be
// loopback, and every API call must be JSON from this very origin.
function loopbackOnly(req, res, next) {
  const hostname = new URL(`http://${req.headers.host ?? 'invalid'}`).hostname.replace(/^\[|\]$/g, '');
  if (isLoopback(req.socket.remoteAddress ?? '') && isLoopback(hostname)) return next();
  res.status(403).type('text/plain').send('The demo page is served to loopback only.');
}

function sameOriginJson(req, res, next) {
  const origin = req.headers.origin;
  const sameOrigin = origin === undefined || origin === `http://${req.headers.host}`;
  const json = req.method === 'GET' || req.is('application/json') === 'application/json';
  if (sameOrigin && json && req.headers['sec-fetch-site'] !== 'cross-site') return next();
  res.status(403).json({ code: 'forbidden', message: 'The demo API takes same-origin JSON requests only.' });
}

function securityHeaders(_req, res, next) {
  res.set({
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  });
  next();
}
