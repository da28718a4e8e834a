/**
 * The parts of a webhook URL.
 *
 * @example
 * ```ts
 * const path: WebhookPath | null = matchWebhookPath(req.url);
 * if (path !== null) console.log('post to', path.webhookId); // never log path.secret
 * ```
 */
export interface WebhookPath {
  webhookId: string;
  secret: string;
}

// Two non-empty segments after `/hooks/channels/`, at the very end of the path (any prefix before).
const WEBHOOK_PATH = /\/hooks\/channels\/([^/]+)\/([^/]+)$/;

/**
 * Finds the webhook id and secret in a request URL (a path, with or without a query string, or an
 * absolute URL) whose path ends in `/hooks/channels/{webhook_id}/{secret}`. Adapters use it to tell
 * webhook posts from the rest of an app's routes. It checks the shape only, not the credentials.
 *
 * @returns the two segments, or `null` when the path has another shape.
 * @example
 * ```ts
 * matchWebhookPath('/api/hooks/channels/wh_1/abc?x=1'); // { webhookId: 'wh_1', secret: 'abc' }
 * matchWebhookPath('/health');                          // null
 * ```
 */
export function matchWebhookPath(url: string): WebhookPath | null {
  let end = url.length;
  const query = url.indexOf('?');
  if (query !== -1) end = query;
  const hash = url.indexOf('#');
  if (hash !== -1 && hash < end) end = hash;
  const match = WEBHOOK_PATH.exec(end === url.length ? url : url.slice(0, end));
  if (match === null) return null;
  return { webhookId: match[1]!, secret: match[2]! };
}
