/**
 * `channel-webhooks/element`: `<channel-webhooks-settings>`, the settings screen of a channel's
 * incoming webhooks, as a standard custom element. One self-contained module, with no import of its
 * own: importing it defines the element (in a browser; on a server it only exports the class).
 *
 * @example
 * ```ts
 * import 'channel-webhooks/element';
 * // <channel-webhooks-settings api="/api/manage" channel-id="general"></channel-webhooks-settings>
 * ```
 *
 * @module
 */
import { ChannelWebhooksSettings } from './settings-element.js';
import type { WebhookEventDetail } from './element-types.js';

export { ChannelWebhooksSettings };
export type { FieldError, SettingsPost, SettingsWebhook, WebhookEventDetail } from './element-types.js';
export type { SettingsStrings } from './settings-strings.js';
export { DEFAULT_STRINGS } from './settings-strings.js';

/**
 * The element's tag name.
 *
 * @example
 * ```ts
 * await customElements.whenDefined(ELEMENT_NAME);
 * ```
 */
export const ELEMENT_NAME = 'channel-webhooks-settings';

declare global {
  interface HTMLElementTagNameMap {
    'channel-webhooks-settings': ChannelWebhooksSettings;
  }
  interface HTMLElementEventMap {
    'webhook-created': CustomEvent<WebhookEventDetail>;
    'webhook-rotated': CustomEvent<WebhookEventDetail>;
    'webhook-revoked': CustomEvent<WebhookEventDetail>;
  }
}

if (typeof customElements !== 'undefined' && customElements.get(ELEMENT_NAME) === undefined) {
  customElements.define(ELEMENT_NAME, ChannelWebhooksSettings);
}
