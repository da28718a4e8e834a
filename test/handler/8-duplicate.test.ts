import { describe, expect, it } from 'vitest';
import { OWNER, setup, successHeaders } from '../support/setup.js';

describe('200 duplicate', () => {
  it('a repeated key returns the original message unchanged, even with other text and blocks', async () => {
    const s = await setup();
    const first = await s.post({ text: 'original', eventId: 'evt-1' });
    expect(first.status).toBe(201);
    s.clock.advance(5_000);
    const repeat = await s.post({ text: 'changed', blocks: [{ type: 'divider' }], eventId: 'evt-1' });
    expect(repeat).toEqual({
      status: 200,
      headers: successHeaders(58, 55),
      body: { message: (first.body as { message: unknown }).message, duplicate: true },
    });
    expect(await s.store.listMessages('general')).toEqual([(first.body as { message: unknown }).message]);
  });

  it('eventId and Idempotency-Key are the same key', async () => {
    const s = await setup();
    const first = await s.post({ text: 'one' }, { idempotencyKey: 'k-1' });
    const byEventId = await s.post({ text: 'two', eventId: 'k-1' });
    const byBoth = await s.post({ text: 'three', eventId: 'k-1' }, { idempotencyKey: 'k-1' });
    expect(first.status).toBe(201);
    for (const repeat of [byEventId, byBoth]) {
      expect(repeat.status).toBe(200);
      expect(repeat.body).toEqual({ message: (first.body as { message: unknown }).message, duplicate: true });
    }
  });

  it('keys are compared exactly: no trimming, no case folding', async () => {
    const s = await setup();
    const statuses = [];
    for (const key of ['abc', ' abc', 'ABC', 'abc '])
      statuses.push((await s.post({ text: key }, { idempotencyKey: key })).status);
    expect(statuses).toEqual([201, 201, 201, 201]);
  });

  it('keys are per webhook', async () => {
    const s = await setup();
    const other = await s.manager.create(OWNER, { channelId: 'general', name: 'Other' });
    expect((await s.post({ text: 'a' }, { idempotencyKey: 'shared' })).status).toBe(201);
    expect((await s.post({ text: 'b' }, { idempotencyKey: 'shared', url: other.url })).status).toBe(201);
  });

  it('keys survive rotation', async () => {
    const s = await setup();
    const first = await s.post({ text: 'before rotation' }, { idempotencyKey: 'evt-9' });
    const rotated = await s.manager.rotate(OWNER, s.webhookId);
    const repeat = await s.post({ text: 'after rotation' }, { idempotencyKey: 'evt-9', url: rotated.url });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual({ message: (first.body as { message: unknown }).message, duplicate: true });
  });

  it('concurrent posts with one key store one message and all answer with it', async () => {
    const s = await setup();
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => s.post({ text: `attempt ${i}` }, { idempotencyKey: 'race' })),
    );
    const stored = await s.store.listMessages('general');
    expect(stored).toHaveLength(1);
    expect(responses.map((response) => response.status).sort()).toEqual([...Array<number>(11).fill(200), 201]);
    for (const response of responses) expect((response.body as { message: unknown }).message).toEqual(stored[0]);
    expect(responses.filter((response) => (response.body as { duplicate: boolean }).duplicate === false)).toHaveLength(
      1,
    );
  });
});
