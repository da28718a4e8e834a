import { readBody, declaredLength } from './read-body.js';
import { systemClock } from '../clock.js';
import { isJsonContentType } from '../http/content-type.js';
import { createDeadline, type Deadline } from '../deadline.js';
import { ChannelWebhookError, isChannelWebhookError } from '../errors.js';
import type { ErrorContext, WebhookHandler, WebhookHandlerOptions } from './handler-types.js';
import type { WebhookRequest, WebhookResponse } from '../http/http-types.js';
import { isInProcess } from '../memory/in-process-ports.js';
import { MAX_BODY_BYTES } from '../limits.js';
import { createMemoryRateLimiter } from '../memory/memory-rate-limiter.js';
import type { InsertMessageResult, Message, RateLimitDecision, WebhookRecord } from '../ports.js';
import { problemResponse, rateLimitHeaders } from '../http/problem.js';
import { matchWebhookPath } from '../http/route.js';
import { hashSecret, isWellFormedCredential, secretMatches } from '../secret/secret.js';
import { validatePayload } from '../validation/validate-payload.js';

// For ports that cannot hang: a synchronous throw still becomes a rejection.
const direct: Deadline = async (work) => work();

const NOT_FOUND_DETAIL = 'No webhook answers at this URL. Check the stored URL, or create a new webhook in the channel.';
// Compared against when the webhook id is unknown, so that the answer costs the same work.
const ABSENT_HASH = hashSecret('absent');

/**
 * Creates the webhook endpoint: a function from a normalized request to its answer, applying the
 * contract's checks in the settled order — 405, 404, 415, rate count (429), 413, 400, 409, 200
 * (duplicate), 201 — and answering 500 when the store fails or misses its deadline. It never
 * rejects, and never reads the body of a request refused before the rate count.
 *
 * Framework adapters (`channel-webhooks/express`, `/koa`, `/fetch`) wrap it; tests call it directly.
 *
 * @param options - see {@link WebhookHandlerOptions}: `store` (required), `rateLimiter` (default: an
 *   in-memory limiter, 60 per 60 s), `clock` (default {@link systemClock}), `onMessage`, `onError`,
 *   `onRateLimiterError` (default `'allow'`), `storeTimeoutMs` (5,000), `rateLimiterTimeoutMs` (1,000).
 * @example
 * ```ts
 * const store = createMemoryStore();
 * const handle = createWebhookHandler({ store, onMessage: (message) => broadcast(message) });
 * const res = await handle({
 *   method: 'POST',
 *   url: '/hooks/channels/wh_abc/secret',
 *   headers: { 'content-type': 'application/json', 'idempotency-key': 'deploy-42' },
 *   body: '{"text":"Deploy 42 finished"}',
 * });
 * res.status; // 201, or 200 with duplicate: true on a retry
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const { store, onMessage, onError } = options;
  if (typeof store !== 'object' || store === null) {
    throw new ChannelWebhookError('invalid_argument', 'createWebhookHandler needs a store, e.g. createMemoryStore()');
  }
  const clock = options.clock ?? systemClock;
  const rateLimiter = options.rateLimiter ?? createMemoryRateLimiter({ clock });
  const rejectOnLimiterError = options.onRateLimiterError === 'reject';
  const storeTimeoutMs = options.storeTimeoutMs ?? 5_000;
  const rateLimiterTimeoutMs = options.rateLimiterTimeoutMs ?? 1_000;

  const report = (error: unknown, context: ErrorContext): void => {
    if (onError === undefined) return;
    try {
      onError(error, context);
    } catch {
      // A failing error hook must not turn an answer into a crash.
    }
  };

  const fromStore = isInProcess(store) ? direct : createDeadline(storeTimeoutMs, 'store_timeout', 'the store did not answer in time');
  const fromRateLimiter = isInProcess(rateLimiter)
    ? direct
    : createDeadline(rateLimiterTimeoutMs, 'rate_limiter_timeout', 'the rate limiter did not answer in time');

  const storeFailed = (error: unknown, webhookId: string): WebhookResponse => {
    report(error, { stage: 'store', webhookId });
    return problemResponse('store_failed', 'The message could not be stored. Retry with exponential backoff and the same idempotency key.');
  };

  async function handle(request: WebhookRequest): Promise<WebhookResponse> {
    // 1. Method, whatever the URL.
    if (typeof request.method !== 'string' || request.method.toUpperCase() !== 'POST') {
      return problemResponse('method_not_allowed', 'Only POST is accepted here.', { headers: { allow: 'POST' } });
    }

    // 2. Credentials: unknown, wrong, rotated and revoked all look the same.
    const path = typeof request.url === 'string' ? matchWebhookPath(request.url) : null;
    if (path === null || !isWellFormedCredential(path.webhookId, path.secret)) {
      return problemResponse('not_found', NOT_FOUND_DETAIL);
    }
    let webhook: WebhookRecord | null;
    try {
      webhook = await fromStore(() => store.getWebhook(path.webhookId));
    } catch (error) {
      return storeFailed(error, path.webhookId);
    }
    const matches = secretMatches(path.secret, webhook?.secretHash ?? ABSENT_HASH);
    if (webhook === null || !matches || webhook.revokedAt !== null) {
      return problemResponse('not_found', NOT_FOUND_DETAIL);
    }
    const webhookId = webhook.id;

    // 3. Media type.
    const headers = request.headers ?? {};
    if (!isJsonContentType(headers['content-type'])) {
      return problemResponse('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json (charset, if any, utf-8).');
    }

    // 4. From here on the request counts toward the webhook's rate limit.
    let decision: RateLimitDecision | undefined;
    try {
      decision = await fromRateLimiter(() => rateLimiter.hit(webhookId, clock.now()));
    } catch (error) {
      report(error, { stage: 'rate_limiter', webhookId });
      if (rejectOnLimiterError) {
        return problemResponse('rate_limiter_failed', 'The request could not be counted toward the rate limit. Retry later with the same idempotency key.');
      }
    }
    const counted = decision === undefined ? undefined : rateLimitHeaders(decision);
    const withCount = (response: WebhookResponse): WebhookResponse => {
      if (counted !== undefined) Object.assign(response.headers, counted);
      return response;
    };
    if (decision !== undefined && !decision.allowed) {
      const retryAfter = Math.max(1, Math.ceil(decision.resetMs / 1000));
      return withCount(
        problemResponse('rate_limited', `More than ${decision.limit} requests in ${Math.ceil(decision.windowMs / 1000)} seconds on this webhook. Retry after ${retryAfter} s with the same idempotency key.`, {
          headers: { 'retry-after': String(retryAfter) },
        }),
      );
    }

    // 5. Size, from Content-Length when it can be trusted, else by counting while reading.
    const declared = declaredLength(headers);
    const tooLarge = () => withCount(problemResponse('payload_too_large', `The body exceeds ${MAX_BODY_BYTES.toLocaleString('en-US')} bytes. Send a smaller message.`));
    if (declared !== null && declared > MAX_BODY_BYTES) return tooLarge();
    const read = await readBody(request.body);
    if (read.kind === 'too_large') return tooLarge();
    if (read.kind === 'read_failed') {
      if (isChannelWebhookError(read.error, 'misconfigured')) {
        report(read.error, { stage: 'body', webhookId });
        return withCount(problemResponse('misconfigured', read.error.message));
      }
      if (isChannelWebhookError(read.error, 'body_read_timeout')) {
        // Worth an operator's eye: a sender this slow is broken or holding connections on purpose.
        report(read.error, { stage: 'body', webhookId });
        return withCount(problemResponse('body_read_failed', 'The request body did not arrive in time. Send the whole body promptly.', { errors: [{ pointer: '', message: 'did not arrive in time' }] }));
      }
      return withCount(problemResponse('body_read_failed', 'The request body ended before it was complete.', { errors: [{ pointer: '', message: 'ended before it was complete' }] }));
    }

    // 6. JSON and fields.
    if (read.kind === 'not_utf8') {
      return withCount(problemResponse('invalid_json', 'The body is not valid UTF-8.', { errors: [{ pointer: '', message: 'must be UTF-8' }] }));
    }
    let value: unknown;
    try {
      value = JSON.parse(read.text);
    } catch (error) {
      const reason = (error as Error).message;
      return withCount(problemResponse('invalid_json', `The body is not valid JSON: ${reason}`, { errors: [{ pointer: '', message: `must be valid JSON: ${reason}` }] }));
    }
    // Only a `\u` escape can put NUL or a lone surrogate into text decoded from bytes; a string body
    // may hold them raw.
    const validation = validatePayload(value, headers['idempotency-key'], !read.decoded || read.text.includes('\\u'));
    if (!validation.ok) {
      return withCount(problemResponse(validation.code, validation.detail, { errors: validation.errors }));
    }
    const { text, blocks, key } = validation.payload;

    // 7, 8 and 9. One guarded, atomic insert: it stores only if the webhook still answers to this
    // secret and its channel exists and is not archived at that instant, and otherwise says which
    // check failed. A revocation, rotation or archival while the body was arriving is never missed.
    const now = clock.now();
    const message: Message = {
      id: crypto.randomUUID(),
      channelId: webhook.channelId,
      body: text ?? '',
      blocks: blocks ?? [],
      author: { type: 'webhook', id: webhookId, name: webhook.name },
      createdAt: isoTime(now),
    };
    let stored: InsertMessageResult;
    try {
      stored = await fromStore(() => store.insertMessage({ message, idempotencyKey: key, secretHash: webhook.secretHash, postedAt: now }));
    } catch (error) {
      return withCount(storeFailed(error, webhookId));
    }
    if (stored.outcome === 'webhook_inactive' || stored.outcome === 'channel_not_found') {
      return withCount(problemResponse('not_found', NOT_FOUND_DETAIL));
    }
    if (stored.outcome === 'channel_archived') {
      return withCount(problemResponse('channel_archived', 'The destination channel is archived. Unarchive it, or use a webhook of an active channel.'));
    }
    const created = stored.outcome === 'created';
    if (created && onMessage !== undefined) notify(stored.message);
    return withCount({
      status: created ? 201 : 200,
      // No cache-control: caches never store the answer to a POST without explicit freshness.
      headers: { 'content-type': 'application/json' },
      body: { message: stored.message, duplicate: !created },
    });
  }

  function notify(message: Message): void {
    try {
      const result = onMessage!(message);
      if (result !== undefined && typeof (result as Promise<void>).then === 'function') {
        (result as Promise<void>).then(undefined, (error: unknown) => report(error, { stage: 'on_message', webhookId: message.author.id }));
      }
    } catch (error) {
      report(error, { stage: 'on_message', webhookId: message.author.id });
    }
  }

  // Posts in the same millisecond share one timestamp string.
  let lastTime = Number.NaN;
  let lastIso = '';
  function isoTime(ms: number): string {
    if (ms !== lastTime) {
      lastTime = ms;
      lastIso = new Date(ms).toISOString();
    }
    return lastIso;
  }

  return async (request) => {
    try {
      return await handle(request);
    } catch (error) {
      report(error, { stage: 'handler' });
      return problemResponse('internal_error', 'The request could not be handled.');
    }
  };
}
