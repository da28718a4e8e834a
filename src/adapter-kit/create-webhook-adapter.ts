import { MILLISECONDS, required } from '../arguments/argument-rules.js';
import { checkArgument, checkOptions } from '../arguments/check-options.js';
import { HANDLE } from '../arguments/port-rules.js';
import type { WebhookHandler } from '../handler/handler-types.js';
import type { WebhookRequest } from '../http/http-types.js';
import { matchWebhookPath } from '../http/route.js';
import { isThenable } from '../waiting/maybe-promise.js';
import type { WebhookAdapter, WebhookAdapterBinding, WebhookAdapterOptions } from './adapter-types.js';

/** The body deadline of the adapters when none is given, in ms. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/**
 * The one door from a framework into the core: give it how the framework reads a request and
 * writes an answer (a {@link WebhookAdapterBinding}), get one call per request. Every adapter of the
 * package is built on it, so all behave alike. It checks the arguments when the adapter is made
 * (code `invalid_argument`, naming `binding.name`); answers only URLs whose path ends in
 * `/hooks/channels/{webhook_id}/{secret}`, under any prefix; takes the handler's fast path, reading
 * only the headers it names; and reads the body only when the handler asks, capped, within
 * `bodyTimeoutMs`.
 *
 * @param handle - the handler, from `createWebhookHandler` (or one the app wrote around it).
 * @param binding - how the framework reads a request and writes an answer.
 * @param options - `bodyTimeoutMs` (default 10,000) and the binding's own options.
 * @example
 * ```ts
 * import { createWebhookAdapter } from 'channel-webhooks';
 * import { nodeRequestParts, writeNodeResponse } from 'channel-webhooks/node';
 *
 * const serve = createWebhookAdapter(handle, { ...nodeRequestParts((req) => req), write: writeNodeResponse });
 * server.on('request', (req, res) => {
 *   if (serve(req, res) === null) app(req, res); // not a webhook URL: the rest of the app
 * });
 * ```
 */
export function createWebhookAdapter<Req, Res = undefined, Out = void>(
  handle: WebhookHandler,
  binding: WebhookAdapterBinding<Req, Res, Out>,
  options?: WebhookAdapterOptions,
): WebhookAdapter<Req, Res, Out> {
  const factory = binding.name ?? 'createWebhookAdapter';
  checkArgument(factory, 'handle', handle, required(HANDLE));
  checkOptions(factory, options, { bodyTimeoutMs: MILLISECONDS, ...binding.options }, 'options', true);
  const timeoutMs = options?.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const { url, originalUrl = url, method, headers, readBody, write } = binding;
  const fastPath = handle.fastPath;
  const headerNames = fastPath?.headerNames ?? null;

  return (req, res) => {
    const path = matchWebhookPath(url(req));
    if (path === null) return null;
    const request: WebhookRequest = {
      method: method(req) ?? 'GET',
      url: originalUrl(req),
      headers: headers(req, headerNames),
      body: (maxBytes, declaredLength = null) => readBody(req, { maxBytes, declaredLength, timeoutMs }),
    };
    const response = fastPath === undefined ? handle(request) : fastPath.handleMatched(request, path);
    if (!isThenable(response)) return write(res, response, req);
    return Promise.resolve(response).then((settled) => write(res, settled, req));
  };
}
