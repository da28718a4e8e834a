import { describe, expect, it, vi } from 'vitest';
import { BASE_URL, OWNER, problem, problemHeaders, setup, splitUrl } from '../support/setup.js';
import type { MemoryStore } from '../../src/memory/memory-store.js';
import type { WebhookStore } from '../../src/ports.js';

const NOT_FOUND = { status: 404, headers: problemHeaders(), body: problem(404, 'not_found') };
const WELL_FORMED_ID = `wh_${'A'.repeat(22)}`;
const WELL_FORMED_SECRET = 'B'.repeat(43);

function spyingStore(store: MemoryStore): { store: WebhookStore; getWebhook: ReturnType<typeof vi.fn> } {
  const getWebhook = vi.fn((id: string) => store.getWebhook(id));
  return { store: { ...store, getWebhook }, getWebhook };
}

describe('404 not found', () => {
  it('unknown webhook id answers 404', async () => {
    const s = await setup();
    const response = await s.post(
      { text: 'hi' },
      { url: `${BASE_URL}/hooks/channels/${WELL_FORMED_ID}/${WELL_FORMED_SECRET}` },
    );
    expect(response).toEqual(NOT_FOUND);
  });

  it('wrong secret answers 404 with the same body as an unknown id', async () => {
    const s = await setup();
    const { webhookId } = splitUrl(s.url);
    const wrongSecret = await s.post(
      { text: 'hi' },
      { url: `${BASE_URL}/hooks/channels/${webhookId}/${WELL_FORMED_SECRET}` },
    );
    const unknownId = await s.post(
      { text: 'hi' },
      { url: `${BASE_URL}/hooks/channels/${WELL_FORMED_ID}/${WELL_FORMED_SECRET}` },
    );
    expect(wrongSecret).toEqual(NOT_FOUND);
    expect(wrongSecret).toEqual(unknownId);
    expect(await s.store.listMessages('general')).toEqual([]);
  });

  it('rotated URL answers 404 at once, and the new URL works', async () => {
    const s = await setup();
    const rotated = await s.manager.rotate(OWNER, s.webhookId);
    expect(await s.post({ text: 'old' })).toEqual(NOT_FOUND);
    const response = await s.post({ text: 'new' }, { url: rotated.url });
    expect(response.status).toBe(201);
  });

  it('revoked URL answers 404 at once', async () => {
    const s = await setup();
    expect((await s.post({ text: 'before' })).status).toBe(201);
    await s.manager.revoke(OWNER, s.webhookId);
    expect(await s.post({ text: 'after' })).toEqual(NOT_FOUND);
    expect((await s.store.listMessages('general')).map((message) => message.body)).toEqual(['before']);
  });

  it.each([
    ['a short id', `/hooks/channels/wh_short/${WELL_FORMED_SECRET}`],
    ['an id without the wh_ prefix', `/hooks/channels/${'A'.repeat(25)}/${WELL_FORMED_SECRET}`],
    ['a short secret', `/hooks/channels/${WELL_FORMED_ID}/${'B'.repeat(42)}`],
    ['a long secret', `/hooks/channels/${WELL_FORMED_ID}/${'B'.repeat(44)}`],
    ['a secret outside base64url', `/hooks/channels/${WELL_FORMED_ID}/${'B'.repeat(42)}+`],
    ['a path of another shape', '/hooks/channels/only-one-segment'],
    ['an unrelated path', '/health'],
  ])('malformed URL (%s) answers 404 without a store lookup', async (_, path) => {
    let spy: ReturnType<typeof spyingStore> | undefined;
    const s = await setup({
      wrapStore: (store) => {
        spy = spyingStore(store);
        return spy.store;
      },
    });
    const response = await s.post({ text: 'hi' }, { url: `${BASE_URL}${path}` });
    expect(response).toEqual(NOT_FOUND);
    expect(spy!.getWebhook).not.toHaveBeenCalled();
  });

  it('answers 404 before looking at the Content-Type or reading the body', async () => {
    const s = await setup();
    const read = vi.fn(async () => '{"text":"hi"}');
    const response = await s.post(undefined, {
      url: `${BASE_URL}/hooks/channels/${WELL_FORMED_ID}/${WELL_FORMED_SECRET}`,
      headers: { 'content-type': 'text/plain' },
      raw: read,
    });
    expect(response).toEqual(NOT_FOUND);
    expect(read).not.toHaveBeenCalled();
  });

  it('accepts the URL under a mount prefix and with a query string', async () => {
    const s = await setup();
    const { webhookId, secret } = splitUrl(s.url);
    const response = await s.post({ text: 'hi' }, { url: `/api/v1/hooks/channels/${webhookId}/${secret}?source=ci` });
    expect(response.status).toBe(201);
  });
});
