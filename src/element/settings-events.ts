// The events the element dispatches on itself, bubbling and composed (they leave its shadow root),
// each with the webhook after the change as its detail (WebhookEventDetail), never the URL.

export const SETTINGS_EVENTS = ['webhook-created', 'webhook-rotated', 'webhook-revoked'] as const;

export type SettingsEventType = (typeof SETTINGS_EVENTS)[number];
