// The two stores the SQLite part compares, each with its own limiter: memory, or SQLite on a file
// (WAL, synchronous NORMAL: the store's defaults). The limiters allow a million posts per webhook
// per minute, so that every post is stored (a 201) and the runs measure the store, not refusals.

export const LIMIT = 1_000_000;

/** Opens `kind` (on `file` for SQLite), seeds `webhooks` webhooks when asked; returns the handler and their paths. */
export async function openBenchStore(kind, file, webhooks) {
  const { createMemoryRateLimiter, createMemoryStore, createWebhookHandler, createWebhookManager } = await import('channel-webhooks');
  let store;
  let rateLimiter;
  if (kind === 'memory') {
    store = createMemoryStore();
    rateLimiter = createMemoryRateLimiter({ limit: LIMIT });
  } else {
    const [{ default: Database }, { createSqliteRateLimiter, createSqliteStore }] = await Promise.all([
      import('better-sqlite3'),
      import('channel-webhooks/sqlite'),
    ]);
    const database = new Database(file);
    store = createSqliteStore({ database });
    rateLimiter = createSqliteRateLimiter({ database, limit: LIMIT });
  }
  const paths = [];
  if (webhooks > 0) {
    store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    const manager = createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
    for (let i = 0; i < webhooks; i++) {
      const { url } = await manager.create({ userId: 'u1', role: 'owner' }, { channelId: 'general', name: `bench ${i}` });
      paths.push(new URL(url).pathname);
    }
  }
  return { handle: createWebhookHandler({ store, rateLimiter }), paths };
}
