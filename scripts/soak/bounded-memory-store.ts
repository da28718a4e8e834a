import type { createMemoryStore, Message, WebhookStore } from '../../src/index.js';

const KEPT_KEYS = 10_000;

/**
 * A memory store that keeps no message and only the newest idempotency keys, handing each message
 * it creates to `stored`: the soak's duplicates follow their first send within a second, far inside
 * the keys kept, and a real deployment's messages grow on disk, not in the process. Its insert is
 * guarded like any store's: the webhook active under the secret hash the post matched, in a channel
 * that exists and is not archived.
 */
export function createBoundedMemoryStore(
  seed: ReturnType<typeof createMemoryStore>,
  stored: (message: Message) => void,
): WebhookStore {
  const byKey = new Map<string, Message>();
  return {
    ...seed,
    insertMessage({ message, idempotencyKey, secretHash }) {
      const webhook = seed.getWebhook(message.author.id);
      if (webhook === null || webhook.revokedAt !== null || webhook.secretHash !== secretHash)
        return { outcome: 'webhook_inactive' };
      const channel = seed.getChannel(webhook.channelId);
      if (channel === null) return { outcome: 'channel_not_found' };
      if (channel.archived) return { outcome: 'channel_archived' };
      const scoped = idempotencyKey === null ? null : `${webhook.id}\n${idempotencyKey}`;
      const earlier = scoped === null ? undefined : byKey.get(scoped);
      if (earlier !== undefined) return { outcome: 'duplicate', message: earlier };
      stored(message);
      if (scoped !== null) {
        byKey.set(scoped, message);
        if (byKey.size > KEPT_KEYS) byKey.delete(byKey.keys().next().value!);
      }
      return { outcome: 'created', message };
    },
  };
}
