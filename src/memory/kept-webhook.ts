import type { WebhookRecord } from '../ports.js';
import type { HistoryRing } from './history-ring.js';

/**
 * A webhook as the memory store keeps it: the record's fields, but the time of its last post as a
 * number that is never null (`NaN` before the first post), under a name no handed-out record uses.
 * V8 keeps a number field that only ever holds numbers as one number box per object, overwritten in
 * place; a field that once held null holds any value, and each post would store a new number object
 * in the (old) record, one that every collection until the webhook's next post must find and copy.
 * With a million webhooks posting, that was half the collector's time per post.
 */
export interface KeptWebhook extends Omit<WebhookRecord, 'lastPostAt'> {
  lastPostTime: number;
  /** Its post history, once it has one (see `HistoryRing`). */
  history: HistoryRing | null;
}

/** The kept form of a record, sharing nothing with it but its channel's id, given as `channelId`. */
export function keepWebhook(webhook: WebhookRecord, channelId: string): KeptWebhook {
  return {
    id: webhook.id,
    channelId,
    name: webhook.name,
    secretHash: webhook.secretHash,
    createdBy: webhook.createdBy,
    createdAt: webhook.createdAt,
    rotatedAt: webhook.rotatedAt,
    revokedAt: webhook.revokedAt,
    lastPostTime: webhook.lastPostAt ?? Number.NaN,
    description: webhook.description,
    avatarUrl: webhook.avatarUrl,
    history: null,
  };
}

/** The record a caller gets: a frozen copy, with exactly the port's fields in their order. */
export function handOutWebhook(kept: KeptWebhook): WebhookRecord {
  return Object.freeze({
    id: kept.id,
    channelId: kept.channelId,
    name: kept.name,
    secretHash: kept.secretHash,
    createdBy: kept.createdBy,
    createdAt: kept.createdAt,
    rotatedAt: kept.rotatedAt,
    revokedAt: kept.revokedAt,
    lastPostAt: Number.isNaN(kept.lastPostTime) ? null : kept.lastPostTime,
    description: kept.description,
    avatarUrl: kept.avatarUrl,
  });
}
