import { ChannelWebhookError } from '../errors.js';

/** A body reader's rejection when the body did not arrive within `timeoutMs` (the handler answers 400). */
export function bodyTimedOut(timeoutMs: number): ChannelWebhookError {
  return new ChannelWebhookError('body_read_timeout', `the request body did not arrive within ${timeoutMs} ms`);
}

/** A body reader's rejection when the client went away or the stream failed (the handler answers 400). */
export function bodyCutShort(message: string, cause?: unknown): ChannelWebhookError {
  return new ChannelWebhookError('body_read_failed', message, cause === undefined ? undefined : { cause });
}
