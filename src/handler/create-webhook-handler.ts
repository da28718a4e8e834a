import { declaredLength, decodeBody, readFailed, type BodyOutcome } from './read-body.js';
import { registerRespondNow, type RespondNow } from './respond-now.js';
import { checkHandlerOptions } from './check-handler-options.js';
import { systemClock } from '../clock.js';
import { isJsonContentType } from '../http/content-type.js';
import { createDeadline } from '../deadline.js';
import { isThenable } from '../maybe-promise.js';
import type { ErrorContext, WebhookHandler, WebhookHandlerOptions } from './handler-types.js';
import type { RawBody, WebhookRequest, WebhookResponse } from '../http/http-types.js';
import { MAX_BODY_BYTES } from '../limits.js';
import { createMemoryRateLimiter } from '../memory/memory-rate-limiter.js';
import type { InsertMessageResult, MaybePromise, Message, RateLimitDecision, WebhookRecord } from '../ports.js';
import { FIXED_PROBLEMS as FIXED, answer, problemResponse, rateLimitedResponse, storedHeaders, withRateLimitHeaders } from '../http/problem.js';
import { matchWebhookPath, type WebhookPath } from '../http/route.js';
import { hashSecret, isWellFormedCredential, secretMatches } from '../secret/secret.js';
import { randomMessageId } from '../secret/message-id.js';
import { validatePayload } from '../validation/validate-payload.js';

// Compared against when the webhook id is unknown, so that the answer costs the same work.
const ABSENT_HASH = hashSecret('absent');
// The blocks of a message sent without any: one frozen list for all of them.
const NO_BLOCKS = Object.freeze([]) as unknown as unknown[];

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
 *   `onRateLimiterError` (default `'allow'`), `storeTimeoutMs` (5,000), `rateLimiterTimeoutMs` (1,000). Options it
 *   cannot work with throw a `ChannelWebhookError` with code `invalid_argument` here, not on a post.
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
  checkHandlerOptions(options);
  const { store, onMessage, onError } = options;
  const clock = options.clock ?? systemClock;
  const rateLimiter = options.rateLimiter ?? createMemoryRateLimiter();
  const rejectOnLimiterError = options.onRateLimiterError === 'reject';
  const fromStore = createDeadline(options.storeTimeoutMs ?? 5_000, 'store_timeout', 'the store did not answer in time');
  const fromRateLimiter = createDeadline(options.rateLimiterTimeoutMs ?? 1_000, 'rate_limiter_timeout', 'the rate limiter did not answer in time');

  const report = (error: unknown, context: ErrorContext): void => {
    if (onError === undefined) return;
    try {
      onError(error, context);
    } catch {
      // A failing error hook must not turn an answer into a crash.
    }
  };

  const storeFailed = (error: unknown, webhookId: string): WebhookResponse => {
    report(error, { stage: 'store', webhookId });
    return answer(FIXED.storeFailed);
  };

  // Every step goes on at once when a port answers with a value, and only waits for a thenable:
  // on in-process ports a post makes no promise until its body is read (none at all when the body
  // came as bytes or a string). A synchronous throw from a port is a failure like a rejection.
  function handle(request: WebhookRequest, matched: WebhookPath | null | undefined): MaybePromise<WebhookResponse> {
    // 1. Method, whatever the URL.
    if (typeof request.method !== 'string' || request.method.toUpperCase() !== 'POST') return answer(FIXED.methodNotAllowed);

    // 2. Credentials: unknown, wrong, rotated and revoked all look the same.
    const path = matched ?? (typeof request.url === 'string' ? matchWebhookPath(request.url) : null);
    if (path === null || !isWellFormedCredential(path.webhookId, path.secret)) return answer(FIXED.notFound);
    let found: MaybePromise<WebhookRecord | null>;
    try {
      found = fromStore(store.getWebhook(path.webhookId, hashSecret(path.secret)));
    } catch (error) {
      return storeFailed(error, path.webhookId);
    }
    if (isThenable(found)) {
      return Promise.resolve(found).then(
        (webhook) => guarded(afterLookup, request, path, webhook, undefined),
        (error: unknown) => storeFailed(error, path.webhookId),
      );
    }
    return afterLookup(request, path, found);
  }

  function afterLookup(request: WebhookRequest, path: WebhookPath, webhook: WebhookRecord | null): MaybePromise<WebhookResponse> {
    const matches = secretMatches(path.secret, webhook?.secretHash ?? ABSENT_HASH);
    if (webhook === null || !matches || webhook.revokedAt !== null) return answer(FIXED.notFound);
    return handleFound(request, webhook);
  }

  // Steps 3 and 4, for a request whose URL holds an active webhook's credentials.
  function handleFound(request: WebhookRequest, webhook: WebhookRecord): MaybePromise<WebhookResponse> {
    // 3. Media type.
    const headers = request.headers ?? {};
    if (!isJsonContentType(headers['content-type'])) return answer(FIXED.unsupportedMediaType);

    // 4. From here on the request counts toward the webhook's rate limit, and every answer says so.
    let counted: MaybePromise<RateLimitDecision>;
    try {
      counted = fromRateLimiter(rateLimiter.hit(webhook.id, clock.now()));
    } catch (error) {
      return limiterFailed(error, request, webhook);
    }
    if (isThenable(counted)) {
      return Promise.resolve(counted).then(
        (decision) => guarded(afterCount, request, webhook, decision, undefined),
        (error: unknown) => guarded(limiterFailed, error, request, webhook, undefined),
      );
    }
    return afterCount(request, webhook, counted);
  }

  function limiterFailed(error: unknown, request: WebhookRequest, webhook: WebhookRecord): MaybePromise<WebhookResponse> {
    report(error, { stage: 'rate_limiter', webhookId: webhook.id });
    return rejectOnLimiterError ? answer(FIXED.rateLimiterFailed) : guarded(handleCounted, request, webhook, null, undefined);
  }

  function afterCount(request: WebhookRequest, webhook: WebhookRecord, decision: RateLimitDecision): MaybePromise<WebhookResponse> {
    if (!decision.allowed) return withRateLimitHeaders(rateLimitedResponse(decision), decision);
    return handleCounted(request, webhook, decision);
  }

  // Steps 5 to 9, for a request that was counted (`decision`) or let through by a failed limiter
  // (`null`). Every answer from here on carries the decision's headers.
  function handleCounted(request: WebhookRequest, webhook: WebhookRecord, decision: RateLimitDecision | null): MaybePromise<WebhookResponse> {
    // 5. Size, from Content-Length when it can be trusted, else by counting while reading.
    const declared = declaredLength(request.headers ?? {});
    if (declared !== null && declared > MAX_BODY_BYTES) return limited(answer(FIXED.payloadTooLarge), decision);
    const body = request.body;
    if (typeof body !== 'function') return handleBody(request, webhook, decision, decodeBody(body));
    let pending: MaybePromise<RawBody>;
    try {
      pending = body(MAX_BODY_BYTES);
    } catch (error) {
      return handleBody(request, webhook, decision, readFailed(error));
    }
    if (!isThenable(pending)) return handleBody(request, webhook, decision, decodeBody(pending));
    // The one wait of a post on in-process ports: one reaction, for the body and all that follows.
    return (pending instanceof Promise ? pending : Promise.resolve(pending)).then(
      (raw: RawBody) => guarded(handleBody, request, webhook, decision, decodeBody(raw)),
      (error: unknown) => guarded(handleBody, request, webhook, decision, readFailed(error)),
    );
  }

  function handleBody(request: WebhookRequest, webhook: WebhookRecord, decision: RateLimitDecision | null, read: BodyOutcome): MaybePromise<WebhookResponse> {
    const webhookId = webhook.id;
    switch (read.kind) {
      case 'too_large':
        return limited(answer(FIXED.payloadTooLarge), decision);
      case 'cut_short':
        return limited(answer(FIXED.bodyCutShort), decision);
      case 'timed_out':
        // Worth an operator's eye: a sender this slow is broken or holding connections on purpose.
        report(read.error, { stage: 'body', webhookId });
        return limited(answer(FIXED.bodyTimedOut), decision);
      case 'misconfigured':
        report(read.error, { stage: 'body', webhookId });
        return limited(problemResponse('misconfigured', read.error.message), decision);
      case 'not_utf8':
        return limited(answer(FIXED.notUtf8), decision);
    }

    // 6. JSON and fields.
    let value: unknown;
    try {
      value = JSON.parse(read.text);
    } catch {
      return limited(answer(FIXED.notJson), decision);
    }
    // Only a `\u` escape can put NUL or a lone surrogate into text decoded from bytes; a string body
    // may hold them raw.
    const validation = validatePayload(value, request.headers?.['idempotency-key'], !read.decoded || read.text.includes('\\u'));
    if (!validation.ok) return limited(problemResponse(validation.code, validation.detail, { errors: validation.errors }), decision);
    const { text, blocks, key } = validation.payload;

    // 7, 8 and 9. One guarded, atomic insert: it stores only if the webhook still answers to this
    // secret and its channel exists and is not archived at that instant, and otherwise says which
    // check failed. A revocation, rotation or archival while the body was arriving is never missed.
    const now = clock.now();
    const message: Message = {
      id: randomMessageId(),
      channelId: webhook.channelId,
      body: text ?? '',
      blocks: blocks ?? NO_BLOCKS,
      author: { type: 'webhook', id: webhookId, name: webhook.name },
      createdAt: isoTime(now),
    };
    let inserted: MaybePromise<InsertMessageResult>;
    try {
      inserted = fromStore(store.insertMessage({ message, idempotencyKey: key, secretHash: webhook.secretHash, postedAt: now }));
    } catch (error) {
      return limited(storeFailed(error, webhookId), decision);
    }
    if (!isThenable(inserted)) return afterInsert(inserted, decision);
    return Promise.resolve(inserted).then(
      (result) => guarded(afterInsert, result, decision, undefined, undefined),
      (error: unknown) => limited(storeFailed(error, webhookId), decision),
    );
  }

  function afterInsert(result: InsertMessageResult, decision: RateLimitDecision | null): WebhookResponse {
    switch (result.outcome) {
      case 'webhook_inactive':
      case 'channel_not_found':
        return limited(answer(FIXED.notFound), decision);
      case 'channel_archived':
        return limited(answer(FIXED.channelArchived), decision);
    }
    const created = result.outcome === 'created';
    if (created && onMessage !== undefined) notify(result.message);
    return {
      status: created ? 201 : 200,
      // No cache-control: caches never store the answer to a POST without explicit freshness.
      headers: decision === null ? { 'content-type': 'application/json' } : storedHeaders(decision),
      body: { message: result.message, duplicate: !created },
    };
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

  // A defect anywhere above is answered 500 and reported, never thrown: every step that runs after
  // a wait goes through here, so that no promise of the handler's ever rejects.
  function crashed(error: unknown): WebhookResponse {
    report(error, { stage: 'handler' });
    return answer(FIXED.internalError);
  }
  function guarded<A, B, C, D>(step: (a: A, b: B, c: C, d: D) => MaybePromise<WebhookResponse>, a: A, b: B, c: C, d: D): MaybePromise<WebhookResponse> {
    try {
      return step(a, b, c, d);
    } catch (error) {
      return crashed(error);
    }
  }
  const respond: RespondNow = (request, path) => guarded(handle, request, path, undefined, undefined);
  const handler: WebhookHandler = (request) => {
    const response = respond(request, null);
    return isThenable(response) ? response : Promise.resolve(response);
  };
  registerRespondNow(handler, respond);
  return handler;
}

/** The decision's headers on an answer given after the request was counted (none when the limiter failed and was let through). */
function limited(response: WebhookResponse, decision: RateLimitDecision | null): WebhookResponse {
  return decision === null ? response : withRateLimitHeaders(response, decision);
}
