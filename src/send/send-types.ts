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
  /** Longest one attempt may take, answer body included, before it is abandoned and retried. Default 10 000. */
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
   * `eventId`, else a new key. When both are given they must be equal.
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
 * - `refused`: the endpoint refused the post; it is not retried.
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
  outcome: 'stored' | 'duplicate' | 'retry' | 'refused' | 'gave_up' | 'aborted';
  /** The answer's status, or `null` when there was none. */
  status: number | null;
  /** Why there was no usable answer: the connection failed, the attempt timed out, or a 2xx held no message. */
  error: 'network' | 'timeout' | 'bad_response' | null;
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
 *   429). Fix the payload, the URL or the channel; resending as it is will fail again.
 * - `not_sent`: nothing was sent: the payload is not JSON, or `idempotencyKey` differs from its `eventId`.
 * - `retries_exhausted`: every attempt met a transient failure (500, 429, a network error, a time-out).
 * - `deadline_exceeded`: `timeoutMs` ran out, or a 429 asked to wait past it.
 * - `aborted`: the caller's signal stopped the send.
 *
 * After the last three, the message may or may not be stored: send again later with the same
 * `idempotencyKey`, and it is stored exactly once.
 *
 * @example
 * ```ts
 * const giveUp: SendFailureCode[] = ['retries_exhausted', 'deadline_exceeded'];
 * ```
 */
export type SendFailureCode = 'refused' | 'not_sent' | 'retries_exhausted' | 'deadline_exceeded' | 'aborted';

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
  /** One sentence that names why, safe to log: it never holds the URL's secret. */
  message: string;
  idempotencyKey: string;
  attempts: number;
  /** The last answer's status, or `null` when the last attempt got none. */
  status: number | null;
  /** The last answer's problem body (with `errors` for a 400), or `null`. */
  problem: ProblemBody | null;
  /** What the endpoint last asked to wait before a retry (`Retry-After`), or `null`. */
  retryAfterMs: number | null;
  /** The error of the last attempt that got no answer (a network error), if any. */
  cause?: unknown;
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
