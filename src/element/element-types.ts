import type { FieldError } from '../http/problem.js';
import type { WebhookInfo } from '../lifecycle/create-webhook-manager.js';
import type { PostRecord, WebhookRecord } from '../ports.js';

/**
 * A webhook as the settings element shows it: what the management API answers for it (never its
 * secret or URL), with its profile.
 *
 * @example
 * ```ts
 * settings.addEventListener('webhook-created', (event) => {
 *   const webhook: SettingsWebhook = event.detail.webhook;
 *   console.info(`${webhook.name} created in ${webhook.channelId}`);
 * });
 * ```
 */
export type SettingsWebhook = WebhookInfo & Pick<WebhookRecord, 'description' | 'avatarUrl'>;

/**
 * One entry of a webhook's recent posts, as the management API answers it.
 *
 * @example
 * ```ts
 * const refused = (post: SettingsPost) => post.status >= 400;
 * ```
 */
export type SettingsPost = PostRecord;

export type { FieldError };

/**
 * The detail of the element's `webhook-created`, `webhook-rotated` and `webhook-revoked` events:
 * the webhook after the change. It never holds the URL.
 *
 * @example
 * ```ts
 * settings.addEventListener('webhook-revoked', (event: CustomEvent<WebhookEventDetail>) => audit(event.detail.webhook.id));
 * ```
 */
export interface WebhookEventDetail {
  webhook: SettingsWebhook;
}
