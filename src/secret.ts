import { sha256Hex } from './sha256-short.js';

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** 256 random bits, base64url without padding: 43 characters of `[A-Za-z0-9_-]`. */
export function generateSecret(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** A webhook id: `wh_` and 128 random bits, base64url. */
export function generateWebhookId(): string {
  return `wh_${toBase64Url(crypto.getRandomValues(new Uint8Array(16)))}`;
}

/** Lower-case hex SHA-256 of a secret: what stores keep instead of the secret. */
export function hashSecret(secret: string): string {
  return sha256Hex(secret);
}

/**
 * Compares two strings in time that depends only on their lengths, never on where they differ.
 * Used on hex hashes, which always have the same length.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const WEBHOOK_ID_SHAPE = /^wh_[A-Za-z0-9_-]{22}$/;

/** Whether the two URL segments have the shape this library gives them. */
export function isWellFormedCredential(webhookId: string, secret: string): boolean {
  return WEBHOOK_ID_SHAPE.test(webhookId) && SECRET_SHAPE.test(secret);
}
