/**
 * One part of a Deno KV key, as `Deno.KvKeyPart` has it, plus the symbol of
 * `kv.commitVersionstamp()`, which a `set` may end its key with.
 *
 * @example
 * ```ts
 * const key: DenoKvKeyPart[] = ['channel-webhooks', 'webhook', 'wh_5kQ2R1rWmH0bV8sYq3XJ9w'];
 * ```
 */
export type DenoKvKeyPart = Uint8Array | string | number | bigint | boolean | symbol;

/**
 * A key, value and versionstamp as Deno KV reads them (`Deno.KvEntryMaybe`): `value` and
 * `versionstamp` are `null` when the key has no value.
 *
 * @example
 * ```ts
 * const entry: DenoKvEntry = await kv.get(['channel-webhooks', 'version']);
 * if (entry.versionstamp === null) console.log('a new KV');
 * ```
 */
export interface DenoKvEntry {
  key: readonly DenoKvKeyPart[];
  value: unknown;
  versionstamp: string | null;
}

/**
 * What the store needs of an atomic operation (`Deno.AtomicOperation`).
 *
 * @example
 * ```ts
 * const result = await kv.atomic().check({ key, versionstamp: null }).set(key, 1).commit();
 * ```
 */
export interface DenoKvAtomicOperation {
  check(...checks: { key: readonly DenoKvKeyPart[]; versionstamp: string | null }[]): DenoKvAtomicOperation;
  set(key: readonly DenoKvKeyPart[], value: unknown, options?: { expireIn?: number }): DenoKvAtomicOperation;
  delete(key: readonly DenoKvKeyPart[]): DenoKvAtomicOperation;
  commit(): Promise<{ ok: true; versionstamp: string } | { ok: false }>;
}

/**
 * What the Deno KV store and rate limiter need of a `Deno.Kv`: the app opens it (`Deno.openKv()`)
 * and passes it in. Described by its shape, so that this entry point needs no Deno types and imports
 * nothing Deno-specific: it loads in Node, Bun and Workers too, where it is simply never given a KV.
 * A `Deno.Kv` fits as it is.
 *
 * @example
 * ```ts
 * const kv: DenoKv = await Deno.openKv('data/webhooks.kv');
 * ```
 */
export interface DenoKv {
  get(key: readonly DenoKvKeyPart[]): Promise<DenoKvEntry>;
  getMany(keys: readonly (readonly DenoKvKeyPart[])[]): Promise<DenoKvEntry[]>;
  list(
    selector: { prefix: readonly DenoKvKeyPart[]; start?: readonly DenoKvKeyPart[] },
    options?: { limit?: number; reverse?: boolean },
  ): AsyncIterable<DenoKvEntry>;
  atomic(): DenoKvAtomicOperation;
  watch(keys: readonly (readonly DenoKvKeyPart[])[]): ReadableStream<DenoKvEntry[]>;
  commitVersionstamp(): symbol;
}
