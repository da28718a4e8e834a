import type { Block } from '../validation/payload-types.js';
import type { Message, WebhookRecord } from '../ports.js';
import { isoTime } from './iso-time.js';
import { newMessageId } from './message-id.js';

/** The message a post by `webhook` stores, as the contract shows it: `text` and `blocks` as sent, `""` and `[]` when absent. */
export function newMessage(
  webhook: WebhookRecord,
  text: string | undefined,
  blocks: Block[] | undefined,
  now: number,
): Message {
  return {
    id: newMessageId(now),
    channelId: webhook.channelId,
    body: text ?? '',
    blocks: blocks ?? [],
    author: { type: 'webhook', id: webhook.id, name: webhook.name },
    createdAt: isoTime(now),
  };
}
