import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createNodeListener, createNodeManagementListener } from '../../adapters/frameworks/node/index.js';
import { createPostgresStore } from '../../adapters/stores/postgres/index.js';
import { createSqliteStore } from '../../adapters/stores/sqlite/index.js';
import {
  createMemoryRateLimiter,
  createMemoryStore,
  createWebhookHandler,
  createWebhookManager,
  type Message,
  type WebhookStore,
} from '../../src/index.js';
import { createManagementApi } from '../../src/manage/index.js';
import { listen } from '../support/http.js';

/** A store kind the element's tests run on. */
export type StoreKind = 'memory' | 'sqlite' | 'postgres';

/** The app's sessions: the channel's owner, a member who may not manage it, and an organization admin. */
export const SESSIONS = {
  owner: { userId: 'u-owner', role: 'member' },
  stranger: { userId: 'u-stranger', role: 'member' },
  admin: { userId: 'u-admin', role: 'admin' },
} as const;

/** The page's Content-Security-Policy: the demo's, with https images for avatars. No inline script or style. */
export const PAGE_CSP = [
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

const page = (channelId: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Integrations of #general</title>
  <link rel="stylesheet" href="/page.css">
  <script type="module" src="/element.js"></script>
</head>
<body>
  <main>
    <h1>Integrations of #general</h1>
    <channel-webhooks-settings api="/api/manage" channel-id="${channelId}" channel-name="#general"></channel-webhooks-settings>
  </main>
</body>
</html>
`;

const PAGE_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; padding: 1.5rem 1rem; background: #ffffff; color: #1f2328; }
@media (prefers-color-scheme: dark) { body { background: #0d1117; color: #e6edf3; } }
main { max-width: 52rem; margin: 0 auto; }
h1 { font-size: 1.375rem; margin: 0 0 1.25rem; }
`;

/** The page, the built element, the management API (a session cookie signs in) and the webhook endpoint, on one loopback server. */
export interface ElementApp {
  /** The page's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** The channel the page shows (`general`, or one of its own on PostgreSQL). */
  channelId: string;
  /** Where the webhook URLs point: the page's origin, or `http://localhost:<port>` (another origin, the same server) for `webhooks: 'other-origin'`. */
  webhookOrigin: string;
  store: WebhookStore & {
    putChannel(channel: { id: string; ownerId: string; archived: boolean }): unknown;
    listMessages(channelId: string): Message[] | Promise<Message[]>;
  };
  close(): Promise<void>;
}

/**
 * Starts the app the element's tests drive: a real store of `kind`, the real management API behind
 * a cookie sign-in (`session=owner|stranger|admin`), and the real webhook endpoint.
 */
export async function startElementApp(options: {
  store: StoreKind;
  webhooks?: 'same-origin' | 'other-origin';
  databaseUrl?: string | null;
}): Promise<ElementApp> {
  const opened = await openStore(options.store, options.databaseUrl ?? null);
  const store = opened.store;
  // PostgreSQL keeps its tables for the whole run: each app gets a channel of its own there.
  const channelId = options.store === 'postgres' ? `general-${process.pid}-${++postgresApps}` : 'general';
  await store.putChannel({ id: channelId, ownerId: SESSIONS.owner.userId, archived: false });
  const element = readFileSync(new URL('../../dist/element.js', import.meta.url), 'utf8');
  const handle = createWebhookHandler({ store, rateLimiter: createMemoryRateLimiter() });

  let listener: RequestListener = (_req, res) => void res.writeHead(503).end();
  const server = await listen(createServer((req, res) => listener(req, res)));
  const webhookOrigin =
    options.webhooks === 'other-origin' ? `http://localhost:${new URL(server.origin).port}` : server.origin;
  const manager = createWebhookManager({ store, baseUrl: webhookOrigin });
  const api = createManagementApi<IncomingMessage>({
    manager,
    basePath: '/api/manage',
    handle,
    authenticate: (req) =>
      SESSIONS[(/(?:^|;\s*)session=(\w+)/.exec(req.headers.cookie ?? '')?.[1] ?? '') as keyof typeof SESSIONS] ?? null,
  });
  const files: RequestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file =
      path === '/'
        ? { type: 'text/html', body: page(channelId) }
        : path === '/element.js'
          ? { type: 'text/javascript', body: element }
          : path === '/page.css'
            ? { type: 'text/css', body: PAGE_CSS }
            : null;
    if (file === null) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res
      .writeHead(200, {
        'content-type': `${file.type}; charset=utf-8`,
        'content-security-policy': PAGE_CSP,
        'cache-control': 'no-store',
      })
      .end(file.body);
  };
  listener = createNodeManagementListener(api, { fallback: createNodeListener(handle, { fallback: files }) });
  return {
    origin: server.origin,
    channelId,
    webhookOrigin,
    store,
    close: async () => {
      await server.close();
      await opened.close();
    },
  };
}

let postgresApps = 0;

async function openStore(
  kind: StoreKind,
  databaseUrl: string | null,
): Promise<{ store: ElementApp['store']; close(): Promise<void> }> {
  if (kind === 'memory') return { store: createMemoryStore(), close: async () => undefined };
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'cw-element-'));
    const database = new Database(join(dir, 'app.sqlite'));
    return {
      store: createSqliteStore({ database }),
      close: async () => {
        database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (databaseUrl === null) throw new Error('PostgreSQL is not running');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const store = createPostgresStore({ pool, tablePrefix: 'cwtest_element_' });
  await store.migrate();
  return { store, close: () => pool.end() };
}
