import { describe, expect, it } from 'vitest';
import { OWNER, problem, problemHeaders, setup } from '../support/setup.js';

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
