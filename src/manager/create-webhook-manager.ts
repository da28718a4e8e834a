import { systemClock } from '../clock.js';
import { ChannelWebhookError } from '../errors.js';
import type { Channel, Clock, WebhookRecord, WebhookStore } from '../ports.js';
import { generateSecret, generateWebhookId, hashSecret } from '../secret/secret.js';
import { codePointLength } from '../validation/text.js';

/**
 * Who asks to manage webhooks: a user and their organization role.
 *
 * @example
 * ```ts
 * const actor: Actor = { userId: session.userId, role: session.orgRole };
 * await manager.create(actor, { channelId: 'deploys', name: 'CI' });
 * ```
 */
export interface Actor {
  userId: string;
  /** Organization role. Owners and admins manage every channel's webhooks; members only their own channels'. */
  role: 'owner' | 'admin' | 'member';
}

/**
 * A webhook as the manager shows it: everything but the secret (and its hash).
 *
 * @example
 * ```ts
 * for (const info of await manager.list(actor, 'deploys')) console.log(info.name, info.status);
 * ```
 */
export interface WebhookInfo {
  id: string;
  channelId: string;
  name: string;
  createdBy: string;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms of the last rotation, or `null`. */
  rotatedAt: number | null;
  /** Epoch ms of revocation, or `null` while active. */
  revokedAt: number | null;
  status: 'active' | 'revoked';
}

/**
 * A webhook with its complete secret URL: returned once, by `create` and `rotate`, and never again.
 *
 * @example
 * ```ts
 * const { webhook, url }: WebhookWithUrl = await manager.rotate(actor, webhookId);
 * showOnce(url); // never store or log it
 * ```
 */
export interface WebhookWithUrl {
  webhook: WebhookInfo;
  /** `{baseUrl}/hooks/channels/{webhook_id}/{secret}`. Give it only to the sending system. */
  url: string;
}

/**
 * Options of {@link createWebhookManager}.
 *
 * @example
 * ```ts
 * const options: WebhookManagerOptions = { store, baseUrl: 'https://chat.example.com/api' };
 * const manager = createWebhookManager(options);
 * ```
 */
export interface WebhookManagerOptions {
  store: WebhookStore;
  /** Origin (and optional mount path) the webhook URLs start with, e.g. `https://chat.example.com/api`. */
  baseUrl: string;
  /** Time source. Default {@link systemClock}. */
  clock?: Clock;
}

/**
 * The webhook lifecycle. Every method checks the actor's permission first.
 *
 * @example
 * ```ts
 * const manager: WebhookManager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
 * await manager.revoke(actor, webhookId);
 * ```
 */
export interface WebhookManager {
  /** Creates a webhook in an active channel. Its URL is in the result, and nowhere else, ever. */
  create(actor: Actor, input: { channelId: string; name: string }): Promise<WebhookWithUrl>;
  /** Gives an active webhook a new secret; the old URL answers 404 at once. The id stays. */
  rotate(actor: Actor, webhookId: string): Promise<WebhookWithUrl>;
  /** Revokes a webhook for good; its URL answers 404 at once. Revoking again changes nothing. */
  revoke(actor: Actor, webhookId: string): Promise<WebhookInfo>;
  /** One webhook, without its secret. */
  get(actor: Actor, webhookId: string): Promise<WebhookInfo>;
  /** The channel's webhooks, revoked ones included, oldest first, without secrets. */
  list(actor: Actor, channelId: string): Promise<WebhookInfo[]>;
}

const ROLES = new Set(['owner', 'admin', 'member']);
const MAX_NAME = 80;

/**
 * Creates the webhook manager: create, rotate, revoke, get and list, with the contract's permission
 * rule (organization owners and admins, and the channel's owner) and archived-channel rule. Errors
 * are {@link ChannelWebhookError}s with codes `forbidden`, `channel_not_found`, `channel_archived`,
 * `webhook_not_found`, `webhook_revoked`, `invalid_name` and `invalid_argument`.
 *
 * Secrets are 256 random bits, URL-safe; the store keeps only their SHA-256.
 *
 * @example
 * ```ts
 * const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
 * const { webhook, url } = await manager.create({ userId: 'u1', role: 'member' }, { channelId: 'c1', name: 'CI' });
 * // show `url` to the user once; later:
 * const rotated = await manager.rotate(actor, webhook.id); // the old URL is now 404
 * await manager.revoke(actor, webhook.id);                 // final
 * ```
 */
export function createWebhookManager(options: WebhookManagerOptions): WebhookManager {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const urlOf = (webhookId: string, secret: string) => `${baseUrl}/hooks/channels/${webhookId}/${secret}`;

  const channelFor = async (actor: Actor, channelId: string): Promise<Channel> => {
    checkActor(actor);
    if (typeof channelId !== 'string' || channelId.length === 0) {
      throw new ChannelWebhookError('invalid_argument', 'channelId must be a non-empty string');
    }
    const channel = await store.getChannel(channelId);
    if (channel === null) throw new ChannelWebhookError('channel_not_found', `there is no channel ${channelId}`);
    if (actor.role !== 'owner' && actor.role !== 'admin' && actor.userId !== channel.ownerId) {
      throw new ChannelWebhookError(
        'forbidden',
        `user ${actor.userId} may not manage webhooks of channel ${channelId}: only organization owners and admins and the channel owner may`,
      );
    }
    return channel;
  };

  const webhookFor = async (actor: Actor, webhookId: string): Promise<WebhookRecord> => {
    checkActor(actor);
    if (typeof webhookId !== 'string' || webhookId.length === 0) {
      throw new ChannelWebhookError('invalid_argument', 'webhookId must be a non-empty string');
    }
    const webhook = await store.getWebhook(webhookId);
    if (webhook === null) throw new ChannelWebhookError('webhook_not_found', `there is no webhook ${webhookId}`);
    await channelFor(actor, webhook.channelId);
    return webhook;
  };

  return {
    async create(actor, input) {
      const channel = await channelFor(actor, input?.channelId);
      const name = input.name;
      if (typeof name !== 'string' || name.trim().length === 0 || codePointLength(name.trim()) > MAX_NAME) {
        throw new ChannelWebhookError('invalid_name', `a webhook name must have 1 to ${MAX_NAME} characters after trimming`);
      }
      if (channel.archived) {
        throw new ChannelWebhookError('channel_archived', `channel ${channel.id} is archived: webhooks cannot be created in it`);
      }
      const secret = generateSecret();
      const record: WebhookRecord = {
        id: generateWebhookId(),
        channelId: channel.id,
        name,
        secretHash: hashSecret(secret),
        createdBy: actor.userId,
        createdAt: clock.now(),
        rotatedAt: null,
        revokedAt: null,
        lastPostAt: null,
      };
      await store.insertWebhook(record);
      return { webhook: toInfo(record), url: urlOf(record.id, secret) };
    },

    async rotate(actor, webhookId) {
      const webhook = await webhookFor(actor, webhookId);
      if (webhook.revokedAt !== null) throw revokedError(webhookId);
      const secret = generateSecret();
      const updated = await store.updateWebhookSecret(webhook.id, hashSecret(secret), clock.now());
      if (updated === null) throw revokedError(webhookId);
      return { webhook: toInfo(updated), url: urlOf(updated.id, secret) };
    },

    async revoke(actor, webhookId) {
      const webhook = await webhookFor(actor, webhookId);
      const revoked = await store.revokeWebhook(webhook.id, clock.now());
      if (revoked === null) throw new ChannelWebhookError('webhook_not_found', `there is no webhook ${webhookId}`);
      return toInfo(revoked);
    },

    async get(actor, webhookId) {
      return toInfo(await webhookFor(actor, webhookId));
    },

    async list(actor, channelId) {
      await channelFor(actor, channelId);
      return (await store.listWebhooks(channelId)).map(toInfo);
    },
  };
}

function revokedError(webhookId: string): ChannelWebhookError {
  return new ChannelWebhookError('webhook_revoked', `webhook ${webhookId} is revoked; create a new one to resume the integration`);
}

function checkActor(actor: Actor): void {
  if (typeof actor !== 'object' || actor === null || typeof actor.userId !== 'string' || !ROLES.has(actor.role)) {
    throw new ChannelWebhookError('invalid_argument', "actor must be { userId: string, role: 'owner' | 'admin' | 'member' }");
  }
}

function normalizeBaseUrl(baseUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch (cause) {
    throw new ChannelWebhookError('invalid_argument', `baseUrl must be an absolute URL, got ${JSON.stringify(baseUrl)}`, { cause });
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ChannelWebhookError('invalid_argument', `baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
}

function toInfo(record: WebhookRecord): WebhookInfo {
  return {
    id: record.id,
    channelId: record.channelId,
    name: record.name,
    createdBy: record.createdBy,
    createdAt: record.createdAt,
    rotatedAt: record.rotatedAt,
    revokedAt: record.revokedAt,
    status: record.revokedAt === null ? 'active' : 'revoked',
  };
}
