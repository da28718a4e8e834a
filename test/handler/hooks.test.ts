import { describe, expect, it } from 'vitest';
import { expectedMessage, settle, setup, successHeaders } from '../support/setup.js';

describe('onMessage', () => {
  it('is called once per new message, with the stored message, and not for duplicates', async () => {
    const s = await setup();
    const first = await s.post({ text: 'one' }, { idempotencyKey: 'k' });
    await s.post({ text: 'one again' }, { idempotencyKey: 'k' });
    const second = await s.post({ text: 'two' });
    await settle();
    expect(s.delivered).toEqual([
      (first.body as { message: unknown }).message,
      (second.body as { message: unknown }).message,
    ]);
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
