import { describe, expect, it } from 'vitest';
import type { BodyReader } from '../../src/http/http-types.js';
import { CHANNEL_ID, OWNER, problem, problemHeaders, settle, setup, type World } from '../support/setup.js';

/** A body reader that signals when the handler starts reading and holds the body until released. */
function heldBody(text: string): { reader: BodyReader; reading: Promise<void>; release(): void } {
  let started!: () => void;
  let release!: () => void;
  const reading = new Promise<void>((resolve) => (started = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const reader: BodyReader = async () => {
    started();
    await gate;
    return text;
  };
  return { reader, reading, release };
}

/** Posts with a body that is still arriving while `change` runs, and returns the answer. */
async function postWhile(s: World, change: () => Promise<unknown>) {
  const body = heldBody(JSON.stringify({ text: 'in flight' }));
  const answer = s.post(undefined, { raw: body.reader, idempotencyKey: 'in-flight-1' });
  await body.reading;
  await change();
  body.release();
  return answer;
}

// A change that completes while a body is arriving is seen by the insert: nothing is stored after it.
describe('a webhook changed while its post body is still arriving', () => {
  it('revoked: 404, nothing stored, nothing delivered', async () => {
    const s = await setup();
    const response = await postWhile(s, () => s.manager.revoke(OWNER, s.webhookId));
    expect(response).toEqual({
      status: 404,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: problem(404, 'not_found'),
    });
    await settle();
    expect(await s.store.listMessages(CHANNEL_ID)).toEqual([]);
    expect(s.delivered).toEqual([]);
    expect((await s.store.getWebhook(s.webhookId))?.lastPostAt).toBeNull();
  });

  it('rotated: the old secret gets 404 and nothing is stored; the new one posts', async () => {
    const s = await setup();
    let rotatedUrl = '';
    const response = await postWhile(s, async () => {
      rotatedUrl = (await s.manager.rotate(OWNER, s.webhookId)).url;
    });
    expect(response).toEqual({
      status: 404,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: problem(404, 'not_found'),
    });
    expect(await s.store.listMessages(CHANNEL_ID)).toEqual([]);
    // The same key through the new secret is a first post, not a duplicate of the refused one.
    const retried = await s.post({ text: 'in flight' }, { url: rotatedUrl, idempotencyKey: 'in-flight-1' });
    expect(retried.status).toBe(201);
    expect(await s.store.listMessages(CHANNEL_ID)).toHaveLength(1);
  });

  it('channel archived: 409, nothing stored, nothing delivered', async () => {
    const s = await setup();
    const response = await postWhile(s, async () =>
      s.store.putChannel({ id: CHANNEL_ID, ownerId: OWNER.userId, archived: true }),
    );
    expect(response).toEqual({
      status: 409,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: problem(409, 'channel_archived'),
    });
    await settle();
    expect(await s.store.listMessages(CHANNEL_ID)).toEqual([]);
    expect(s.delivered).toEqual([]);
  });
});

// The window the guarded insert closes for good: the change lands after every earlier check passed,
// just before the store is asked to write.
describe('a webhook changed after the body arrived, just before the insert', () => {
  const changedBeforeInsert = async (change: (s: World) => Promise<unknown>) => {
    let s!: World;
    s = await setup({
      wrapStore: (store) => ({
        ...store,
        insertMessage: async (...args: Parameters<typeof store.insertMessage>) => {
          await change(s);
          return store.insertMessage(...args);
        },
      }),
    });
    const response = await s.post({ text: 'late' }, { idempotencyKey: 'late-1' });
    await settle();
    return { s, response };
  };

  it('channel archived: 409 and nothing stored', async () => {
    const { s, response } = await changedBeforeInsert((s) =>
      Promise.resolve(s.store.putChannel({ id: CHANNEL_ID, ownerId: OWNER.userId, archived: true })),
    );
    expect(response).toEqual({
      status: 409,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: problem(409, 'channel_archived'),
    });
    expect(await s.store.listMessages(CHANNEL_ID)).toEqual([]);
    expect(s.delivered).toEqual([]);
  });

  it('revoked: 404 and nothing stored', async () => {
    const { s, response } = await changedBeforeInsert((s) => s.manager.revoke(OWNER, s.webhookId));
    expect(response).toEqual({
      status: 404,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: problem(404, 'not_found'),
    });
    expect(await s.store.listMessages(CHANNEL_ID)).toEqual([]);
  });
});
