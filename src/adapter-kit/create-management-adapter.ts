import { checkArgument, checkOptions } from '../arguments/check-options.js';
import { MILLISECONDS, port, required } from '../arguments/argument-rules.js';
import type { ManagementApi } from '../manage/management-types.js';
import type { WebhookAdapter, WebhookAdapterBinding, WebhookAdapterOptions } from './adapter-types.js';
import { DEFAULT_BODY_TIMEOUT_MS } from './create-webhook-adapter.js';

const MANAGEMENT_API = required(
  port(
    'the API from createManagementApi()',
    ['serve', 'fetch'],
    'Pass createManagementApi({ manager, authenticate }).',
  ),
);

/**
 * The door from a framework into the management API, as `createWebhookAdapter` (from `channel-webhooks`) is into the
 * endpoint, on the same bindings: give it how the framework reads a request and writes an answer,
 * get one call per request. It answers every request whose path is under the API's `basePath`
 * (`binding.url`, relative to where the framework mounted it) and returns `null` for any other, for
 * the adapter to pass on; it reads every header (the app's `authenticate` may need any of them) and
 * the body only for a write that got past the sign-in, capped and within `bodyTimeoutMs`. The
 * framework's own request is what `authenticate` gets.
 *
 * @param api - the API, from `createManagementApi`.
 * @param binding - how the framework reads a request and writes an answer.
 * @param options - `bodyTimeoutMs` (default 10,000) and the binding's own options.
 * @example
 * ```ts
 * import { createManagementAdapter } from 'channel-webhooks/manage';
 * import { nodeRequestParts, writeNodeResponse } from 'channel-webhooks/node';
 *
 * const serve = createManagementAdapter(api, { ...nodeRequestParts((req) => req), write: writeNodeResponse });
 * server.on('request', (req, res) => {
 *   if (serve(req, res) === null) app(req, res); // not under the API's basePath
 * });
 * ```
 */
export function createManagementAdapter<Req, Res = undefined, Out = void>(
  api: ManagementApi<Req>,
  binding: WebhookAdapterBinding<Req, Res, Out>,
  options?: WebhookAdapterOptions,
): WebhookAdapter<Req, Res, Out> {
  const factory = binding.name ?? 'createManagementAdapter';
  checkArgument(factory, 'api', api, MANAGEMENT_API);
  checkOptions(factory, options, { bodyTimeoutMs: MILLISECONDS, ...binding.options }, 'options', true);
  return managementAdapter(api, binding, options?.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS);
}

/**
 * The adapter of checked arguments: {@link createManagementAdapter}'s, and, on the Fetch binding,
 * the management API's own `fetch`.
 */
export function managementAdapter<Req, Res, Out>(
  api: Pick<ManagementApi<Req>, 'serve'>,
  binding: WebhookAdapterBinding<Req, Res, Out>,
  timeoutMs: number,
): WebhookAdapter<Req, Res, Out> {
  const { url, method, headers, readBody, write } = binding;
  return (req, res) => {
    const answer = api.serve(
      {
        method: method(req) ?? 'GET',
        url: url(req),
        headers: headers(req, null),
        body: (maxBytes, declaredLength = null) => readBody(req, { maxBytes, declaredLength, timeoutMs }),
      },
      req,
    );
    return answer === null ? null : answer.then((settled) => write(res, settled, req));
  };
}
