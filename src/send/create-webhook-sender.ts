import { systemClock } from '../clock.js';
import { ChannelWebhookError } from '../errors.js';
import { redactWebhookUrl } from '../http/redact.js';
import type { WebhookPayload } from '../validation/payload-types.js';
import { postOnce, type AttemptResult } from './post-once.js';
import { backoffDelay } from './retry-timing.js';
import type { SendAttempt, SendFailure, SendFailureCode, SendOptions, SendResult, WebhookSender, WebhookSenderOptions } from './send-types.js';

const DEFAULTS = { maxAttempts: 5, timeoutMs: 90_000, attemptTimeoutMs: 10_000, baseDelayMs: 500, maxDelayMs: 30_000 };

type Settings = typeof DEFAULTS & Required<Pick<WebhookSenderOptions, 'url' | 'fetch' | 'random' | 'sleep' | 'clock' | 'createKey'>>;
type Transient = Extract<AttemptResult, { kind: 'transient' }>;

/**
 * Creates a client that posts to one webhook and follows the endpoint's recovery rules: one
 * idempotency key per logical event (the caller's, the payload's `eventId`, or a new one) sent as
 * `Idempotency-Key` on every attempt, and never a second, different key in the payload; retries of
 * 5xx, 408, 429, network errors and time-outs with exponential backoff and full jitter, within
 * `maxAttempts` and `timeoutMs`; on 429 (or 503) it waits as `Retry-After` (or `RateLimit`) asks;
 * 400, 404, 409, 413, 415 and every other refusal are never retried. `200 duplicate` is success.
 *
 * Web standards only (`fetch`, `AbortController`, timers): it runs on Node ≥ 20, Bun, Deno,
 * Cloudflare Workers and in browsers (where the endpoint must allow the `Idempotency-Key` header by CORS).
 *
 * @param options - the URL and the retry policy; see {@link WebhookSenderOptions} for the defaults.
 * @returns a {@link WebhookSender}.
 * @throws ChannelWebhookError `invalid_argument` for a URL that is not http(s), or an option out of range.
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
  const settings = checkOptions(options);
  return { send: (payload, sendOptions = {}) => send(settings, payload, sendOptions) };
}

function checkOptions(options: WebhookSenderOptions): Settings {
  if (typeof options !== 'object' || options === null) throw invalid('options must be an object with a url');
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw invalid('url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`url must be http(s), got ${url.protocol}`);
  const settings: Settings = {
    ...DEFAULTS,
    url: options.url,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    random: options.random ?? Math.random,
    sleep: options.sleep ?? sleep,
    clock: options.clock ?? systemClock,
    createKey: options.createKey ?? (() => crypto.randomUUID()),
  };
  for (const name of ['maxAttempts', 'timeoutMs', 'attemptTimeoutMs', 'baseDelayMs', 'maxDelayMs'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    const valid = name === 'maxAttempts' ? Number.isInteger(value) && value >= 1 : Number.isFinite(value) && value > 0;
    if (!valid) throw invalid(`${name} must be a ${name === 'maxAttempts' ? 'whole number ≥ 1' : 'positive number of ms'}, got ${String(value)}`);
    settings[name] = value;
  }
  return settings;
}

const invalid = (message: string) => new ChannelWebhookError('invalid_argument', `createWebhookSender: ${message}`);

async function send(settings: Settings, payload: WebhookPayload, { idempotencyKey, signal, onAttempt }: SendOptions): Promise<SendResult> {
  const { clock } = settings;
  const eventId = typeof payload === 'object' && payload !== null && typeof payload.eventId === 'string' ? payload.eventId : undefined;
  const key = idempotencyKey ?? eventId ?? settings.createKey();
  const failure = (code: SendFailureCode, message: string, attempts: number, last?: Transient | Extract<AttemptResult, { kind: 'refused' }>): SendFailure => ({
    ok: false,
    code,
    message: redactWebhookUrl(message),
    idempotencyKey: key,
    attempts,
    status: last?.status ?? null,
    problem: last?.problem ?? null,
    retryAfterMs: last?.kind === 'transient' ? last.waitMs : null,
    ...(last?.kind === 'transient' && last.cause !== undefined ? { cause: last.cause } : {}),
  });
  if (eventId !== undefined && idempotencyKey !== undefined && eventId !== idempotencyKey) {
    return failure('not_sent', 'idempotencyKey differs from the payload’s eventId; the endpoint would refuse the pair', 0);
  }
  let body: string | undefined;
  try {
    body = JSON.stringify(payload);
  } catch (error) {
    return failure('not_sent', `the payload cannot be serialized as JSON: ${(error as Error).message}`, 0);
  }
  if (body === undefined) return failure('not_sent', 'the payload cannot be serialized as JSON', 0);

  const deadline = clock.now() + settings.timeoutMs;
  let last: Transient | undefined;
  for (let attempt = 1; ; attempt++) {
    const started = clock.now();
    const timeoutMs = Math.min(settings.attemptTimeoutMs, deadline - started);
    if (timeoutMs <= 0)
      return failure(
        'deadline_exceeded',
        `gave up after ${attempt - 1} attempts: the ${settings.timeoutMs} ms deadline ran out; ${describe(last)}`,
        attempt - 1,
        last,
      );
    const result = await postOnce({ fetch: settings.fetch, url: settings.url, body, key, timeoutMs, signal, now: () => clock.now() });
    const report = (outcome: SendAttempt['outcome'], retryInMs: number | null = null) =>
      onAttempt?.({
        attempt,
        idempotencyKey: key,
        outcome,
        status: result.kind === 'aborted' ? null : result.status,
        error: result.kind === 'transient' ? result.error : null,
        durationMs: clock.now() - started,
        retryInMs,
      });
    switch (result.kind) {
      case 'stored':
        report(result.duplicate ? 'duplicate' : 'stored');
        return { ok: true, message: result.message, duplicate: result.duplicate, status: result.status, idempotencyKey: key, attempts: attempt };
      case 'refused': {
        report('refused');
        const { status, problem } = result;
        return failure('refused', `the endpoint refused the post with ${status}${problem ? ` ${problem.code}: ${problem.detail}` : ''}`, attempt, result);
      }
      case 'aborted':
        report('aborted');
        return failure('aborted', `aborted after ${attempt} attempt${attempt === 1 ? '' : 's'}`, attempt, last);
    }
    last = result;
    if (attempt >= settings.maxAttempts) {
      report('gave_up');
      return failure('retries_exhausted', `gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${describe(result)}`, attempt, result);
    }
    const waitMs = result.waitMs ?? backoffDelay(attempt, settings.baseDelayMs, settings.maxDelayMs, settings.random);
    if (clock.now() + waitMs >= deadline) {
      report('gave_up');
      const why =
        result.waitMs === null
          ? `the ${settings.timeoutMs} ms deadline leaves no time for another`
          : `the endpoint asked to wait ${Math.ceil(waitMs / 1000)} s, past the ${settings.timeoutMs} ms deadline`;
      return failure('deadline_exceeded', `gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${why}; ${describe(result)}`, attempt, result);
    }
    report('retry', waitMs);
    try {
      await settings.sleep(waitMs, signal);
    } catch {
      // Only an abort ends a wait early.
    }
    if (signal?.aborted) return failure('aborted', `aborted after ${attempt} attempt${attempt === 1 ? '' : 's'}`, attempt, result);
  }
}

function describe(last: Transient | undefined): string {
  if (last === undefined) return 'no attempt was made';
  switch (last.error) {
    case 'network':
      return `the last could not connect (${(last.cause as Error | undefined)?.message ?? 'network error'})`;
    case 'timeout':
      return 'the last timed out';
    case 'bad_response':
      return `the last answered ${last.status} without a stored message`;
    default:
      return `the last answered ${last.status}${last.problem ? ` ${last.problem.code}` : ''}`;
  }
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
