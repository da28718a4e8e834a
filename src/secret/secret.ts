import { sha256 } from '@noble/hashes/sha2';

const encoder = new TextEncoder();

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

const HEX_DIGIT = encoder.encode('0123456789abcdef');
const decoder = new TextDecoder();

/**
 * Lower-case hex SHA-256 of a secret: what stores keep instead of the secret, for the webhook's
 * life, and what every post computes once. The runtime's own SHA-256 where it offers a synchronous
 * one (Node's OpenSSL `crypto.hash`, reached through `process.getBuiltinModule`, which is no import:
 * the core still loads on every runtime), else `@noble/hashes`; both are audited, and the native
 * one costs about a third as much a post. Either way the answer is one flat string.
 */
export const hashSecret: (secret: string) => string = nativeSha256Hex() ?? portableHashSecret;

type NodeHash = (algorithm: 'sha256', data: string, outputEncoding: 'hex') => string;

function nativeSha256Hex(): ((secret: string) => string) | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const hash = (runtime?.getBuiltinModule?.('node:crypto') as { hash?: NodeHash } | undefined)?.hash;
  return typeof hash === 'function' ? (secret) => hash('sha256', secret, 'hex') : undefined;
}

/**
 * {@link hashSecret} with `@noble/hashes`, on any runtime. Built as one flat string: joined from 32
 * pieces (as `bytesToHex` does), it stays a tree of strings until something reads it, some 1,000
 * bytes instead of ~80 in a memory store.
 */
export function portableHashSecret(secret: string): string {
  const digest = sha256(utf8(secret));
  const hexText = new Uint8Array(64);
  for (let i = 0; i < 32; i++) {
    hexText[2 * i] = HEX_DIGIT[digest[i]! >> 4]!;
    hexText[2 * i + 1] = HEX_DIGIT[digest[i]! & 15]!;
  }
  return decoder.decode(hexText);
}

// A secret is ASCII (base64url): copying its codes is several times cheaper than TextEncoder's call
// for a string this short; anything else is encoded as UTF-8 all the same.
function utf8(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128) return encoder.encode(text);
    bytes[i] = code;
  }
  return bytes;
}

// Hex digit values by character code; -1 for every other character.
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(digit)] = digit;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(digit)] = digit;
}
/**
 * Whether two hex SHA-256 digests are the same digest (hex digits in either case), in time that
 * depends only on the lengths, never on where the two differ. A character that is not a hex digit
 * never matches.
 */
export function hashesMatch(presentedHash: string, storedHash: string): boolean {
  let difference = (storedHash.length ^ 64) | (presentedHash.length ^ 64);
  for (let i = 0; i < 64; i++) {
    const stored = HEX_VALUE[storedHash.charCodeAt(i) & 127]!;
    const presented = HEX_VALUE[presentedHash.charCodeAt(i) & 127]!;
    difference |= ((stored | presented) >> 4) & 1; // -1 (not a hex digit) sets the low bit
    difference |= (stored ^ presented) & 15;
  }
  return difference === 0;
}

// 1 for the characters of base64url, by character code.
const BASE64URL = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_')
  BASE64URL[char.charCodeAt(0)] = 1;

function isBase64Url(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128 || BASE64URL[code] === 0) return false;
  }
  return true;
}

/** Whether the two URL segments have the shape this library gives them: `wh_` and 22, and 43 characters of base64url. */
export function isWellFormedCredential(webhookId: string, secret: string): boolean {
  return isWellFormedWebhookId(webhookId) && secret.length === 43 && isBase64Url(secret, 0);
}

/** Whether `webhookId` has the shape this library gives webhook ids: `wh_` and 22 characters of base64url. */
export function isWellFormedWebhookId(webhookId: string): boolean {
  return webhookId.length === 25 && webhookId.startsWith('wh_') && isBase64Url(webhookId, 3);
}
