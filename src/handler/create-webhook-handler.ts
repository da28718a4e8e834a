import { createAnswerHistory } from './answer-history.js';
import { checkHandlerOptions } from './check-handler-options.js';
import type { ErrorContext, FastPath, WebhookHandler, WebhookHandlerOptions } from './handler-types.js';
import { bodyBytes, declaredLength, decodeBody, readFailed, type BodyOutcome } from './read-body.js';
import { isFetchRequest, withLowerCaseHeaders } from './plain-request.js';
import { createStepChain } from './step-chain.js';
import { systemClock } from '../clock.js';
import { createConsoleErrorLog } from '../reporting/console-error-log.js';
import { createDeadline } from '../waiting/deadline.js';
import { ChannelWebhookError } from '../errors.js';
import { isJsonContentType } from '../http/content-type.js';
import type { HeaderValue, RawBody, WebhookRequest, WebhookResponse } from '../http/http-types.js';
import {
  FIXED_PROBLEMS as FIXED,
  answer,
  problemResponse,
  rateLimitedResponse,
  storedHeaders,
  withRateLimitHeaders,
} from '../http/problem.js';
import { matchWebhookPath, type WebhookPath } from '../http/route.js';
import { MAX_BODY_BYTES } from '../limits.js';
import { isThenable, type MaybePromise } from '../waiting/maybe-promise.js';
import { createMemoryRateLimiter } from '../memory/memory-rate-limiter.js';
import type { InsertMessageResult, Message, RateLimitDecision, WebhookRecord } from '../ports.js';
import { hashesMatch, hashSecret, isWellFormedCredential } from '../secret/secret.js';
import { newMessage } from '../message/new-message.js';
import { validatePayload, type ValidPayload } from '../validation/validate-payload.js';

// Compared against when the webhook id is unknown, so that the answer costs the same work.
const ABSENT_HASH = hashSecret('absent');
const FETCH_REQUEST_GIVEN =
  'handle() was given a Fetch Request; it takes a plain { method, url, headers, body } object. Serve Fetch requests with createFetchHandler(handle) from channel-webhooks/fetch.';
const NO_HEADERS: Readonly<Record<string, HeaderValue>> = Object.freeze({});
// Every request header the steps below read.
const HEADER_NAMES = Object.freeze(['content-type', 'content-length', 'transfer-encoding', 'idempotency-key'] as const);

/** A post whose URL holds well-formed credentials, while step 2 looks up its webhook. */
interface Target {
  readonly request: WebhookRequest;
  readonly path: WebhookPath;
  /** The hash of the URL's secret: the store's scheduling hint, then the value compared. */
  readonly presentedHash: string;
}

/** A post whose URL named an active webhook, on its way through steps 3 to 9. */
interface Post {
  readonly request: WebhookRequest;
  readonly headers: Readonly<Record<string, HeaderValue>>;
  readonly webhook: WebhookRecord;
  /** Step 4's decision: `null` before it, and after a failed limiter let the post through. */
  decision: RateLimitDecision | null;
  /** Step 5's trusted Content-Length, handed to the body reader so that it is parsed once. */
  declaredLength: number | null;
  /** For the history: the body's size once read, and the idempotency key once valid. */
  bodyBytes: number | null;
  key: string | null;
}

/**
 * Creates the webhook endpoint: a function from a normalized request to its answer, applying the
 * contract's checks in the settled order — 405, 404, 415, rate count (429), 413, 400, 409, 200
 * (duplicate), 201 — and answering 500 when the store fails or misses its deadline. It never
 * rejects, and never reads the body of a request refused before the rate count.
 *
 * When the store keeps a history of posts (`recordPosts`), every answer to a post whose URL proved
 * its secret is recorded there, off the answer's path: batched on a later tick, a minute's 429s of a
 * webhook as one record and its 415s as another, a failure reported to `onError` (stage `history`)
 * and never seen by the sender.
 *
 * Framework adapters wrap it (`channel-webhooks/node`, `/express`, `/koa`, `/fastify`, `/fetch`, or
 * an app's own through `createWebhookAdapter`); tests call it directly. The steps below are the
 * contract's, numbered as in docs/design.md, "The order of the checks".
 *
 * @param options - see {@link WebhookHandlerOptions}: `store` (required), `rateLimiter` (default: an
 *   in-memory limiter, 60 per 60 s), `clock` (default {@link systemClock}), `onMessage`, `onError`,
 *   `onRateLimiterError` (default `'allow'`), `storeTimeoutMs` (5,000), `rateLimiterTimeoutMs` (1,000). Options it
 *   cannot work with throw a `ChannelWebhookError` with code `invalid_argument` here, not on a post.
 * @example
 * ```ts
 * const store = createMemoryStore();
 * const handle = createWebhookHandler({ store, onMessage: (message) => console.log(message.id) });
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
  const { store, onMessage } = options;
  const clock = options.clock ?? systemClock;
  const onError = options.onError ?? createConsoleErrorLog(clock, 'createWebhookHandler');
  const rateLimiter = options.rateLimiter ?? createMemoryRateLimiter();
  const rejectOnLimiterError = options.onRateLimiterError === 'reject';
  const fromStore = createDeadline(
    options.storeTimeoutMs ?? 5_000,
    'store_timeout',
    'the store did not answer in time',
  );
  const fromRateLimiter = createDeadline(
    options.rateLimiterTimeoutMs ?? 1_000,
    'rate_limiter_timeout',
    'the rate limiter did not answer in time',
  );
  const recorded = createAnswerHistory({ store, deadline: fromStore, clock, report });
  // A defect anywhere below is answered 500 and reported, never thrown: the first steps run inside
  // `guarded`, and every step after a wait through `after`, so no promise of the handler rejects.
  const { after, guarded } = createStepChain(crashed);

  // 1. Method, whatever the URL.
  function checkMethod(request: WebhookRequest, matched: WebhookPath | null): MaybePromise<WebhookResponse> {
    if (typeof request.method !== 'string' || request.method.toUpperCase() !== 'POST')
      return answer(FIXED.methodNotAllowed);
    return findWebhook(request, matched ?? (typeof request.url === 'string' ? matchWebhookPath(request.url) : null));
  }

  // 2. Credentials: unknown, wrong, rotated and revoked all look the same.
  function findWebhook(request: WebhookRequest, path: WebhookPath | null): MaybePromise<WebhookResponse> {
    if (path === null || !isWellFormedCredential(path.webhookId, path.secret)) return answer(FIXED.notFound);
    return after({ request, path, presentedHash: hashSecret(path.secret) }, lookUpWebhook, checkSecret, lookupFailed);
  }

  function lookUpWebhook({ path, presentedHash }: Target): MaybePromise<WebhookRecord | null> {
    return fromStore(store.getWebhook(path.webhookId, presentedHash));
  }

  function lookupFailed({ path }: Target, error: unknown): WebhookResponse {
    return storeFailed(error, path.webhookId);
  }

  function checkSecret(
    { request, presentedHash }: Target,
    webhook: WebhookRecord | null,
  ): MaybePromise<WebhookResponse> {
    const matches = hashesMatch(presentedHash, webhook?.secretHash ?? ABSENT_HASH);
    if (webhook === null || !matches || webhook.revokedAt !== null) return answer(FIXED.notFound);
    const post: Post = {
      request,
      headers: request.headers ?? NO_HEADERS,
      webhook,
      decision: null,
      declaredLength: null,
      bodyBytes: null,
      key: null,
    };
    // The post proved its secret: its answer, whatever it is, goes to the webhook's history.
    return recorded === null ? checkMediaType(post) : recorded(post, checkMediaType(post));
  }

  // 3. Media type.
  function checkMediaType(post: Post): MaybePromise<WebhookResponse> {
    if (!isJsonContentType(post.headers['content-type'])) return answer(FIXED.unsupportedMediaType);
    return countPost(post);
  }

  // 4. From here on the post counts toward the webhook's rate limit, and every answer says so.
  function countPost(post: Post): MaybePromise<WebhookResponse> {
    return after(post, hitLimiter, checkRateLimit, limiterFailed);
  }

  function hitLimiter(post: Post): MaybePromise<RateLimitDecision> {
    return fromRateLimiter(rateLimiter.hit(post.webhook.id, clock.now()));
  }

  function checkRateLimit(post: Post, decision: RateLimitDecision): MaybePromise<WebhookResponse> {
    if (!decision.allowed) {
      const keyed = post.headers['idempotency-key'] !== undefined;
      return withRateLimitHeaders(rateLimitedResponse(decision, keyed), decision);
    }
    post.decision = decision;
    return checkSize(post);
  }

  function limiterFailed(post: Post, error: unknown): MaybePromise<WebhookResponse> {
    report(error, { stage: 'rate_limiter', webhookId: post.webhook.id });
    return rejectOnLimiterError ? answer(FIXED.rateLimiterFailed) : checkSize(post);
  }

  // 5. Size, from Content-Length when it can be trusted, else by counting while reading.
  function checkSize(post: Post): MaybePromise<WebhookResponse> {
    const declared = declaredLength(post.headers);
    if (declared !== null && declared > MAX_BODY_BYTES) return countedAnswer(post, answer(FIXED.payloadTooLarge));
    post.declaredLength = declared;
    return after(post, readBody, bodyArrived, bodyFailed);
  }

  function readBody(post: Post): MaybePromise<RawBody> {
    const { body } = post.request;
    return typeof body === 'function' ? body(MAX_BODY_BYTES, post.declaredLength) : body;
  }

  function bodyArrived(post: Post, raw: RawBody): MaybePromise<WebhookResponse> {
    if (recorded !== null) post.bodyBytes = bodyBytes(raw);
    return checkBody(post, decodeBody(raw));
  }

  function bodyFailed(post: Post, error: unknown): MaybePromise<WebhookResponse> {
    return checkBody(post, readFailed(error));
  }

  function checkBody(post: Post, read: BodyOutcome): MaybePromise<WebhookResponse> {
    switch (read.kind) {
      case 'text':
        return checkPayload(post, read.text, read.decoded);
      case 'too_large':
        return countedAnswer(post, answer(FIXED.payloadTooLarge));
      case 'cut_short':
        return countedAnswer(post, answer(FIXED.bodyCutShort));
      case 'timed_out':
        // Worth an operator's eye: a sender this slow is broken or holding connections on purpose.
        report(read.error, { stage: 'body', webhookId: post.webhook.id });
        return countedAnswer(post, answer(FIXED.bodyTimedOut));
      case 'misconfigured':
        report(read.error, { stage: 'body', webhookId: post.webhook.id });
        return countedAnswer(post, problemResponse('misconfigured', read.error.message));
      case 'not_utf8':
        return countedAnswer(post, answer(FIXED.notUtf8));
    }
  }

  // 6. JSON and fields.
  function checkPayload(post: Post, text: string, decoded: boolean): MaybePromise<WebhookResponse> {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return countedAnswer(post, answer(FIXED.notJson));
    }
    // Only a `\u` escape can put NUL or a lone surrogate into text decoded from bytes; a string body
    // may hold them raw.
    const validation = validatePayload(value, post.headers['idempotency-key'], !decoded || text.includes('\\u'));
    if (!validation.ok)
      return countedAnswer(post, problemResponse(validation.code, validation.detail, { errors: validation.errors }));
    return storeMessage(post, validation.payload);
  }

  // 7, 8 and 9. One guarded, atomic insert: it stores only if the webhook still answers to this
  // secret and its channel exists and is not archived at that instant, and otherwise says which
  // check failed. A revocation, rotation or archival while the body was arriving is never missed.
  function storeMessage(post: Post, { text, blocks, key }: ValidPayload): MaybePromise<WebhookResponse> {
    const { webhook } = post;
    post.key = key;
    const now = clock.now();
    const input = {
      message: newMessage(webhook, text, blocks, now),
      idempotencyKey: key,
      secretHash: webhook.secretHash,
      postedAt: now,
    };
    return after(post, () => fromStore(store.insertMessage(input)), answerInsert, insertFailed);
  }

  function answerInsert(post: Post, result: InsertMessageResult): WebhookResponse {
    switch (result.outcome) {
      case 'webhook_inactive':
      case 'channel_not_found':
        return countedAnswer(post, answer(FIXED.notFound));
      case 'channel_archived':
        return countedAnswer(post, answer(FIXED.channelArchived));
    }
    const created = result.outcome === 'created';
    if (created && onMessage !== undefined) notify(result.message);
    const { decision } = post;
    return {
      status: created ? 201 : 200,
      // No cache-control: caches never store the answer to a POST without explicit freshness.
      headers: decision === null ? { 'content-type': 'application/json' } : storedHeaders(decision),
      body: { message: result.message, duplicate: !created },
    };
  }

  function insertFailed(post: Post, error: unknown): WebhookResponse {
    return countedAnswer(post, storeFailed(error, post.webhook.id));
  }

  function storeFailed(error: unknown, webhookId: string): WebhookResponse {
    report(error, { stage: 'store', webhookId });
    return answer(FIXED.storeFailed);
  }

  function notify(message: Message): void {
    const failed = (error: unknown) => report(error, { stage: 'on_message', webhookId: message.author.id });
    try {
      const result = onMessage!(message);
      if (isThenable(result)) result.then(undefined, failed);
    } catch (error) {
      failed(error);
    }
  }

  function report(error: unknown, context: ErrorContext): void {
    try {
      onError(error, context);
    } catch {
      // A failing error hook must not turn an answer into a crash.
    }
  }

  function crashed(error: unknown): WebhookResponse {
    report(error, { stage: 'handler' });
    return answer(FIXED.internalError);
  }

  // The public function takes requests written by hand: header names in any case, and a Fetch
  // Request told apart from a mistyped request.
  const handler = (request: WebhookRequest) =>
    Promise.resolve(
      isFetchRequest(request) ? fetchRequestGiven() : guarded(checkMethod, withLowerCaseHeaders(request), null),
    );

  function fetchRequestGiven(): WebhookResponse {
    const error = new ChannelWebhookError('misconfigured', FETCH_REQUEST_GIVEN);
    report(error, { stage: 'handler' });
    return problemResponse('misconfigured', FETCH_REQUEST_GIVEN);
  }

  const fastPath: FastPath = Object.freeze({
    headerNames: HEADER_NAMES,
    handleMatched: (request: WebhookRequest, path: WebhookPath) => guarded(checkMethod, request, path),
  });
  return Object.assign(handler, { fastPath }) satisfies WebhookHandler;
}

/** The answer to a post that was counted (step 4 on): with its decision's rate-limit headers, none when a failed limiter let it through. */
function countedAnswer(post: Post, response: WebhookResponse): WebhookResponse {
  return post.decision === null ? response : withRateLimitHeaders(response, post.decision);
}
