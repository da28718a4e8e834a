import { systemClock } from '../clock.js';
import { fn, integer, MILLISECONDS, required } from '../arguments/argument-rules.js';
import { checkOptions, type OptionsShape } from '../arguments/check-options.js';
import { CLOCK } from '../arguments/port-rules.js';
import type { WebhookPayload } from '../validation/payload-types.js';
import { postOnce, type AttemptResult } from './post-once.js';
import { prepareRequest } from './prepare-request.js';
import { MAX_ANSWER_BYTES } from './read-answer.js';
import { backoffDelay } from './retry-timing.js';
import { createScrubber } from './scrub.js';
import type {
  SendAttempt,
  SendErrorCause,
  SendFailure,
  SendFailureCode,
  SendOptions,
  SendResult,
  WebhookSender,
  WebhookSenderOptions,
} from './send-types.js';
import { WEBHOOK_URL } from './webhook-url.js';

const DEFAULTS = { maxAttempts: 5, timeoutMs: 90_000, attemptTimeoutMs: 10_000, baseDelayMs: 500, maxDelayMs: 30_000 };

type Settings = typeof DEFAULTS &
  Required<Pick<WebhookSenderOptions, 'url' | 'fetch' | 'random' | 'sleep' | 'clock' | 'createKey'>> & {
    scrub: (text: string) => string;
  };
type Transient = Extract<AttemptResult, { kind: 'transient' }>;

/**
 * Creates a client that posts to one webhook and follows the endpoint's recovery rules: one
 * idempotency key per logical event (the caller's, the payload's `eventId`, or a new one) sent as
 * `Idempotency-Key` on every attempt, and never a second, different key in the payload; retries of
 * 5xx, 408, 429, network errors and time-outs with exponential backoff and full jitter, within
 * `maxAttempts` and `timeoutMs`; on 429 (or 503) it waits as `Retry-After` (or `RateLimit`) asks;
 * 400, 404, 409, 413, 415 and every other refusal are never retried. `200 duplicate` is success.
 *
 * Safe against an endpoint that misbehaves: a redirect (any 3xx) is a refusal and is never followed,
 * so the body, the key and the secret URL go nowhere else; at most 1 MiB of an answer is read; and
 * nothing in a result holds the URL's secret (errors are kept as {@link SendErrorCause}s).
 *
 * Web standards only (`fetch`, `AbortController`, timers): it runs on Node ≥ 20, Bun, Deno,
 * Cloudflare Workers and in browsers (where the endpoint must allow the `Idempotency-Key` header by CORS).
 *
 * @param options - the URL and the retry policy; see {@link WebhookSenderOptions} for the defaults.
 * @returns a {@link WebhookSender}.
 * @throws ChannelWebhookError `invalid_argument` for a URL that is not http(s) or has user info
 *   (`user:password@`; the message never quotes the URL), or an option out of range.
 * @example
 * ```ts
 * import { createWebhookSender } from 'channel-webhooks/send';
 *
 * const sender = createWebhookSender({ url: process.env.CHANNEL_WEBHOOK_URL! });
 * const result = await sender.send({ text: 'Deploy 42 finished' }, { idempotencyKey: 'deploy-42' });
 * if (result.ok) console.log('stored as', result.message.id);
 * else console.error(result.code, result.message); // 'refused', 'retries_exhausted', …
 * ```
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const settings = checkSenderOptions(options);
  return { send: (payload, sendOptions = {}) => send(settings, payload, sendOptions) };
}

const FACTORY = 'createWebhookSender';

const OPTIONS: OptionsShape = {
  url: required(WEBHOOK_URL),
  maxAttempts: integer(1),
  timeoutMs: MILLISECONDS,
  attemptTimeoutMs: MILLISECONDS,
  baseDelayMs: MILLISECONDS,
  maxDelayMs: MILLISECONDS,
  fetch: fn('a function (url, init) => Promise<Response>'),
  random: fn('a function () => number in [0, 1)'),
  sleep: fn('a function (ms, signal) => Promise<void>'),
  clock: CLOCK,
  createKey: fn('a function () => string'),
};

function checkSenderOptions(options: WebhookSenderOptions): Settings {
  checkOptions(FACTORY, options, OPTIONS);
  return {
    maxAttempts: options.maxAttempts ?? DEFAULTS.maxAttempts,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    attemptTimeoutMs: options.attemptTimeoutMs ?? DEFAULTS.attemptTimeoutMs,
    baseDelayMs: options.baseDelayMs ?? DEFAULTS.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULTS.maxDelayMs,
    url: options.url,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    random: options.random ?? Math.random,
    sleep: options.sleep ?? sleep,
    clock: options.clock ?? systemClock,
    createKey: options.createKey ?? (() => crypto.randomUUID()),
    scrub: createScrubber(options.url),
  };
}

async function send(
  settings: Settings,
  payload: WebhookPayload,
  { idempotencyKey, signal, onAttempt }: SendOptions,
): Promise<SendResult> {
  const { clock, scrub } = settings;
  const request = prepareRequest(payload, idempotencyKey, settings.createKey);
  const { key } = request;
  let possiblyStored = false;
  const failure = (code: SendFailureCode, message: string, attempts: number, last?: AttemptResult): SendFailure => ({
    ok: false,
    code,
    message: scrub(message),
    idempotencyKey: key,
    attempts,
    status: last !== undefined && 'status' in last ? last.status : null,
    problem: last !== undefined && 'problem' in last ? last.problem : null,
    retryAfterMs: last?.kind === 'transient' ? last.waitMs : null,
    possiblyStored,
    ...(last?.kind === 'transient' && last.cause !== undefined ? { cause: last.cause } : {}),
  });
  if ('reason' in request) return failure('not_sent', request.reason, 0);

  const deadline = clock.now() + settings.timeoutMs;
  const deadlineSaid = `the ${seconds(settings.timeoutMs)} deadline`;
  let last: Transient | undefined;
  for (let attempt = 1; ; attempt++) {
    const started = clock.now();
    const timeoutMs = Math.min(settings.attemptTimeoutMs, deadline - started);
    if (timeoutMs <= 0)
      return failure(
        'deadline_exceeded',
        `${deadlineSaid} ran out after ${attempts(attempt - 1)}; ${describe(last)}`,
        attempt - 1,
        last,
      );
    const result = await postOnce({
      ...request,
      fetch: settings.fetch,
      url: settings.url,
      timeoutMs,
      signal,
      now: () => clock.now(),
      scrub,
    });
    if (mayHaveStored(result)) possiblyStored = true;
    const report = (outcome: SendAttempt['outcome'], retryInMs: number | null = null) =>
      onAttempt?.({
        attempt,
        idempotencyKey: key,
        outcome,
        status: 'status' in result ? result.status : null,
        error: result.kind === 'transient' ? result.error : null,
        durationMs: clock.now() - started,
        retryInMs,
      });
    switch (result.kind) {
      case 'stored':
        report(result.duplicate ? 'duplicate' : 'stored');
        return {
          ok: true,
          message: result.message,
          duplicate: result.duplicate,
          status: result.status,
          idempotencyKey: key,
          attempts: attempt,
        };
      case 'refused': {
        report('refused');
        const { status, problem } = result;
        return failure(
          'refused',
          `the endpoint answered ${status}${problem ? ` ${problem.code}: ${problem.detail}` : ''}`,
          attempt,
          result,
        );
      }
      case 'redirected':
        report('refused');
        return failure(
          'refused',
          `the endpoint answered ${result.status === null ? 'with a redirect' : `${result.status}, a redirect`}: a webhook URL is never redirected, and the post was not sent on`,
          attempt,
          result,
        );
      case 'answer_too_large':
        report('answer_too_large');
        return failure(
          'answer_too_large',
          `the endpoint answered ${result.status} with over ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, which the endpoint never sends; the rest was not read`,
          attempt,
          result,
        );
      case 'aborted':
        report('aborted');
        return failure('aborted', `stopped by the signal after ${attempts(attempt)}`, attempt, last);
    }
    last = result;
    if (attempt >= settings.maxAttempts) {
      report('gave_up');
      const what =
        attempt === 1 ? `the one attempt ${said(result)}` : `${attempts(attempt)} failed; the last ${said(result)}`;
      return failure('retries_exhausted', what, attempt, result);
    }
    const waitMs = result.waitMs ?? backoffDelay(attempt, settings.baseDelayMs, settings.maxDelayMs, settings.random);
    if (clock.now() + waitMs >= deadline) {
      report('gave_up');
      const why =
        result.waitMs === null
          ? `${deadlineSaid} leaves no time for attempt ${attempt + 1}`
          : `the endpoint asked to wait ${seconds(waitMs)}, past ${deadlineSaid}, after ${attempts(attempt)}`;
      return failure('deadline_exceeded', `${why}; ${describe(result)}`, attempt, result);
    }
    report('retry', waitMs);
    try {
      await settings.sleep(waitMs, signal);
    } catch {
      // Only an abort ends a wait early.
    }
    if (signal?.aborted) return failure('aborted', `stopped by the signal after ${attempts(attempt)}`, attempt, result);
  }
}

// Whether the endpoint may have stored the message on this attempt. A refusal, a 429 and a 408
// store nothing, nor does an attempt that never connected or never left; a time-out, a lost
// connection, a 5xx or a 2xx that could not be read may have.
function mayHaveStored(result: AttemptResult): boolean {
  switch (result.kind) {
    case 'stored':
    case 'refused':
    case 'redirected':
      return false;
    case 'aborted':
      return result.sent;
    case 'answer_too_large':
      return result.status < 300 || result.status >= 500;
    case 'transient':
      return result.status === null ? result.error !== 'no_connection' : result.status !== 429 && result.status !== 408;
  }
}

const attempts = (n: number): string => `${n} attempt${n === 1 ? '' : 's'}`;

/** A time as the messages say it: in seconds, or in ms below one. */
const seconds = (ms: number): string => (ms < 1_000 ? `${ms} ms` : `${Number((ms / 1_000).toFixed(1))} s`);

function describe(last: Transient | undefined): string {
  return last === undefined ? 'no attempt was made' : `the last ${said(last)}`;
}

function said(last: Transient): string {
  switch (last.error) {
    case 'no_connection':
      return `could not connect (${innermost(last.cause)})`;
    case 'network':
      return `met a network error (${innermost(last.cause)})`;
    case 'timeout':
      return 'timed out';
    case 'bad_response':
      return `answered ${last.status} without a stored message`;
    default:
      return `answered ${last.status}${last.problem ? ` ${last.problem.code}` : ''}`;
  }
}

/** The message of the deepest error of a cause chain: the socket's or resolver's own words. */
function innermost(cause: SendErrorCause | undefined): string {
  let message = 'network error';
  for (let link = cause; link !== undefined; link = link.cause) if (link.message !== '') message = link.message;
  return message;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
