import type { MaybePromise } from '../maybe-promise.js';
import type { WebhookRequest, WebhookResponse } from '../http/http-types.js';
import type { WebhookPath } from '../http/route.js';
import type { WebhookHandler } from './handler-types.js';

/**
 * The handler as its adapters call it: the same answers as the public function, given as a value
 * when nothing on the way had to wait (a body already in hand, in-process ports) and as a promise
 * otherwise. It never throws and never rejects. An adapter that has matched the request's URL
 * already passes the match as `path`, so that no request is matched twice.
 */
export type RespondNow = (request: WebhookRequest, path?: WebhookPath | null) => MaybePromise<WebhookResponse>;

// Keyed by the public function, so that the public type stays a plain function.
const entries = new WeakMap<WebhookHandler, RespondNow>();

/** Records `respond` as the adapters' entry of `handler`. */
export function registerRespondNow(handler: WebhookHandler, respond: RespondNow): void {
  entries.set(handler, respond);
}

/**
 * The adapters' entry of `handle` when `createWebhookHandler` made it, else `undefined`: a wrapper
 * an app wrote around the handler is called as it is, with the whole request, since it may read
 * more of it than the core does.
 *
 * @param handle - the handler an adapter factory was given.
 * @example
 * ```ts
 * const respond = respondNowOf(handle) ?? handle;
 * const answer = respond(request);
 * if (answer instanceof Promise) answer.then(write); else write(answer);
 * ```
 */
export function respondNowOf(handle: WebhookHandler): RespondNow | undefined {
  return entries.get(handle);
}
