import type { InsertMessageInput, Message, WebhookRecord } from '../ports.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A random URL-safe string, so that tests sharing one backend never collide. */
export function randomId(length = 22): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte & 63];
  return id;
}

export function randomHex(bytes = 32): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) => byte.toString(16).padStart(2, '0')).join(
    '',
  );
}

export function makeWebhook(channelId: string, createdAt: number, fields: Partial<WebhookRecord> = {}): WebhookRecord {
  return {
    id: `wh_${randomId()}`,
    channelId,
    name: 'Deploy bot',
    secretHash: randomHex(),
    createdBy: `u_${randomId(8)}`,
    createdAt,
    rotatedAt: null,
    revokedAt: null,
    lastPostAt: null,
    // A profile by default, so that every test also checks that a store keeps it.
    description: 'Posts each deploy',
    avatarUrl: `https://chat.example.com/avatars/${randomId(8)}.png`,
    ...fields,
  };
}

export function makeMessage(webhook: WebhookRecord, createdAt: number, fields: Partial<Message> = {}): Message {
  return {
    id: `msg_${randomId()}`,
    channelId: webhook.channelId,
    body: 'Deploy finished',
    blocks: [],
    author: { type: 'webhook', id: webhook.id, name: webhook.name },
    createdAt: new Date(createdAt).toISOString(),
    ...fields,
  };
}

/** The {@link WebhookRecord} fields of a value, so that extra fields a store adds do not count. */
export function recordFields(value: WebhookRecord): WebhookRecord {
  return {
    id: value.id,
    channelId: value.channelId,
    name: value.name,
    secretHash: value.secretHash,
    createdBy: value.createdBy,
    createdAt: value.createdAt,
    rotatedAt: value.rotatedAt,
    revokedAt: value.revokedAt,
    lastPostAt: value.lastPostAt,
    description: value.description,
    avatarUrl: value.avatarUrl,
  };
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The input of an insert by `webhook` (its current secret hash), posted at the message's time. */
export function insertInput(
  webhook: WebhookRecord,
  message: Message,
  idempotencyKey: string | null,
): InsertMessageInput {
  return { message, idempotencyKey, secretHash: webhook.secretHash, postedAt: Date.parse(message.createdAt) };
}
