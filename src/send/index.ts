/**
 * The sender's client: posts payloads to a webhook URL with the endpoint's recovery rules (one
 * idempotency key per event, safe retries, `Retry-After`). Web standards only.
 *
 * @module
 */
export { createWebhookSender } from './create-webhook-sender.js';
export { fromSlackPayload, type SlackChange, type SlackConversion } from './from-slack-payload.js';
export type {
  SendAttempt,
  SendErrorCause,
  SendFailure,
  SendFailureCode,
  SendOptions,
  SendResult,
  SendSuccess,
  WebhookSender,
  WebhookSenderOptions,
} from './send-types.js';
export type { WebhookPayload } from '../validation/payload-types.js';
