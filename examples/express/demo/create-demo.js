// DEMO ONLY. The page `npm start` serves at `/`: a live view of one channel beside the settings
// element, <channel-webhooks-settings>, on the management API. The demo has no sign-in: its
// `authenticate` lets in the page itself, over loopback, as the channel's owner. A real app signs its
// users in instead (see docs/settings-element.md and examples/multi-instance).
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createExpressManagementMiddleware, serveFeedEvents } from 'channel-webhooks/express';
import { createManagementApi } from 'channel-webhooks/manage';
import { toHtml } from 'channel-webhooks/render';
import { escapeForLog } from '../../shared/log-message.js';

const PUBLIC = fileURLToPath(new URL('./public/', import.meta.url));
// The element as an app serves it: the package's built file, one module with no imports.
const ELEMENT = fileURLToPath(import.meta.resolve('channel-webhooks/element'));
// The rendered messages' stylesheet, the package's file as it ships.
const RENDER_CSS = fileURLToPath(import.meta.resolve('channel-webhooks/render.css'));

// No inline script or style anywhere: the page's script and stylesheet are files of this origin, and
// the element's styles are a constructed stylesheet. Avatars of webhooks are https images.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https:",
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
 * The demo page, the management API it manages the channel's webhooks with (under
 * `/demo/api/manage`) and the channel's messages. The page gets them from the store's feed over
 * Server-Sent Events: the history first, then each new message; after a disconnect or a server
 * restart its EventSource resumes after the last message it showed.
 *
 * @param {object} options
 * @param {import('channel-webhooks').WebhookStore & { putChannel(channel: any): unknown }} options.store
 * @param {import('channel-webhooks').WebhookManager} options.manager
 * @param {import('channel-webhooks').WebhookHandler} options.handle - the endpoint, for the element's test message.
 * @param {import('channel-webhooks').Actor} options.actor - who the page acts as.
 * @param {string} options.channelId - the one channel the page shows.
 * @param {typeof toHtml} [options.render] - renders a message to HTML; `toHtml` unless a test swaps it.
 * @param {AbortSignal} [options.signal] - aborted at shutdown: ends the message streams.
 */
export function createDemo({ store, manager, handle, actor, channelId, render = toHtml, signal }) {
  const router = express.Router();
  router.get('/', loopbackOnly, securityHeaders, (_req, res) => res.sendFile('index.html', { root: PUBLIC }));
  router.use('/demo', loopbackOnly, securityHeaders);
  router.get('/demo/element.js', (_req, res) => res.type('text/javascript').sendFile(ELEMENT));
  router.get('/demo/render.css', (_req, res) => res.type('text/css').sendFile(RENDER_CSS));
  router.use('/demo/assets', express.static(PUBLIC, { index: false, fallthrough: false }));

  // The demo's sign-in: the page, and nothing else, is the channel's owner. Anyone else is signed
  // out (401); a page of another site is refused by the API itself (403).
  const authenticate = (req) => (fromThePage(req) ? actor : null);
  router.use(
    '/demo/api/manage',
    createExpressManagementMiddleware(createManagementApi({ manager, authenticate, handle })),
  );
  // Each event's id is the message's feed cursor: the browser sends the last one back when it
  // reconnects, and the stream goes on right after it.
  router.get('/demo/api/events', (req, res) => {
    if (!fromThePage(req))
      return res.status(403).json({ code: 'forbidden', message: 'The message stream is for the demo page only.' });
    serveFeedEvents(req, res, {
      store,
      channelId,
      retryMs: 1_000,
      signal,
      data: ({ message }) => toEvent(message, render),
    });
  });
  router.use(answerWithoutInternals);
  return { router };
}

/**
 * What the page needs of a message. It is rendered here, so the page never parses message text.
 * A message that fails to render gets `html: null` (the page shows a placeholder) instead of
 * stopping the history or the live stream at it.
 */
function toEvent(message, render) {
  let html = null;
  try {
    html = String(render(message));
  } catch (error) {
    console.error(`demo: message ${message.id} could not be rendered: ${escapeForLog(error?.message ?? error)}`);
  }
  return { id: message.id, author: message.author, createdAt: message.createdAt, html };
}

// The server listens on loopback, but a browser can still be made to reach it: a page elsewhere
// (cross-site requests) or a DNS name rebound to 127.0.0.1. So the peer and the Host header must be
// loopback, and every API call must be JSON from this very origin.
function loopbackOnly(req, res, next) {
  const hostname = hostnameOf(req.headers.host);
  if (hostname === null) return res.status(400).type('text/plain').send('Bad Host header.');
  if (isLoopback(req.socket.remoteAddress ?? '') && isLoopback(hostname)) return next();
  res.status(403).type('text/plain').send('The demo page is served to loopback only.');
}

/** The host name of a Host header, without brackets; null when it is missing or not a host. */
function hostnameOf(host) {
  if (typeof host !== 'string' || host === '') return null;
  try {
    return new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
}

// A proxy on the same machine (nginx's default `Host $proxy_host`) makes both peer and Host
// loopback for anyone who reaches the proxy. So a call must also show that the page made it:
// browsers send `Sec-Fetch-Site: same-origin` on the page's own fetches and EventSource, and
// `Origin` on its POSTs; a plain HTTP client sends neither. Either one present must say this origin.
function fromThePage(req) {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  const sameOrigin =
    (origin === undefined || origin === `http://${req.headers.host}`) && (site === undefined || site === 'same-origin');
  return sameOrigin && (origin !== undefined || site !== undefined);
}

/**
 * Express error handler: a route that fails (a body that is not JSON, a store that throws) answers
 * its status without internals. Express's default error page shows the stack, with absolute paths,
 * outside production.
 *
 * @param {any} error
 * @param {import('express').Request} _req
 * @param {import('express').Response} res
 * @param {import('express').NextFunction} _next
 */
export function answerWithoutInternals(error, _req, res, _next) {
  const status = Number.isInteger(error?.status) && error.status >= 400 && error.status < 500 ? error.status : 500;
  if (status === 500) console.error(`request failed: ${escapeForLog(error?.message ?? error)}`);
  if (res.headersSent) return res.end();
  res.status(status).json({
    code: status === 500 ? 'internal' : 'bad_request',
    message: status === 500 ? 'The demo failed.' : 'Bad request.',
  });
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
