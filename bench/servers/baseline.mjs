// The hand-written route every A/B pair compares against: read the body (64 KiB cap), JSON.parse,
// check `text`, keep the message in a Map and answer 201 with it, as the contract's success body
// does. No schema, no rate limit, no credentials, no idempotency.

import { randomUUID } from 'node:crypto';

export const MAX_BYTES = 65_536;

const messages = new Map();

/**
 * A 400/413 body, or the stored message for a well-formed post.
 * @param {string} text
 * @param {string | undefined} webhookId
 * @returns {{ status: 400; body: { error: string } } | { status: 201; body: { message: object; duplicate: false } }}
 */
export function acceptPost(text, webhookId) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return { status: 400, body: { error: 'invalid JSON' } };
  }
  if (typeof value !== 'object' || value === null || typeof value.text !== 'string' || value.text.trim() === '') {
    return { status: 400, body: { error: 'text is required' } };
  }
  const message = {
    id: randomUUID(),
    channelId: 'general',
    body: value.text,
    blocks: value.blocks ?? [],
    author: { type: 'webhook', id: webhookId, name: 'bench' },
    createdAt: new Date().toISOString(),
  };
  messages.set(message.id, message);
  return { status: 201, body: { message, duplicate: false } };
}

export const TOO_LARGE = { status: 413, body: { error: 'payload too large' } };

/**
 * The webhook id segment of `/hooks/channels/{id}/{secret}`.
 * @param {string} path
 */
export const webhookIdOf = (path) => path.split('/')[3];

export const storedCount = () => messages.size;
