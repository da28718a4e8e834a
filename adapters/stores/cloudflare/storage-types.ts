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
  /** Every row, as an object keyed by column name. */
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
  sql: {
    /** Runs one statement with its `?` bindings. */
    exec(query: string, ...bindings: unknown[]): SqlCursorLike;
  };
  /** Runs `work` as one transaction: rolled back whole when it throws. */
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
  /** Sends one request to the object. */
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
  /** The id of the object of that name. */
  idFromName(name: string): unknown;
  /** The stub of the object of that id. */
  get(id: unknown): DurableObjectStubLike;
}
