import type { ProblemBody } from '../http/problem.js';
import type { Clock, Message } from '../ports.js';
import type { WebhookPayload } from '../validation/payload-types.js';

/**
 * Options of {@link createWebhookSender}. Every time is in milliseconds.
 *
 * @example
 * ```ts
 * const options: WebhookSenderOptions = { url: process.env.CHANNEL_WEBHOOK_URL!, maxAttempts: 8, timeoutMs: 120_000 };
 * ```
 */
export interface WebhookSenderOptions {
  /** The webhook's secret URL, exactly as it was shown at creation or rotation. */
  url: string;
  /** Most attempts per logical event, the first included. Default 5. */
  maxAttempts?: number;
  /**
   * Total time for one event, retries and waits included: no attempt starts after it and no wait
   * runs past it. Default 90 000 (a 429 may ask for up to a minute).
   */
  timeoutMs?: number;
  /**
   * Longest one attempt may take, answer body included, before it is abandoned and retried. Default
   * 10 000. Whatever the time, at most 1 MiB of an answer is read (see {@link SendFailureCode}).
   */
  attemptTimeoutMs?: number;
  /** The backoff's first ceiling: before retry n, a wait drawn uniformly from [0, min(maxDelayMs, baseDelayMs × 2ⁿ⁻¹)). Default 500. */
  baseDelayMs?: number;
  /** The backoff's largest ceiling. Default 30 000. */
  maxDelayMs?: number;
  /** The `fetch` to post with. Default: the global `fetch`. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Uniform random numbers in [0, 1) for the backoff's jitter. Default `Math.random`. */
  random?: () => number;
  /** Waits `ms`, and rejects when `signal` aborts. Default: a timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Time, for the total deadline and for a `Retry-After` given as a date. Default `systemClock`. */
  clock?: Clock;
  /** Makes the idempotency key of an event that brings none. Default `crypto.randomUUID()`. */
  createKey?: () => string;
}

/**
 * Options of one {@link WebhookSender.send}.
 *
 * @example
 * ```ts
 * const options: SendOptions = { idempotencyKey: `deploy-${build.id}`, signal: AbortSignal.timeout(30_000) };
 * ```
 */
export interface SendOptions {
  /**
   * The event's idempotency key, sent as `Idempotency-Key` on every attempt. Default: the payload's
   * `eventId`, else a new key. When both are given they must be equal. A key a header cannot carry
   * as it is (a character outside printable ASCII, or white space at either end, which HTTP strips)
   * travels as the payload's `eventId` alone, added to the payload when it has none.
   */
  idempotencyKey?: string;
  /** Stops the send: no further attempt or wait. The result is then `aborted`. */
  signal?: AbortSignal;
  /** Called after every attempt, with what it came to and what happens next. */
  onAttempt?: (attempt: SendAttempt) => void;
}

/**
 * One attempt, as {@link SendOptions.onAttempt} sees it.
 *
 * - `stored`: a new message (201). `duplicate`: a message stored earlier under the key (200).
 * - `retry`: a transient failure; the next attempt comes after `retryInMs`.
 * - `refused`: the endpoint refused the post (a 3xx redirect included); it is not retried.
 * - `answer_too_large`: the answer's body was over 1 MiB; it is not read further, nor retried.
 * - `gave_up`: a transient failure, and no attempt or time is left.
 * - `aborted`: the caller's signal stopped it.
 *
 * @example
 * ```ts
 * const onAttempt = (attempt: SendAttempt) =>
 *   console.error(`attempt ${attempt.attempt}: ${attempt.status ?? attempt.error} in ${attempt.durationMs} ms, ${attempt.outcome}`);
 * ```
 */
export interface SendAttempt {
  /** 1 for the first attempt. */
  attempt: number;
  idempotencyKey: string;
  outcome: 'stored' | 'duplicate' | 'retry' | 'refused' | 'answer_too_large' | 'gave_up' | 'aborted';
  /** The answer's status, or `null` when there was none. */
  status: number | null;
  /**
   * Why there was no usable answer: no connection could be made (`no_connection`: refused, no such
   * host, unreachable, a bad certificate; nothing was sent), the connection failed once made
   * (`network`), the attempt timed out, or a 2xx held no message.
   */
  error: 'no_connection' | 'network' | 'timeout' | 'bad_response' | null;
  durationMs: number;
  /** The wait before the next attempt, or `null` when there is none. */
  retryInMs: number | null;
}

/**
 * A send that ended with the message stored: newly (`duplicate: false`, 201), or earlier under the
 * same key (`duplicate: true`, 200), which is also the answer when an earlier attempt of this very
 * send stored it but its answer was lost.
 *
 * @example
 * ```ts
 * const result = await sender.send({ text: 'Deploy finished' });
 * if (result.ok) console.log(result.message.id, result.duplicate ? '(already there)' : '');
 * ```
 */
export interface SendSuccess {
  ok: true;
  message: Message;
  duplicate: boolean;
  status: 200 | 201;
  idempotencyKey: string;
  attempts: number;
}

/**
 * Why a send failed, each a stable code:
 *
 * - `refused`: the endpoint refused the post (400, 404, 409, 413, 415, or any other 4xx but 408 and
 *   429), or answered with a redirect (any 3xx: a webhook URL is never redirected, and the post is
 *   never sent on to another location). Fix the payload, the URL or the channel; resending as it is
 *   will fail again.
 * - `not_sent`: nothing was sent: the payload is not JSON, `idempotencyKey` differs from its
 *   `eventId`, or the key can travel neither in a header nor as the payload's `eventId`.
 * - `answer_too_large`: the answer's body was over 1 MiB (the endpoint's answers are a few KiB), so
 *   what answered is not this endpoint as it should be; the rest is not read, and the post is not
 *   retried. Check the URL.
 * - `retries_exhausted`: every attempt met a transient failure (5xx, 408, 429, a network error, a time-out).
 * - `deadline_exceeded`: `timeoutMs` ran out, or a 429 asked to wait past it.
 * - `aborted`: the caller's signal stopped the send.
 *
 * Whether the message may be stored all the same is {@link SendFailure.possiblyStored}: if it is,
 * send again later with the same `idempotencyKey`, and it is stored exactly once.
 *
 * @example
 * ```ts
 * const giveUp: SendFailureCode[] = ['retries_exhausted', 'deadline_exceeded'];
 * ```
 */
export type SendFailureCode =
  | 'refused'
  | 'not_sent'
  | 'answer_too_large'
  | 'retries_exhausted'
  | 'deadline_exceeded'
  | 'aborted';

/**
 * An error as a failure carries it: its name, code and message with the webhook URL's secret taken
 * out, and its own cause a few levels deep; nothing else of the original (no stack, no properties
 * such as a URL it was built from), so that a log of the failure never holds the secret.
 *
 * @example
 * ```ts
 * const cause: SendErrorCause = { name: 'TypeError', message: 'fetch failed', cause: { name: 'Error', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:8080' } };
 * ```
 */
export interface SendErrorCause {
  name: string;
  /** The error's `code` (`ECONNREFUSED`, `UND_ERR_SOCKET`), when it has one. */
  code?: string;
  message: string;
  cause?: SendErrorCause;
}

/**
 * A send that ended without a stored message, and why.
 *
 * @example
 * ```ts
 * const result = await sender.send(payload);
 * if (!result.ok && result.code === 'refused') for (const e of result.problem?.errors ?? []) console.error(e.pointer, e.message);
 * ```
 */
export interface SendFailure {
  ok: false;
  code: SendFailureCode;
  /** One sentence that names why, safe to log: it never holds the URL's secret. Times are in seconds. */
  message: string;
  idempotencyKey: string;
  attempts: number;
  /** The last answer's status, or `null` when the last attempt got none (or a browser hid a redirect's). */
  status: number | null;
  /** The last answer's problem body (with `errors` for a 400), or `null`. */
  problem: ProblemBody | null;
  /** What the endpoint last asked to wait before a retry (`Retry-After`), or `null`. */
  retryAfterMs: number | null;
  /**
   * Whether an attempt may have stored the message although the send failed: `true` after a
   * time-out, a connection lost once made, a 5xx or an unreadable 2xx (send again with the same
   * key); `false` when no attempt could have (every one was refused, answered 429 or 408, or found
   * no connection).
   */
  possiblyStored: boolean;
  /** The error of the last attempt that got no answer (a network error), scrubbed; see {@link SendErrorCause}. */
  cause?: SendErrorCause;
}

/**
 * The outcome of a send: a value, never an exception.
 *
 * @example
 * ```ts
 * const result: SendResult = await sender.send({ text: 'hi' });
 * ```
 */
export type SendResult = SendSuccess | SendFailure;

/**
 * Posts payloads to one webhook.
 *
 * @example
 * ```ts
 * const sender: WebhookSender = createWebhookSender({ url });
 * await sender.send({ text: 'Deploy finished' }, { idempotencyKey: 'deploy-42' });
 * ```
 */
export interface WebhookSender {
  /**
   * Posts `payload` as one logical event, retrying transient failures with the same idempotency
   * key. Resolves with a {@link SendResult}; rejects only when `onAttempt` throws.
   */
  send(payload: WebhookPayload, options?: SendOptions): Promise<SendResult>;
}
