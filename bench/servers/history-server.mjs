// One server of the history part, in its own process: `node history-server.mjs <memory|sqlite>
// <file> <webhooks> <on|off>`. The handler on node:http over a store that keeps the history of posts
// (`on`) or the same store without it (`off`); its limiter allows every post. It seeds its own
// webhooks, tells the parent its port and their paths, answers `cpu` with the CPU time it used since
// it last did, and exits when the parent disconnects.

import { createServer } from 'node:http';
import { portOf, tellParent } from '../child.mjs';

const [kind, file = '', webhooks, history] = process.argv.slice(2);
const { createMemoryRateLimiter, createMemoryStore, createWebhookHandler, createWebhookManager } = await import(
  'channel-webhooks'
);
const { createNodeListener } = await import('channel-webhooks/node');
/** @type {import('channel-webhooks').MemoryStore | import('channel-webhooks/sqlite').SqliteStore} */
let store;
if (kind === 'memory') store = createMemoryStore();
else {
  const [{ default: Database }, { createSqliteStore }] = await Promise.all([
    import('better-sqlite3'),
    import('channel-webhooks/sqlite'),
  ]);
  store = createSqliteStore({ database: new Database(file) });
}
store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
const manager = createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
/** @type {string[]} */
const paths = [];
for (let i = 0; i < Number(webhooks); i++) {
  const { url } = await manager.create({ userId: 'u1', role: 'owner' }, { channelId: 'general', name: `bench ${i}` });
  paths.push(new URL(url).pathname);
}
const handled = history === 'on' ? store : { ...store, recordPosts: undefined, listPosts: undefined };
const handle = createWebhookHandler({
  store: handled,
  rateLimiter: createMemoryRateLimiter({ limit: 1_000_000 }),
  onError: () => {},
});
const server = createServer(createNodeListener(handle));
server.listen(0, '127.0.0.1', () => tellParent({ type: 'ready', port: portOf(server), paths }));
let mark = process.cpuUsage();
process.on('message', (/** @type {{ type?: string }} */ message) => {
  if (message?.type !== 'cpu') return;
  const used = process.cpuUsage(mark);
  mark = process.cpuUsage();
  tellParent({ type: 'cpu', micros: used.user + used.system });
});
process.on('disconnect', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
