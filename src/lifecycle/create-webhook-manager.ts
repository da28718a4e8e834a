import { fn, HTTP_URL, integer, required } from '../arguments/argument-rules.js';
import { checkArgument, checkOptions, type OptionsShape } from '../arguments/check-options.js';
import { CLOCK, MANAGER_STORE } from '../arguments/port-rules.js';
import { systemClock } from '../clock.js';
import { createConsoleErrorLog } from '../reporting/console-error-log.js';
import type { ErrorContext } from '../reporting/error-context.js';
import { ChannelWebhookError } from '../errors.js';
import { POST_HISTORY_LIMIT } from '../limits.js';
import { isThenable, type MaybePromise } from '../waiting/maybe-promise.js';
import type {
  Channel,
  Clock,
  LifecycleStore,
  PostHistoryStore,
  PostRecord,
  WebhookProfileChange,
  WebhookRecord,
} from '../ports.js';
import { generateSecret, generateWebhookId, hashSecret, isWellFormedWebhookId } from '../secret/secret.js';
import { cleanWebhookName } from './webhook-name.js';
import { cleanProfileChange } from './webhook-profile.js';

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
  /** What the webhook is for: plain text of 1 to 500 characters, or `null`. */
  description: string | null;
  /** The image an app shows beside the webhook's messages: an absolute `https:` URL, or `null`. */
  avatarUrl: string | null;
}

/**
 * A webhook's profile as `create` and `update` take it: `null` or a blank string clears a field, and
 * a field left out of an update stays as it is. The name is not part of it: it is chosen at creation.
 *
 * @example
 * ```ts
 * const profile: WebhookProfileInput = { description: 'Deploys from CI', avatarUrl: 'https://chat.example.com/ci.png' };
 * await manager.update(actor, webhookId, profile);
 * ```
 */
export interface WebhookProfileInput {
  /** Plain text, trimmed: 1 to 500 characters, line breaks allowed; no other control or bidirectional formatting character. */
  description?: string | null;
  /**
   * An absolute `https:` URL without user name or password, at most 2,048 characters, that the
   * renderer would show as an image (no space or control character anywhere).
   */
  avatarUrl?: string | null;
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
  type: 'webhook.created' | 'webhook.updated' | 'webhook.rotated' | 'webhook.revoked';
  webhookId: string;
  channelId: string;
  /** Who made the change (a copy of the actor passed to the manager). */
  actor: Actor;
  /** When the change happened, epoch ms, from the manager's clock (the record's own timestamp). */
  at: number;
  /** The webhook's name. */
  name: string;
  /** The webhook's description after the change. */
  description: string | null;
  /** The webhook's avatar URL after the change. */
  avatarUrl: string | null;
  /** For `webhook.updated` only: the profile before the change. */
  previous?: { description: string | null; avatarUrl: string | null };
}

/**
 * What the manager's `onError` learns besides the error: the shape every `onError` gets
 * ({@link ErrorContext}), for an `onAudit` hook that failed on this event, with its webhook and
 * channel. The change itself was made and stays made.
 *
 * @example
 * ```ts
 * onError: (error, { stage, webhookId, event }) => log.error({ err: error, stage, webhookId, type: event.type }, 'audit write failed'),
 * ```
 */
export interface ManagerErrorContext extends ErrorContext<'on_audit'> {
  webhookId: string;
  channelId: string;
  /** The audit event the hook failed on. */
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
  /**
   * Where channels and webhooks live: any `WebhookStore`, of which the manager calls what the
   * lifecycle needs (a {@link LifecycleStore}) and, when the store has a history, `listPosts`.
   */
  store: LifecycleStore & Partial<PostHistoryStore>;
  /** Origin (and optional mount path) the webhook URLs start with, e.g. `https://chat.example.com/api`. */
  baseUrl: string;
  /** Time source. Default {@link systemClock}. */
  clock?: Clock;
  /**
   * Called after every change the store confirmed (create, an update that changed the profile,
   * rotate, a revoke that revoked), and awaited, so an audit row is written before the manager's promise settles. A throw or rejection
   * goes to `onError`; the change is never undone and the caller still gets its result. Default: none.
   */
  onAudit?: (event: AuditEvent) => void | Promise<void>;
  /**
   * Called when `onAudit` fails. Its own failures are ignored. Default: one line per failure on
   * `console.error` (stage, webhook id, error), identical ones at most one every 10 s with a count.
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
  /**
   * Creates a webhook in an active channel, with its name and, optionally, its profile. Its URL is
   * in the result, and nowhere else, ever.
   */
  create(actor: Actor, input: { channelId: string; name: string } & WebhookProfileInput): Promise<WebhookWithUrl>;
  /**
   * Changes an active webhook's profile: the fields `change` holds (`null` or a blank string clears
   * one). The name and the channel never change: a new name is a new webhook.
   */
  update(actor: Actor, webhookId: string, change: WebhookProfileInput): Promise<WebhookInfo>;
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
  /**
   * What happened to the webhook's recent posts (see {@link PostRecord}), newest first: at most
   * `limit` (1 to 100, default 100) of the records the store keeps. Throws `history_unavailable`
   * when the store keeps no history (it has no `listPosts`).
   */
  history(actor: Actor, webhookId: string, options?: { limit?: number }): Promise<PostRecord[]>;
  /**
   * Whether `actor` may manage the webhooks of `channelId`, by the rule every other method checks
   * (organization owners and admins, and the channel's owner): `false` for a channel that does not
   * exist. For an app to decide whether to show the settings at all. A boolean at once when the
   * store's `getChannel` answers at once (the memory and SQLite stores), else a promise of one.
   *
   * @example
   * ```ts
   * if (await manager.canManage({ userId: 'u1', role: 'member' }, 'general')) showWebhookSettings();
   * ```
   */
  canManage(actor: Actor, channelId: string): MaybePromise<boolean>;
}

const ROLES = new Set(['owner', 'admin', 'member']);

/**
 * Creates the webhook manager: create, update (the profile), rotate, revoke, get, list and history,
 * with the contract's permission rule (organization owners and admins, and the channel's owner) and
 * archived-channel rule. Errors are {@link ChannelWebhookError}s with codes `forbidden`,
 * `channel_not_found`, `channel_archived`, `webhook_not_found`, `webhook_revoked`, `invalid_name`,
 * `invalid_description`, `invalid_avatar_url`, `history_unavailable` and `invalid_argument`; bad
 * options make the factory throw `invalid_argument`. Permission is checked before the input.
 *
 * Names are stored trimmed: 1 to 80 code points, a raw input of at most 1,024 UTF-16 code units, no
 * control characters (C0, C1, DEL), lone surrogates or bidirectional formatting characters.
 * Descriptions likewise, up to 500 code points, with tab and line feed allowed; avatar URLs are
 * absolute `https:` URLs of at most 2,048 characters, without user name or password, that the
 * renderer would show as an image.
 *
 * Secrets are 256 random bits, URL-safe; the store keeps only their SHA-256. Webhook ids are `wh_`
 * and 128 random bits, or, when the store has `newWebhookId`, the id it gives (checked to have that
 * shape).
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
  const onError = options.onError ?? createConsoleErrorLog(clock, 'createWebhookManager');
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const urlOf = (webhookId: string, secret: string) => `${baseUrl}/hooks/channels/${webhookId}/${secret}`;

  const audit = async (
    type: AuditEvent['type'],
    actor: Actor,
    record: WebhookRecord,
    at: number,
    previous?: WebhookRecord,
  ): Promise<void> => {
    if (onAudit === undefined) return;
    const event: AuditEvent = {
      type,
      webhookId: record.id,
      channelId: record.channelId,
      actor: { userId: actor.userId, role: actor.role },
      at,
      name: record.name,
      description: record.description,
      avatarUrl: record.avatarUrl,
    };
    if (previous !== undefined) event.previous = { description: previous.description, avatarUrl: previous.avatarUrl };
    try {
      await onAudit(event);
    } catch (error) {
      try {
        onError(error, { stage: 'on_audit', webhookId: event.webhookId, channelId: event.channelId, event });
      } catch {
        // A failing error hook must not turn a change that was made into a rejection.
      }
    }
  };

  /** The channel, or `null` when it is gone and the actor may act on it anyway (`orphanAllowed`). */
  const channelFor = async (actor: Actor, channelId: string, orphanAllowed = false): Promise<Channel | null> => {
    checkActor(actor);
    checkChannelId(channelId);
    const channel = await store.getChannel(channelId);
    const orgWide = actor.role === 'owner' || actor.role === 'admin';
    if (channel === null) {
      if (!orphanAllowed) throw new ChannelWebhookError('channel_not_found', `there is no channel ${channelId}`);
      if (orgWide) return null;
      throw new ChannelWebhookError(
        'forbidden',
        `channel ${channelId} no longer exists: only organization owners and admins may revoke its webhooks`,
      );
    }
    if (!mayManage(actor, channel)) {
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
  const revokeOne = async (
    webhookId: string,
  ): Promise<{ record: WebhookRecord; at: number; revokedNow: boolean } | null> => {
    const at = clock.now();
    const record = await store.revokeWebhook(webhookId, at);
    if (record === null) return null;
    // The store keeps the first revocation time, so another time means someone else got there first.
    return { record, at, revokedNow: record.revokedAt === at };
  };

  /** A new webhook's id: the store's, when it chooses them, else a random one. */
  const newWebhookId = (channelId: string): string => {
    if (store.newWebhookId === undefined) return generateWebhookId();
    const id: unknown = store.newWebhookId(channelId);
    if (typeof id !== 'string' || !isWellFormedWebhookId(id)) {
      throw new ChannelWebhookError(
        'store_failed',
        "the store's newWebhookId() gave an id that is not `wh_` and 22 base64url characters",
      );
    }
    return id;
  };

  return {
    async create(actor, input) {
      const channel = (await channelFor(actor, input?.channelId))!;
      const name = cleanWebhookName(input.name);
      const profile = cleanProfileChange(input);
      if (channel.archived) {
        throw new ChannelWebhookError(
          'channel_archived',
          `channel ${channel.id} is archived: webhooks cannot be created in it`,
        );
      }
      const secret = generateSecret();
      const record: WebhookRecord = {
        id: newWebhookId(channel.id),
        channelId: channel.id,
        name,
        secretHash: hashSecret(secret),
        createdBy: actor.userId,
        createdAt: clock.now(),
        rotatedAt: null,
        revokedAt: null,
        lastPostAt: null,
        description: profile.description ?? null,
        avatarUrl: profile.avatarUrl ?? null,
      };
      await store.insertWebhook(record);
      await audit('webhook.created', actor, record, record.createdAt);
      return { webhook: toInfo(record), url: urlOf(record.id, secret) };
    },

    async update(actor, webhookId, change) {
      const webhook = await webhookFor(actor, webhookId);
      if (typeof change !== 'object' || change === null)
        throw new ChannelWebhookError('invalid_argument', 'change must be { description?, avatarUrl? }');
      const profile: WebhookProfileChange = cleanProfileChange(change);
      if (webhook.revokedAt !== null) throw revokedError(webhookId);
      const at = clock.now();
      const updated = await store.updateWebhookProfile(webhook.id, profile);
      if (updated === null) throw revokedError(webhookId);
      if (updated.description !== webhook.description || updated.avatarUrl !== webhook.avatarUrl) {
        await audit('webhook.updated', actor, updated, at, webhook);
      }
      return toInfo(updated);
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

    canManage(actor, channelId) {
      checkActor(actor);
      checkChannelId(channelId);
      const channel = store.getChannel(channelId);
      const judge = (found: Channel | null) => found !== null && mayManage(actor, found);
      return isThenable(channel) ? Promise.resolve(channel).then(judge) : judge(channel);
    },

    async history(actor, webhookId, options) {
      const limit = options?.limit ?? POST_HISTORY_LIMIT;
      checkArgument('history', 'options.limit', limit, HISTORY_LIMIT);
      const webhook = await webhookFor(actor, webhookId);
      if (store.listPosts === undefined) {
        throw new ChannelWebhookError(
          'history_unavailable',
          'this store keeps no history of posts: it has no listPosts()',
        );
      }
      return store.listPosts(webhook.id, limit);
    },
  };
}

const HISTORY_LIMIT = integer(1, POST_HISTORY_LIMIT);

const OPTIONS: OptionsShape = {
  store: required(MANAGER_STORE),
  baseUrl: required(HTTP_URL),
  clock: CLOCK,
  onAudit: fn('a function (event) => void'),
  onError: fn('a function (error, context) => void'),
};

function revokedError(webhookId: string): ChannelWebhookError {
  return new ChannelWebhookError(
    'webhook_revoked',
    `webhook ${webhookId} is revoked; create a new one to resume the integration`,
  );
}

/** The permission rule of every method: organization owners and admins, and the channel's owner. */
function mayManage(actor: Actor, channel: Channel): boolean {
  return actor.role === 'owner' || actor.role === 'admin' || actor.userId === channel.ownerId;
}

function checkChannelId(channelId: string): void {
  if (typeof channelId !== 'string' || channelId.length === 0) {
    throw new ChannelWebhookError('invalid_argument', 'channelId must be a non-empty string');
  }
}

function checkActor(actor: Actor): void {
  if (typeof actor !== 'object' || actor === null || typeof actor.userId !== 'string' || !ROLES.has(actor.role)) {
    throw new ChannelWebhookError(
      'invalid_argument',
      "actor must be { userId: string, role: 'owner' | 'admin' | 'member' }",
    );
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
    description: record.description,
    avatarUrl: record.avatarUrl,
  };
}
