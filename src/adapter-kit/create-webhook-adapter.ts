import { MILLISECONDS, required } from '../arguments/argument-rules.js';
import { checkArgument, checkOptions, type OptionsShape } from '../arguments/check-options.js';
import { HANDLE } from '../arguments/port-rules.js';
import type { WebhookRequest, WebhookResponse } from '../http/http-types.js';
import type { WebhookPath } from '../http/route.js';
import type { MaybePromise } from '../waiting/maybe-promise.js';
import type { WebhookHandler } from '../handler/handler-types.js';

/**
 * The handler as its adapters call it: the same answers as the public function, given as a value
 * when nothing on the way had to wait (a body already in hand, in-process ports) and as a promise
 * otherwise. It never throws and never rejects. An adapter that has matched the request's URL
 * already passes the match as `path`, so that no request is matched twice.
 */
export type RespondNow = (request: WebhookRequest, path?: WebhookPath | null) => MaybePromise<WebhookResponse>;

/** The only request headers the core reads, in lower case. */
export const CORE_HEADERS = ['content-type', 'content-length', 'transfer-encoding', 'idempotency-key'] as const;

/** The body deadline of the adapters when none is given, in ms. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/** The options every adapter factory takes. */
export interface AdapterOptions {
  /**
   * How long the whole request body may take to arrive, in ms, counted from when the adapter starts
   * reading it. A body still incomplete then is answered 400 with code `body_read_failed` (and
   * reported to `onError`). Default 10,000.
   */
  bodyTimeoutMs?: number;
}

/** What an adapter works with, from {@link openAdapterEntry}. */
export interface AdapterEntry {
  respond: RespondNow;
  /**
   * `true` when `respond` is the library's own handler, which reads only {@link CORE_HEADERS}, so
   * the adapter passes those alone; `false` for a handler the app wrapped, which may read any, so
   * the adapter passes them all.
   */
  coreHeadersOnly: boolean;
  /** The checked `bodyTimeoutMs`. */
  bodyTimeoutMs: number;
}

// Keyed by the public function, so that the public type stays a plain function.
const entries = new WeakMap<WebhookHandler, RespondNow>();

/** Records `respond` as the adapters' entry of `handler`. */
export function registerRespondNow(handler: WebhookHandler, respond: RespondNow): void {
  entries.set(handler, respond);
}

/**
 * The one way an adapter enters the core. It checks the factory's arguments, so that a mistake
 * fails when the app is built rather than on the first post: `handle` must be a function and
 * `options` an object of `bodyTimeoutMs` (a delay a timer can hold) and the adapter's own
 * `extraOptions`, and of nothing else; anything else throws a `ChannelWebhookError` with code
 * `invalid_argument` naming the factory (and, for an unknown option, the one meant). It then finds
 * the fast entry of a handler `createWebhookHandler` made, which answers with a value when nothing
 * had to wait; a handler the app wrote around it is called as it is, with every header.
 *
 * What every adapter built on it guarantees, so that each adapter's own page need not repeat it:
 *
 * - The core reads the body, not the framework: only once the method, URL, Content-Type and
 *   rate-limit checks passed, refusing a `Content-Length` over 65,536 bytes unread and never
 *   holding more than 65,537 bytes of a body sent without one.
 * - A body that has not wholly arrived `bodyTimeoutMs` after reading started is answered 400 with
 *   code `body_read_failed`, reported to `onError`, and (on Node) the connection is closed.
 * - Answers are the core's, status, headers and body, with a JSON content type where the core
 *   names none.
 *
 * @param handle - what the adapter factory was given as the core handler.
 * @param options - what it was given as options, possibly nothing.
 * @param factory - the factory's name, for error messages.
 * @param extraOptions - the adapter's options besides `bodyTimeoutMs`, with their rules.
 * @example
 * ```ts
 * const { respond, coreHeadersOnly, bodyTimeoutMs } = openAdapterEntry(handle, options, 'createFetchHandler', { fallback: fn() });
 * const answer = respond({ method, url, headers, body: (maxBytes) => readBody(maxBytes, bodyTimeoutMs) });
 * ```
 */
export function openAdapterEntry(handle: WebhookHandler, options: AdapterOptions | undefined, factory: string, extraOptions: OptionsShape = {}): AdapterEntry {
  checkArgument(factory, 'handle', handle, required(HANDLE));
  checkOptions(factory, options, { bodyTimeoutMs: MILLISECONDS, ...extraOptions }, 'options', true);
  const bodyTimeoutMs = options?.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const own = entries.get(handle);
  return own === undefined ? { respond: handle, coreHeadersOnly: false, bodyTimeoutMs } : { respond: own, coreHeadersOnly: true, bodyTimeoutMs };
}
