import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import type { Message, PostRecord, WebhookRecord } from '../../src/ports.js';
import { CHANNEL_ID, settle, setup } from '../support/setup.js';

const BLOCKS = [
  { type: 'section', text: { type: 'mrkdwn', text: '*deployed*' }, block_id: 'b1' },
  { type: 'context', elements: [{ type: 'mrkdwn', text: 'by CI' }] },
];

/** Tries each change; a change must throw (frozen) and leave nothing different. */
function tryChanges(message: Message): void {
  const changes: Array<() => void> = [
    () => ((message as { body: string }).body = 'changed'),
    () => ((message.author as { name: string }).name = 'Mallory'),
    () => message.blocks.push({ type: 'divider' }),
    () => ((message.blocks[0] as { block_id: string }).block_id = 'b2'),
    () => ((message.blocks[0] as { text: { text: string } }).text.text = 'changed'),
    () => ((message.blocks[1] as { elements: unknown[] }).elements.length = 0),
    () => delete (message as { createdAt?: string }).createdAt,
  ];
  for (const change of changes) expect(change).toThrow(TypeError);
}

// Rule: nothing the memory store hands out can change what it stored: the sender's answer, the
// onMessage argument and listMessages results are frozen, and every later duplicate answer is the
// first one exactly.
describe('what the memory store hands out cannot change what it stored', () => {
  it('the answer to the sender', async () => {
    const s = await setup();
    const first = await s.post({ text: 'deployed', blocks: BLOCKS }, { idempotencyKey: 'evt-1' });
    const snapshot = structuredClone(first.body);
    tryChanges((first.body as { message: Message }).message);
    const again = await s.post({ text: 'other' }, { idempotencyKey: 'evt-1' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...(snapshot as object), duplicate: true });
    expect(await s.store.listMessages(CHANNEL_ID)).toEqual([(snapshot as { message: Message }).message]);
  });

  it('the onMessage argument', async () => {
    let snapshot: Message | undefined;
    const thrown: unknown[] = [];
    const s = await setup({
      onMessage: (message) => {
        snapshot = structuredClone(message);
        try {
          tryChanges(message);
        } catch (error) {
          thrown.push(error);
        }
      },
    });
    await s.post({ text: 'deployed', blocks: BLOCKS }, { idempotencyKey: 'evt-1' });
    await settle();
    expect(thrown).toEqual([]);
    const again = await s.post({ text: 'deployed' }, { idempotencyKey: 'evt-1' });
    expect(again.body).toEqual({ message: snapshot, duplicate: true });
  });

  it("a listMessages result: the list is the caller's own, the messages are frozen", async () => {
    const s = await setup();
    const first = await s.post({ text: 'deployed', blocks: BLOCKS }, { idempotencyKey: 'evt-1' });
    const stored = structuredClone((first.body as { message: Message }).message);
    const list = s.store.listMessages(CHANNEL_ID);
    list.pop();
    list.push({ ...stored, id: 'forged' });
    tryChanges(s.store.listMessages(CHANNEL_ID)[0]!);
    expect(s.store.listMessages(CHANNEL_ID)).toEqual([stored]);
    const again = await s.post({ text: 'deployed' }, { idempotencyKey: 'evt-1' });
    expect(again.body).toEqual({ message: stored, duplicate: true });
  });

  it('a webhook record', async () => {
    const s = await setup();
    const record = s.store.getWebhook(s.webhookId)!;
    expect(() => ((record as { revokedAt: number | null }).revokedAt = 1)).toThrow(TypeError);
    expect(() => ((record as { secretHash: string }).secretHash = '0'.repeat(64))).toThrow(TypeError);
    expect((await s.post({ text: 'still active' })).status).toBe(201);
  });
});

// Rule: a webhook's history is kept with its record, and the history of an id the store holds no
// webhook for is kept too (the port allows it); a webhook inserted later takes that history over.
describe('the memory store keeps each history with its webhook', () => {
  const t0 = Date.UTC(2026, 0, 1);
  const record = (webhookId: string, n: number): PostRecord => ({
    webhookId,
    at: t0 + n,
    status: n % 2 === 0 ? 201 : 400,
    code: n % 2 === 0 ? null : 'invalid_payload',
    errors: n % 2 === 0 ? [] : [{ pointer: '/text', message: `post ${n}` }],
    idempotencyKey: null,
    messageId: n % 2 === 0 ? `m-${n}` : null,
    bodyBytes: 20 + n,
    count: 1,
  });
  const webhook = (id: string): WebhookRecord => ({
    id,
    channelId: 'general',
    name: id,
    secretHash: 'a'.repeat(64),
    createdBy: 'u1',
    createdAt: t0,
    rotatedAt: null,
    revokedAt: null,
    lastPostAt: null,
    description: null,
    avatarUrl: null,
  });

  it('records of a webhook, and of an id inserted as a webhook after them, come back newest first', () => {
    const store = createMemoryStore();
    store.insertWebhook(webhook('wh_held'));
    store.recordPosts([record('wh_held', 1), record('wh_later', 2), record('wh_held', 3)]);
    store.insertWebhook(webhook('wh_later'));
    store.recordPosts([record('wh_later', 4), record('wh_held', 5)]);
    expect(store.listPosts('wh_held', 100)).toEqual([record('wh_held', 5), record('wh_held', 3), record('wh_held', 1)]);
    expect(store.listPosts('wh_later', 100)).toEqual([record('wh_later', 4), record('wh_later', 2)]);
    expect(store.listPosts('wh_never', 100)).toEqual([]);
  });
});
