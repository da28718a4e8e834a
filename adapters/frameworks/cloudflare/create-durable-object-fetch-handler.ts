import {
  answer,
  createConsoleErrorLog,
  FIXED_PROBLEMS,
  isWellFormedCredential,
  settleWithin,
  systemClock,
} from '../../../src/adapter-kit/index.js';
import { ChannelWebhookError, matchWebhookPath, type ErrorContext } from '../../../src/index.js';
import { checkOptions, fn, MILLISECONDS, port, required } from '../../../src/store-kit/index.js';
import { forwardToObject, type DurableObjectNamespaceLike } from '../../stores/cloudflare/index.js';
import { problemResponse } from './problem-response.js';

/**
 * Options of {@link createDurableObjectFetchHandler}.
 *
 * @example
 * ```ts
 * const options: DurableObjectFetchHandlerOptions = { namespace: env.CHANNEL_WEBHOOKS, fallback: app.fetch, timeoutMs: 15_000 };
 * ```
 */
export interface DurableObjectFetchHandlerOptions {
  /** The binding of `ChannelWebhooksObject` (`env.CHANNEL_WEBHOOKS`). */
  namespace: DurableObjectNamespaceLike;
  /** Answers requests whose path is no webhook URL (the rest of the app). Default: a 404 problem. */
  fallback?: (request: Request) => Response | Promise<Response>;
  /**
   * How long the object has to answer a post, in ms, body included; past it the answer is 500
   * (`store_failed`), as when the object fails. Default 20,000: more than the object's body
   * deadline (10 s) and store deadline (5 s) together, so that a slow sender is answered by the
   * object (400), never taken for a failed object.
   */
  timeoutMs?: number;
  /** Hears the failures of objects (stage `store`). Default: one line on `console.error`, at most one every 10 s. */
  onError?: (error: unknown, context: ErrorContext) => void;
}

const OPTIONS = {
  namespace: required(
    port(
      'a Durable Object namespace binding',
      ['idFromName', 'get'],
      'Pass env.CHANNEL_WEBHOOKS, the binding of ChannelWebhooksObject in wrangler.toml.',
    ),
  ),
  fallback: fn('a function from a Request to a Response'),
  timeoutMs: MILLISECONDS,
  onError: fn(),
};

/**
 * The webhook endpoint of a worker over Durable Objects: a post to `/hooks/channels/{id}/{secret}`
 * (any prefix) goes, as it is, body streaming, to the one `ChannelWebhooksObject` its webhook id
 * names, which runs the whole handler there (see `ChannelWebhooksObject`): a post costs one call to
 * one object. The worker reads nothing of the request but its method and URL: any method but POST
 * is answered 405, and a URL whose id or secret has no shape this library gives them 404, by the
 * worker, without calling an object. An object that fails, or does not answer
 * within `timeoutMs`, is answered 500 (`store_failed`), never a hang; nothing is half-written, and a
 * retry with the same key stores the message once.
 *
 * @example
 * ```ts
 * import { ChannelWebhooksObject, createDurableObjectFetchHandler } from 'channel-webhooks/cloudflare';
 *
 * export { ChannelWebhooksObject };
 * export default {
 *   fetch(request, env) {
 *     const webhooks = createDurableObjectFetchHandler({ namespace: env.CHANNEL_WEBHOOKS, fallback: () => new Response('chat app') });
 *     return webhooks(request);
 *   },
 * };
 * ```
 */
export function createDurableObjectFetchHandler(
  options: DurableObjectFetchHandlerOptions,
): (request: Request) => Promise<Response> {
  checkOptions('createDurableObjectFetchHandler', options, OPTIONS);
  const { namespace, fallback = () => problemResponse(answer(FIXED_PROBLEMS.noWebhookHere)) } = options;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const onError = options.onError ?? createConsoleErrorLog(systemClock, 'createDurableObjectFetchHandler');
  const expired = () =>
    new ChannelWebhookError('store_timeout', `the webhook object did not answer in time (${timeoutMs} ms)`);

  return async (request) => {
    const path = matchWebhookPath(request.url);
    if (path === null) return fallback(request);
    // The handler's first two answers, given here for requests no object could answer otherwise:
    // anyone may send them, and a call would make the object its id names.
    if (request.method !== 'POST') return problemResponse(answer(FIXED_PROBLEMS.methodNotAllowed));
    if (!isWellFormedCredential(path.webhookId, path.secret)) return problemResponse(answer(FIXED_PROBLEMS.notFound));
    try {
      return await settleWithin(forwardToObject(namespace, path.webhookId, request), timeoutMs, expired);
    } catch (error) {
      try {
        onError(error, { stage: 'store', webhookId: path.webhookId });
      } catch {
        // A failing error hook must not turn the answer into a crash.
      }
      return problemResponse(answer(FIXED_PROBLEMS.storeFailed));
    }
  };
}
