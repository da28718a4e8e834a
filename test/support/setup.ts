/**
 * The one way tests build a webhook world: {@link setup} makes a memory store with an active
 * channel and a webhook in it, a handler on a fake clock with hook recorders, and what the adapter
 * tests post to (paths, an archived channel's webhook, a handler whose store fails).
 */
import { expect } from 'vitest';
import { createFakeClock, type FakeClock } from '../../src/clock.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import type { ErrorContext, WebhookHandler, WebhookHandlerOptions } from '../../src/handler/handler-types.js';
import type { BodyReader, HeaderValue, RawBody, WebhookResponse } from '../../src/http/http-types.js';
import {
  createWebhookManager,
  type Actor,
  type WebhookInfo,
  type WebhookManager,
} from '../../src/lifecycle/create-webhook-manager.js';
import { createMemoryRateLimiter } from '../../src/memory/memory-rate-limiter.js';
import { createMemoryStore, type MemoryStore } from '../../src/memory/memory-store.js';
import type { Message, WebhookStore } from '../../src/ports.js';

export const BASE_URL = 'https://chat.example.com';
export const CHANNEL_ID = 'general';
export const OWNER: Actor = { userId: 'u-owner', role: 'member' };
export const ADMIN: Actor = { userId: 'u-admin', role: 'admin' };

export interface ReportedError {
  error: unknown;
  context: ErrorContext;
}

export interface WorldOptions extends Partial<Omit<WebhookHandlerOptions, 'store' | 'clock'>> {
  /** Wraps the memory store before the handler sees it (the manager keeps the plain one). */
  wrapStore?: (store: MemoryStore) => WebhookStore;
  webhookName?: string;
}

/** A webhook world: see {@link setup}. */
export interface World {
  clock: FakeClock;
  store: MemoryStore;
  manager: WebhookManager;
  handle: WebhookHandler;
  /** The webhook, as the manager created it. */
  webhook: WebhookInfo;
  webhookId: string;
  url: string;
  /** The webhook URL's path: `/hooks/channels/{id}/{secret}`. */
  path: string;
  secret: string;
  /** Every `onError` call, in order. */
  errors: ReportedError[];
  /** Every message given to `onMessage`, in order. */
  delivered: Message[];
  /** Every message the store reported as newly created, in order. */
  stored: Message[];
  /** Path of a webhook whose channel got archived after creation. */
  archivedPath: string;
  /** Path with the right webhook id and a wrong (well-formed) secret. */
  wrongSecretPath: string;
  /** A handler over the same webhooks whose `insertMessage` always throws. */
  failingHandle: WebhookHandler;
  /** The messages stored in the active channel so far. */
  messages(): Promise<Message[]>;
  /** Posts `body` to `url` (default: the webhook's URL) as JSON. */
  post(body: unknown, options?: PostOptions): Promise<WebhookResponse>;
}

export interface PostOptions {
  url?: string;
  method?: string;
  headers?: Record<string, HeaderValue>;
  /** When set, sent as the raw body instead of `JSON.stringify(body)`. */
  raw?: RawBody | BodyReader;
  idempotencyKey?: string;
}

/** A fresh world; each has its own store and rate-limit state. */
export async function setup(options: WorldOptions = {}): Promise<World> {
  const { wrapStore, webhookName, ...handlerOptions } = options;
  const clock = createFakeClock();
  const store = createMemoryStore();
  store.putChannel({ id: CHANNEL_ID, ownerId: OWNER.userId, archived: false });
  const manager = createWebhookManager({ store, baseUrl: BASE_URL, clock });
  const { webhook, url } = await manager.create(OWNER, { channelId: CHANNEL_ID, name: webhookName ?? 'CI' });
  store.putChannel({ id: 'old', ownerId: OWNER.userId, archived: false });
  const archived = await manager.create(OWNER, { channelId: 'old', name: 'Legacy' });
  store.putChannel({ id: 'old', ownerId: OWNER.userId, archived: true });

  const errors: ReportedError[] = [];
  const delivered: Message[] = [];
  const stored: Message[] = [];
  const counting = recordingCreated(store, stored);
  const handle = createWebhookHandler({
    store: wrapStore ? wrapStore(counting) : counting,
    rateLimiter: createMemoryRateLimiter(),
    clock,
    onError: (error, context) => errors.push({ error, context }),
    onMessage: (message) => {
      delivered.push(message);
    },
    ...handlerOptions,
  });
  const failingStore: WebhookStore = {
    ...store,
    insertMessage: async () => {
      throw new Error('disk full');
    },
  };
  const path = new URL(url).pathname;
  return {
    clock,
    store,
    manager,
    handle,
    webhook,
    webhookId: webhook.id,
    url,
    path,
    secret: path.split('/').pop()!,
    errors,
    delivered,
    stored,
    archivedPath: new URL(archived.url).pathname,
    wrongSecretPath: path.replace(/[^/]{43}$/, 'A'.repeat(43)),
    failingHandle: createWebhookHandler({ store: failingStore, clock }),
    messages: async () => store.listMessages(CHANNEL_ID),
    post: (body, postOptions = {}) => handle(request(postOptions.url ?? url, body, postOptions)),
  };
}

// The store, recording what it reports as created; it still answers synchronously.
function recordingCreated(store: MemoryStore, stored: Message[]): MemoryStore {
  return {
    ...store,
    insertMessage: (input) => {
      const result = store.insertMessage(input);
      if (result.outcome === 'created') stored.push(result.message);
      return result;
    },
  };
}

/** A normalized POST request with a JSON content type. */
export function request(url: string, body: unknown, options: PostOptions = {}) {
  const headers: Record<string, HeaderValue> = { 'content-type': 'application/json' };
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  Object.assign(headers, options.headers);
  for (const name of Object.keys(headers)) if (headers[name] === undefined) delete headers[name];
  return {
    method: options.method ?? 'POST',
    url,
    headers,
    body: options.raw !== undefined ? options.raw : JSON.stringify(body),
  };
}

/** Lets callbacks that the handler does not await run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export const POLICY = '"default";q=60;w=60';

/** The rate-limit headers of a counted answer. */
export function rateHeaders(remaining: number, seconds: number): Record<string, string> {
  return { 'ratelimit-policy': POLICY, ratelimit: `"default";r=${remaining};t=${seconds}` };
}

/** Headers of a success answer. */
export function successHeaders(remaining: number, seconds = 60): Record<string, string> {
  return { 'content-type': 'application/json', ...rateHeaders(remaining, seconds) };
}

/** Headers of an error answer; `rate` for counted ones. */
export function problemHeaders(rate?: { remaining: number; seconds: number }, extra: Record<string, string> = {}) {
  return {
    'content-type': 'application/problem+json',
    'cache-control': 'no-store',
    ...(rate ? rateHeaders(rate.remaining, rate.seconds) : {}),
    ...extra,
  };
}

/** An RFC 9457 body with a stable code (and, for 400, the list of field errors). */
export function problem(status: number, code: string, extra: Record<string, unknown> = {}) {
  return {
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code,
    ...extra,
  };
}

export interface FieldError {
  pointer?: string;
  header?: string;
  message: string;
}

/**
 * Asserts a whole 400 answer for the first counted request, and that some error points at `pointer`,
 * or at a coarser pointer no higher than `within` (a validator may stop at the enclosing object).
 */
export function expectRefused(
  response: WebhookResponse,
  pointer: string,
  options: { code?: string; within?: string; remaining?: number } = {},
): void {
  const { code = 'invalid_payload', within = pointer, remaining = 59 } = options;
  expect(response).toEqual({
    status: 400,
    headers: problemHeaders({ remaining, seconds: 60 }),
    body: problem(400, code, { errors: expect.any(Array) }),
  });
  const errors = (response.body as { errors: FieldError[] }).errors;
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) expect(typeof error.message).toBe('string');
  const pointers = errors.map((error) => error.pointer);
  const hit = pointers.some(
    (candidate) =>
      candidate === pointer ||
      (candidate !== undefined &&
        (candidate === within || (candidate.startsWith(within) && pointer.startsWith(`${candidate}/`)))),
  );
  expect(hit, `pointers ${JSON.stringify(pointers)} do not point at ${pointer}`).toBe(true);
}

/** The expected stored message of a post through `setup`'s webhook. */
export function expectedMessage(s: World, sent: { text?: string; blocks?: unknown[] }, at = s.clock.now()) {
  return {
    id: expect.any(String),
    channelId: CHANNEL_ID,
    body: sent.text ?? '',
    blocks: sent.blocks ?? [],
    author: { type: 'webhook', id: s.webhookId, name: s.webhook.name },
    createdAt: new Date(at).toISOString(),
  };
}

/** The webhook id and secret of a URL from the manager. */
export function splitUrl(url: string): { webhookId: string; secret: string } {
  const parts = new URL(url).pathname.split('/');
  return { webhookId: parts[parts.length - 2]!, secret: parts[parts.length - 1]! };
}

/** Everything reachable from `value` as text, Error messages, stacks and causes included. */
export function deepText(value: unknown, seen = new Set<unknown>()): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' && typeof value !== 'function') return String(value);
  if (seen.has(value)) return '';
  seen.add(value);
  const parts: string[] = [];
  for (const key of Reflect.ownKeys(value)) {
    parts.push(String(key));
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor && 'value' in descriptor) parts.push(deepText(descriptor.value, seen));
  }
  if (value instanceof Error) parts.push(String(value.message), String(value.stack), deepText(value.cause, seen));
  return parts.join('\n');
}
