import type { DenoKv } from './deno-kv.js';
import {
  checkOptions,
  integer,
  MAX_TIMEOUT_MS,
  MILLISECONDS,
  port,
  required,
  rule,
  type OptionsShape,
} from '../../../src/store-kit/index.js';

/**
 * The options the Deno KV store and rate limiter share.
 *
 * @example
 * ```ts
 * const options: DenoKvConnectionOptions = { kv: await Deno.openKv(), keyPrefix: 'chat-hooks', timeoutMs: 2_000 };
 * ```
 */
export interface DenoKvConnectionOptions {
  /** The KV the app opened: `await Deno.openKv()` (on Deno Deploy, or locally a file path). */
  kv: DenoKv;
  /**
   * The first part of every key the store and the limiter write, so that they share a KV with the
   * app's own data. Default `'channel-webhooks'`.
   */
  keyPrefix?: string;
  /**
   * Deadline of each call in ms, its retries after lost races included; past it the call rejects
   * with `store_timeout` (or `rate_limiter_timeout`). Default 5,000 for the store, 1,000 for the
   * limiter: the handler's own deadlines for each.
   */
  timeoutMs?: number;
}

/** The checked options a factory runs with. */
export interface ResolvedDenoKvOptions {
  kv: DenoKv;
  prefix: string;
  timeoutMs: number;
}

/** The prefix used when none is given. */
export const DEFAULT_KEY_PREFIX = 'channel-webhooks';

const CONNECTION_OPTIONS: OptionsShape = {
  kv: required(
    port(
      'a Deno.Kv',
      ['get', 'getMany', 'list', 'atomic', 'watch', 'commitVersionstamp'],
      'Pass await Deno.openKv() (Deno 2 with --unstable-kv, or "unstable": ["kv"] in deno.json).',
    ),
  ),
  keyPrefix: rule(
    'a string of 1 to 100 characters',
    (value) => typeof value === 'string' && value.length >= 1 && value.length <= 100,
  ),
  timeoutMs: MILLISECONDS,
};

/** How often a watcher reads the feed's head besides watching it; see `DenoKvStoreOptions.feedPollMs`. */
export const FEED_POLL_MS = integer(0, MAX_TIMEOUT_MS);

/**
 * Checks the options of a Deno KV factory (the shared ones and the factory's `extraOptions`) and
 * fills in the shared defaults.
 */
export function resolveDenoKvOptions(
  factory: string,
  options: DenoKvConnectionOptions,
  defaultTimeoutMs: number,
  extraOptions: OptionsShape = {},
): ResolvedDenoKvOptions {
  checkOptions(factory, options, { ...CONNECTION_OPTIONS, ...extraOptions });
  return {
    kv: options.kv,
    prefix: options.keyPrefix ?? DEFAULT_KEY_PREFIX,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
  };
}
