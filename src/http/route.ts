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

// What comes before the two segments, at the very end of the path (any prefix before it).
const PREFIX = '/hooks/channels';

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
  // The last two segments, each non-empty, after `/hooks/channels`: what the regular expression
  // `/\/hooks\/channels\/([^/]+)\/([^/]+)$/` finds, read from the end without building the path.
  const last = url.lastIndexOf('/', end - 1);
  if (last === -1 || last === end - 1) return null;
  const before = url.lastIndexOf('/', last - 1);
  if (before === -1 || before === last - 1 || before < PREFIX.length || !url.startsWith(PREFIX, before - PREFIX.length))
    return null;
  return { webhookId: url.slice(before + 1, last), secret: url.slice(last + 1, end) };
}
