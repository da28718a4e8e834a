import { describe, expect, it } from 'vitest';
import { expectedMessage, setup, successHeaders } from '../support/setup.js';

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
