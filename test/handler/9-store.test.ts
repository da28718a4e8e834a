import { describe, expect, it } from 'vitest';
import { OWNER, expectedMessage, problem, problemHeaders, settle, setup, successHeaders } from '../support/setup.js';

describe('201 created', () => {
  it('a text post stores the message and answers 201 with it', async () => {
    const s = await setup({ webhookName: 'Deploy bot' });
    const response = await s.post({ text: 'Deploy finished' });
    const message = expectedMessage(s, { text: 'Deploy finished' });
    expect(response).toEqual({ status: 201, headers: successHeaders(59), body: { message, duplicate: false } });
    expect(await s.store.listMessages('general')).toEqual([(response.body as { message: unknown }).message]);
    expect(message.author).toEqual({ type: 'webhook', id: s.webhookId, name: 'Deploy bot' });
  });

  it('a blocks-only post has body "" and the blocks as sent', async () => {
    const s = await setup();
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'Release 1.2', emoji: true } },
      { type: 'divider' },
      { type: 'section', text: { type: 'mrkdwn', text: '*done*' }, block_id: 'b1' },
    ];
    const response = await s.post({ blocks });
    expect(response).toEqual({
      status: 201,
      headers: successHeaders(59),
      body: { message: expectedMessage(s, { blocks }), duplicate: false },
    });
  });

  it('text is stored as sent, untrimmed', async () => {
    const s = await setup();
    const response = await s.post({ text: '  padded  ' });
    expect((response.body as { message: { body: string } }).message.body).toBe('  padded  ');
  });

  it('each post without a key creates a new message with its own id', async () => {
    const s = await setup();
    const first = await s.post({ text: 'same' });
    const second = await s.post({ text: 'same' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    const ids = [first, second].map((response) => (response.body as { message: { id: string } }).message.id);
    expect(ids[0]).not.toBe(ids[1]);
    expect(await s.store.listMessages('general')).toHaveLength(2);
  });

  it('the author name is the webhook name at the time of posting, as stored: trimmed', async () => {
    const s = await setup({ webhookName: '  Spaced name  ' });
    const response = await s.post({ text: 'hi' });
    expect((response.body as { message: { author: unknown } }).message.author).toEqual({
      type: 'webhook',
      id: s.webhookId,
      name: 'Spaced name',
    });
  });
});

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
    for (const key of ['abc', ' abc', 'ABC', 'abc ']) statuses.push((await s.post({ text: key }, { idempotencyKey: key })).status);
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
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => s.post({ text: `attempt ${i}` }, { idempotencyKey: 'race' })));
    const stored = await s.store.listMessages('general');
    expect(stored).toHaveLength(1);
    expect(responses.map((response) => response.status).sort()).toEqual([...Array<number>(11).fill(200), 201]);
    for (const response of responses) expect((response.body as { message: unknown }).message).toEqual(stored[0]);
    expect(responses.filter((response) => (response.body as { duplicate: boolean }).duplicate === false)).toHaveLength(1);
  });
});

describe('409 channel archived', () => {
  it('a post to an archived channel answers 409 and stores nothing', async () => {
    const s = await setup();
    await s.store.putChannel({ id: 'general', ownerId: OWNER.userId, archived: true });
    const response = await s.post({ text: 'hi' });
    expect(response).toEqual({
      status: 409,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: problem(409, 'channel_archived'),
    });
    expect(await s.store.listMessages('general')).toEqual([]);
  });

  it('409 wins over a duplicate key', async () => {
    const s = await setup();
    expect((await s.post({ text: 'hi' }, { idempotencyKey: 'k' })).status).toBe(201);
    await s.store.putChannel({ id: 'general', ownerId: OWNER.userId, archived: true });
    const response = await s.post({ text: 'hi' }, { idempotencyKey: 'k' });
    expect(response).toEqual({
      status: 409,
      headers: problemHeaders({ remaining: 58, seconds: 60 }),
      body: problem(409, 'channel_archived'),
    });
  });

  it('an invalid payload to an archived channel answers 400: fields are checked first', async () => {
    const s = await setup();
    await s.store.putChannel({ id: 'general', ownerId: OWNER.userId, archived: true });
    expect((await s.post({ text: '' })).status).toBe(400);
  });
});

describe('onMessage', () => {
  it('is called once per new message, with the stored message, and not for duplicates', async () => {
    const s = await setup();
    const first = await s.post({ text: 'one' }, { idempotencyKey: 'k' });
    await s.post({ text: 'one again' }, { idempotencyKey: 'k' });
    const second = await s.post({ text: 'two' });
    await settle();
    expect(s.delivered).toEqual([(first.body as { message: unknown }).message, (second.body as { message: unknown }).message]);
  });

  it('is not called for refused posts', async () => {
    const s = await setup();
    await s.post({ text: '' });
    await s.post({ text: 'hi' }, { headers: { 'content-type': 'text/plain' } });
    await settle();
    expect(s.delivered).toEqual([]);
  });

  it('a throwing onMessage does not change the answer and goes to onError', async () => {
    const failure = new Error('fan-out failed');
    const s = await setup({
      onMessage: () => {
        throw failure;
      },
    });
    const response = await s.post({ text: 'hi' });
    await settle();
    expect(response).toEqual({
      status: 201,
      headers: successHeaders(59),
      body: { message: expectedMessage(s, { text: 'hi' }), duplicate: false },
    });
    expect(s.errors.map((reported) => reported.context)).toEqual([{ stage: 'on_message', webhookId: s.webhookId }]);
  });

  it('a rejecting onMessage does not change the answer and goes to onError', async () => {
    const s = await setup({ onMessage: () => Promise.reject(new Error('fan-out failed')) });
    const response = await s.post({ text: 'hi' });
    await settle();
    expect(response.status).toBe(201);
    expect(s.errors.map((reported) => reported.context)).toEqual([{ stage: 'on_message', webhookId: s.webhookId }]);
  });
});
