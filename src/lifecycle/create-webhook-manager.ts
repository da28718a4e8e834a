import { fn, HTTP_URL, required } from '../arguments/argument-rules.js';
import { checkOptions, type OptionsShape } from '../arguments/check-options.js';
import { CLOCK, MANAGER_STORE } from '../arguments/port-rules.js';
import { systemClock } from '../clock.js';
import { createConsoleErrorLog } from '../reporting/console-error-log.js';
import { ChannelWebhookError } from '../errors.js';
import type { Channel, Clock, WebhookRecord, WebhookStore } from '../ports.js';
import { generateSecret, generateWebhookId, hashSecret } from '../secret/secret.js';
import { cleanWebhookName } from './webhook-name.js';

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
  /** Epoch ms of the last message the webhook stored (duplicates do not count), or `null` if none yet. */
  lastPostAt: number | null;
  status: 'active' | 'revoked';
}

/**
 * A change to a webhook, reported to `onAudit` once the store has confirmed it. It names who did
 * what to which webhook; it never holds the secret, the URL or the secret's hash.
 *
 * @example
 * ```ts
 * onAudit: (event: AuditEvent) => console.log(`${event.actor.userId} ${event.type} ${event.webhookId} in ${event.channelId}`),
 * ```
 */
export interface AuditEvent {
  type: 'webhook.created' | 'webhook.rotated' | 'webhook.revoked';
  webhookId: string;
  channelId: string;
  /** Who made the change (a copy of the actor passed to the manager). */
  actor: Actor;
  /** When the change happened, epoch ms, from the manager's clock (the record's own timestamp). */
  at: number;
  /** The webhook's name. */
  name: string;
}

/**
 * What the manager's `onError` learns besides the error: an `onAudit` hook failed for this event.
 * The change itself was made and stays made.
 *
 * @example
 * ```ts
 * onError: (error, { stage, event }) => log.error({ err: error, stage, webhookId: event.webhookId }, 'audit write failed'),
 * ```
 */
export interface ManagerErrorContext {
  stage: 'on_audit';
  event: AuditEvent;
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
  /**
   * Called after every change the store confirmed (create, rotate, a revoke that revoked), and
   * awaited, so an audit row is written before the manager's promise settles. A throw or rejection
   * goes to `onError`; the change is never undone and the caller still gets its result. Default: none.
   */
  onAudit?: (event: AuditEvent) => void | Promise<void>;
  /**
   * Called when `onAudit` fails. Its own failures are ignored. Default: one line per failure on
   * `console.error` (stage, webhook id, error), at most one every 10 s with a count of the others.
   */
  onError?: (error: unknown, context: ManagerErrorContext) => void;
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
  /**
   * Revokes a webhook for good; its URL answers 404 at once. Revoking again changes nothing. A
   * webhook whose channel the app deleted can still be revoked, by organization owners and admins.
   */
  revoke(actor: Actor, webhookId: string): Promise<WebhookInfo>;
  /**
   * Revokes every active webhook of a channel, for an app deleting or archiving it; returns the
   * webhooks it revoked. Works on a channel already deleted, for organization owners and admins.
   */
  revokeAll(actor: Actor, channelId: string): Promise<WebhookInfo[]>;
  /** One webhook, without its secret. */
  get(actor: Actor, webhookId: string): Promise<WebhookInfo>;
  /** The channel's webhooks, revoked ones included, oldest first, without secrets. */
  list(actor: Actor, channelId: string): Promise<WebhookInfo[]>;
}

const ROLES = new Set(['owner', 'admin', 'member']);

/**
 * Creates the webhook manager: create, rotate, revoke, get and list, with the contract's permission
 * rule (organization owners and admins, and the channel's owner) and archived-channel rule. Errors
 * are {@link ChannelWebhookError}s with codes `forbidden`, `channel_not_found`, `channel_archived`,
 * `webhook_not_found`, `webhook_revoked`, `invalid_name` and `invalid_argument`; bad options make
 * the factory throw `invalid_argument`.
 *
 * Names are stored trimmed: 1 to 80 code points, a raw input of at most 1,024 UTF-16 code units, no
 * control characters (C0, C1, DEL), lone surrogates or bidirectional formatting characters.
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
  checkOptions('createWebhookManager', options, OPTIONS);
  const { store, onAudit } = options;
  const clock = options.clock ?? systemClock;
  const log = createConsoleErrorLog(clock, 'createWebhookManager');
  const onError = options.onError ?? ((error: unknown, { stage, event }: ManagerErrorContext) => log(error, { stage, webhookId: event.webhookId }));
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const urlOf = (webhookId: string, secret: string) => `${baseUrl}/hooks/channels/${webhookId}/${secret}`;

  const audit = async (type: AuditEvent['type'], actor: Actor, record: WebhookRecord, at: number): Promise<void> => {
    if (onAudit === undefined) return;
    const event: AuditEvent = {
      type,
      webhookId: record.id,
      channelId: record.channelId,
      actor: { userId: actor.userId, role: actor.role },
      at,
      name: record.name,
    };
    try {
      await onAudit(event);
    } catch (error) {
      try {
        onError(error, { stage: 'on_audit', event });
      } catch {
        // A failing error hook must not turn a change that was made into a rejection.
      }
    }
  };

  /** The channel, or `null` when it is gone and the actor may act on it anyway (`orphanAllowed`). */
  const channelFor = async (actor: Actor, channelId: string, orphanAllowed = false): Promise<Channel | null> => {
    checkActor(actor);
    if (typeof channelId !== 'string' || channelId.length === 0) {
      throw new ChannelWebhookError('invalid_argument', 'channelId must be a non-empty string');
    }
    const channel = await store.getChannel(channelId);
    const orgWide = actor.role === 'owner' || actor.role === 'admin';
    if (channel === null) {
      if (!orphanAllowed) throw new ChannelWebhookError('channel_not_found', `there is no channel ${channelId}`);
      if (orgWide) return null;
      throw new ChannelWebhookError('forbidden', `channel ${channelId} no longer exists: only organization owners and admins may revoke its webhooks`);
    }
    if (!orgWide && actor.userId !== channel.ownerId) {
      throw new ChannelWebhookError(
        'forbidden',
        `user ${actor.userId} may not manage webhooks of channel ${channelId}: only organization owners and admins and the channel owner may`,
      );
    }
    return channel;
  };

  const webhookFor = async (actor: Actor, webhookId: string, orphanAllowed = false): Promise<WebhookRecord> => {
    checkActor(actor);
    if (typeof webhookId !== 'string' || webhookId.length === 0) {
      throw new ChannelWebhookError('invalid_argument', 'webhookId must be a non-empty string');
    }
    const webhook = await store.getWebhook(webhookId);
    if (webhook === null) throw new ChannelWebhookError('webhook_not_found', `there is no webhook ${webhookId}`);
    await channelFor(actor, webhook.channelId, orphanAllowed);
    return webhook;
  };

  /** Revokes one webhook; returns the record and whether this call is the one that revoked it. */
  const revokeOne = async (webhookId: string): Promise<{ record: WebhookRecord; at: number; revokedNow: boolean } | null> => {
    const at = clock.now();
    const record = await store.revokeWebhook(webhookId, at);
    if (record === null) return null;
    // The store keeps the first revocation time, so another time means someone else got there first.
    return { record, at, revokedNow: record.revokedAt === at };
  };

  return {
    async create(actor, input) {
      const channel = (await channelFor(actor, input?.channelId))!;
      const name = cleanWebhookName(input.name);
      if (channel.archived) {
        throw new ChannelWebhookError('channel_archived', `channel ${channel.id} is archived: webhooks cannot be created in it`);
      }
      const secret = generateSecret();
      const record: WebhookRecord = {
        id: store.newWebhookId?.(channel.id) ?? generateWebhookId(),
        channelId: channel.id,
        name,
        secretHash: hashSecret(secret),
        createdBy: actor.userId,
        createdAt: clock.now(),
        rotatedAt: null,
        revokedAt: null,
        lastPostAt: null,
        description: null,
        avatarUrl: null,
      };
      await store.insertWebhook(record);
      await audit('webhook.created', actor, record, record.createdAt);
      return { webhook: toInfo(record), url: urlOf(record.id, secret) };
    },

    async rotate(actor, webhookId) {
      const webhook = await webhookFor(actor, webhookId);
      if (webhook.revokedAt !== null) throw revokedError(webhookId);
      const secret = generateSecret();
      const at = clock.now();
      const updated = await store.updateWebhookSecret(webhook.id, hashSecret(secret), at);
      if (updated === null) throw revokedError(webhookId);
      await audit('webhook.rotated', actor, updated, at);
      return { webhook: toInfo(updated), url: urlOf(updated.id, secret) };
    },

    async revoke(actor, webhookId) {
      const webhook = await webhookFor(actor, webhookId, true);
      if (webhook.revokedAt !== null) return toInfo(webhook);
      const revoked = await revokeOne(webhook.id);
      if (revoked === null) throw new ChannelWebhookError('webhook_not_found', `there is no webhook ${webhookId}`);
      if (revoked.revokedNow) await audit('webhook.revoked', actor, revoked.record, revoked.at);
      return toInfo(revoked.record);
    },

    async revokeAll(actor, channelId) {
      await channelFor(actor, channelId, true);
      const revokedNow: WebhookInfo[] = [];
      for (const webhook of await store.listWebhooks(channelId)) {
        if (webhook.revokedAt !== null) continue;
        const revoked = await revokeOne(webhook.id);
        if (revoked === null || !revoked.revokedNow) continue;
        await audit('webhook.revoked', actor, revoked.record, revoked.at);
        revokedNow.push(toInfo(revoked.record));
      }
      return revokedNow;
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

const OPTIONS: OptionsShape = {
  store: required(MANAGER_STORE),
  baseUrl: required(HTTP_URL),
  clock: CLOCK,
  onAudit: fn('a function (event) => void'),
  onError: fn('a function (error, context) => void'),
};

function revokedError(webhookId: string): ChannelWebhookError {
  return new ChannelWebhookError('webhook_revoked', `webhook ${webhookId} is revoked; create a new one to resume the integration`);
}

function checkActor(actor: Actor): void {
  if (typeof actor !== 'object' || actor === null || typeof actor.userId !== 'string' || !ROLES.has(actor.role)) {
    throw new ChannelWebhookError('invalid_argument', "actor must be { userId: string, role: 'owner' | 'admin' | 'member' }");
  }
}

// `baseUrl` is checked: an absolute http(s) URL.
function normalizeBaseUrl(baseUrl: string): string {
  const parsed = new URL(baseUrl);
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
    lastPostAt: record.lastPostAt,
    status: record.revokedAt === null ? 'active' : 'revoked',
  };
}
