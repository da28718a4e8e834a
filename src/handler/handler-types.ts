import type { WebhookRequest, WebhookResponse } from '../http/http-types.js';
import type { WebhookPath } from '../http/route.js';
import type { Clock, MaybePromise, Message, PostHistoryStore, PostStore, RateLimiter } from '../ports.js';
import type { ErrorContext } from '../reporting/error-context.js';

// Re-exported: the handler and the Durable Object import the shape from here.
export type { ErrorContext, ErrorStage } from '../reporting/error-context.js';

/**
 * Options of {@link createWebhookHandler}.
 *
 * @example
 * ```ts
 * const options: WebhookHandlerOptions = { store, rateLimiter, onRateLimiterError: 'reject', storeTimeoutMs: 2_000 };
 * const handle = createWebhookHandler(options);
 * ```
 */
export interface WebhookHandlerOptions {
  /**
   * Where webhooks and messages live: any `WebhookStore`, of which the handler calls what posts need
   * (a {@link PostStore}) and, when the store has a history, `recordPosts`.
   */
  store: PostStore & Partial<PostHistoryStore>;
  /** Counts requests per webhook. Default: a new in-memory limiter (60 per 60 s) on `clock`. */
  rateLimiter?: RateLimiter;
  /** Time source. Default: {@link systemClock}. */
  clock?: Clock;
  /**
   * Called once for every newly stored message (not for duplicates), after the store accepted it;
   * the host app fans it out to its clients here. Not awaited: it never delays or changes the
   * answer. A throw or rejection goes to `onError` with stage `on_message`.
   */
  onMessage?: (message: Message) => void | Promise<void>;
  /**
   * Called for failures the sender only sees as a status: store and limiter errors and time-outs,
   * `onMessage` failures, bodies cut off or too slow, a failure inside the library; and for those
   * the sender never sees: a history write that failed, timed out or was dropped (stage
   * `history`). The context ({@link ErrorContext}) gives the stage and the webhook id; the error
   * never contains the secret. Default: one line per failure on `console.error` (stage, webhook
   * id, error), identical failures at most one line every 10 s with a count of the others; a hook
   * given here replaces it.
   */
  onError?: (error: unknown, context: ErrorContext) => void;
  /**
   * What to do when the rate limiter fails or times out: `'allow'` (default) lets the request go on
   * unthrottled and reports the error to `onError`; `'reject'` answers 500.
   */
  onRateLimiterError?: 'allow' | 'reject';
  /**
   * Deadline for each store call that answers with a promise, in ms; past it the answer is 500.
   * Default 5,000, at most 2,147,483,647. An answer given synchronously (the in-memory store's) has
   * nothing to wait for and gets no timer.
   */
  storeTimeoutMs?: number;
  /** Deadline for each rate-limiter call that answers with a promise, in ms. Default 1,000. */
  rateLimiterTimeoutMs?: number;
}

/**
 * Turns one normalized request into its answer. Never rejects.
 *
 * @example
 * ```ts
 * const handle: WebhookHandler = createWebhookHandler({ store });
 * const res = await handle({ method: 'POST', url, headers, body });
 * ```
 */
export interface WebhookHandler {
  (request: WebhookRequest): Promise<WebhookResponse>;
  /** Only on a handler from `createWebhookHandler`: a wrapper an app writes around it has none. */
  readonly fastPath?: FastPath;
}

/**
 * How adapters call a handler from {@link createWebhookHandler}: its answers for a request whose URL
 * is matched already, as a value when nothing had to wait and as a promise otherwise.
 *
 * @example
 * ```ts
 * const { fastPath } = createWebhookHandler({ store });
 * const path = matchWebhookPath(url);
 * const answer = path === null ? null : fastPath?.handleMatched({ method, url, headers, body }, path);
 * ```
 */
export interface FastPath {
  /** The only request headers the handler reads, in lower case: an adapter passes these alone. */
  readonly headerNames: readonly string[];
  /** Answers a request whose URL matched `path`, headers in lower case. Never throws or rejects. */
  handleMatched(request: WebhookRequest, path: WebhookPath): MaybePromise<WebhookResponse>;
}
