/**
 * Where a failure reported to an `onError` happened, for every factory that takes one:
 *
 * - `store`, `rate_limiter`: a store or limiter call failed or missed its deadline (the handler;
 *   the Durable Object router, `store`, for an object that failed);
 * - `on_message`: the handler's `onMessage` hook threw or rejected;
 * - `body`: a body cut off, too slow, or already read by a parser that left nothing usable (the
 *   handler, the management API);
 * - `history`: a write of the post history failed, was late or was dropped (the handler; the
 *   sender never sees it);
 * - `handler`: an unexpected failure inside the library (the handler, the management API);
 * - `authenticate`, `manager`: the app's `authenticate` failed or gave no actor, the manager or
 *   its store failed under a route (the management API);
 * - `on_audit`: an `onAudit` hook failed, the change being made all the same (the manager);
 * - `write`: an answer could not be written to the connection (the node:http listeners);
 * - `feed`: the store failed under a Server-Sent Events stream, which then ended (the feed helpers).
 *
 * @example
 * ```ts
 * onError: (error, { stage }) => metrics.increment(`webhook_errors.${stage}`),
 * ```
 */
export type ErrorStage =
  | 'store'
  | 'rate_limiter'
  | 'on_message'
  | 'body'
  | 'history'
  | 'handler'
  | 'authenticate'
  | 'manager'
  | 'on_audit'
  | 'write'
  | 'feed';

/**
 * What every `onError` learns about a failure besides the error: one shape for the handler, the
 * management API, the manager, the node:http listeners and the feed helpers, so that one function
 * can hear them all. `Stage` narrows `stage` to the stages a factory reports; a field is there when
 * the factory knows it. It never holds a secret or a URL: no request, whose URL would carry the
 * secret.
 *
 * @example
 * ```ts
 * const onError = (error: unknown, context: ErrorContext) => log.error({ err: error, ...context }, 'channel-webhooks failure');
 * const handle = createWebhookHandler({ store, onError });
 * const manager = createWebhookManager({ store, baseUrl, onError });
 * ```
 */
export interface ErrorContext<Stage extends ErrorStage = ErrorStage> {
  /** Where the failure happened. */
  stage: Stage;
  /** The webhook concerned (the one a post was for, or whose change an audit hook heard). */
  webhookId?: string;
  /** The channel concerned (a stream's, or that of the webhook an audit hook heard). */
  channelId?: string;
  /** The management API's route, as `'POST /webhooks/{webhookId}/rotate'`, when one matched. */
  route?: string;
}
