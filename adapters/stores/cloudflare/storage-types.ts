/**
 * The rows a `ctx.storage.sql.exec()` call gives: the part of Cloudflare's `SqlStorageCursor` the
 * store reads.
 *
 * @example
 * ```ts
 * const rows = ctx.storage.sql.exec('SELECT id FROM webhooks WHERE channel_id = ?', channelId).toArray();
 * ```
 */
export interface SqlCursorLike {
  toArray(): Record<string, unknown>[];
}

/**
 * The storage of a SQLite-backed Durable Object (`ctx.storage`), as the webhook object uses it:
 * the synchronous SQL API and `transactionSync`. Described here so that no Cloudflare type is a
 * dependency of the package.
 *
 * @example
 * ```ts
 * const storage: DurableObjectStorageLike = ctx.storage;
 * storage.transactionSync(() => storage.sql.exec('DELETE FROM rate_hits WHERE expires_at <= ?', now));
 * ```
 */
export interface DurableObjectStorageLike {
  sql: { exec(query: string, ...bindings: unknown[]): SqlCursorLike };
  transactionSync<T>(work: () => T): T;
}

/**
 * A stub of a Durable Object, as `namespace.get(id)` returns it: the store and the router call it
 * with `fetch` only.
 *
 * @example
 * ```ts
 * const stub: DurableObjectStubLike = env.CHANNEL_WEBHOOKS.get(env.CHANNEL_WEBHOOKS.idFromName('shard:AbC12'));
 * ```
 */
export interface DurableObjectStubLike {
  fetch(request: Request): Promise<Response>;
}

/**
 * A Durable Object namespace binding (`env.CHANNEL_WEBHOOKS`, bound in `wrangler.toml` to the class
 * `ChannelWebhooksObject`), as the store, the rate limiter and the router use it.
 *
 * @example
 * ```ts
 * const namespace: DurableObjectNamespaceLike = env.CHANNEL_WEBHOOKS;
 * ```
 */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): DurableObjectStubLike;
}
