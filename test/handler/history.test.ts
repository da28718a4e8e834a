import { describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { POST_HISTORY_LIMIT } from '../../src/limits.js';
import type { PostRecord, WebhookStore } from '../../src/ports.js';
import {
  ADMIN,
  deepText,
  OWNER,
  type ReportedError,
  settle,
  setup,
  type World,
  type WorldOptions,
} from '../support/setup.js';

// Every answer to a post whose URL proved its webhook's secret goes to that webhook's history, off
// the answer's path; nothing else does. A record says what the answer said, never the secret or
// what a refused body held.

const GUIDE = 'https://github.com/channel-webhooks/channel-webhooks/blob/main/docs/slack-differences.md';
const at = (s: World) => s.clock.now();
const bytes = (body: unknown) =>
  new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)).byteLength;

/** The webhook's history once the recorder has written, newest first. */
async function history(s: World, webhookId = s.webhookId): Promise<PostRecord[]> {
  await settle();
  return s.store.listPosts(webhookId, POST_HISTORY_LIMIT);
}

function stored(s: World, fields: Partial<PostRecord>): PostRecord {
  return {
    webhookId: s.webhookId,
    at: at(s),
    status: 201,
    code: null,
    errors: [],
    idempotencyKey: null,
    messageId: expect.any(String),
    bodyBytes: 0,
    count: 1,
    ...fields,
  };
}

function refused(s: World, status: number, code: string, fields: Partial<PostRecord> = {}): PostRecord {
  return {
    webhookId: s.webhookId,
    at: at(s),
    status,
    code,
    errors: [],
    idempotencyKey: null,
    messageId: null,
    bodyBytes: null,
    count: 1,
    ...fields,
  };
}

describe('what the history records', () => {
  it('each answer after the secret proved: status, code, key, message id, body size, and the hints of a 400', async () => {
    const s = await setup();
    const fields = { blocks: [{ type: 'section', fields: [{ type: 'mrkdwn', text: '*Env* ✓' }] }] };
    const created = await s.post({ text: 'Deploy 42 finished' }, { idempotencyKey: 'deploy-42' });
    const repeated = await s.post({ text: 'Deploy 42 again' }, { idempotencyKey: 'deploy-42' });
    await s.post(fields);
    await s.post(undefined, { raw: '{"text": "cut' });
    await s.post({ text: 'hi' }, { headers: { 'content-type': 'text/plain' } });
    await s.post(undefined, { headers: { 'content-length': '70000' }, raw: 'x' });
    const messageId = (answer: { body: unknown }) => (answer.body as { message: { id: string } }).message.id;
    expect(await history(s)).toEqual([
      refused(s, 413, 'payload_too_large'),
      refused(s, 415, 'unsupported_media_type'),
      refused(s, 400, 'invalid_json', {
        errors: [{ pointer: '', message: 'must be valid JSON' }],
        bodyBytes: bytes('{"text": "cut'),
      }),
      refused(s, 400, 'invalid_payload', {
        errors: [
          {
            pointer: '/blocks/0/fields',
            message: 'is not an allowed property',
            hint: expect.stringContaining(`${GUIDE}#section-fields`),
          },
        ],
        bodyBytes: bytes(fields),
      }),
      stored(s, {
        status: 200,
        idempotencyKey: 'deploy-42',
        messageId: messageId(repeated),
        bodyBytes: bytes({ text: 'Deploy 42 again' }),
      }),
      stored(s, {
        status: 201,
        idempotencyKey: 'deploy-42',
        messageId: messageId(created),
        bodyBytes: bytes({ text: 'Deploy 42 finished' }),
      }),
    ]);
  });

  it('409 for an archived channel, and 404 for a webhook revoked while its body arrived', async () => {
    const s = await setup();
    const archived = await s.post({ text: 'into the archive' }, { url: s.archivedPath, idempotencyKey: 'a-1' });
    expect(archived.status).toBe(409);
    const archivedId = s.archivedPath.split('/').at(-2)!;
    expect(await history(s, archivedId)).toEqual([
      {
        ...refused(s, 409, 'channel_archived'),
        webhookId: archivedId,
        idempotencyKey: 'a-1',
        bodyBytes: bytes({ text: 'into the archive' }),
      },
    ]);

    const revokedMidway = await s.post(undefined, {
      raw: async () => {
        await s.manager.revoke(OWNER, s.webhookId);
        return '{"text":"late"}';
      },
    });
    expect(revokedMidway.status).toBe(404);
    expect(await history(s)).toEqual([refused(s, 404, 'not_found', { bodyBytes: bytes('{"text":"late"}') })]);
  });

  it('a store that fails the insert: a 500 record', async () => {
    const s = await setup();
    const failing = createWebhookHandler({
      store: { ...s.store, insertMessage: () => Promise.reject(new Error('disk full')) },
      clock: s.clock,
      onError: () => {},
    });
    const answer = await failing({
      method: 'POST',
      url: s.url,
      headers: { 'content-type': 'application/json' },
      body: '{"text":"hi"}',
    });
    expect(answer.status).toBe(500);
    expect(await history(s)).toEqual([refused(s, 500, 'store_failed', { bodyBytes: bytes('{"text":"hi"}') })]);
  });

  it('a 400 keeps its first five errors and nothing of the body', async () => {
    const s = await setup();
    const payload = {
      text: 'TOP-SECRET-BODY',
      ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`extra${i}`, 'TOP-SECRET-VALUE'])),
    };
    const answer = await s.post(payload);
    const [record] = await history(s);
    expect(record!.errors).toEqual((answer.body as { errors: unknown[] }).errors.slice(0, 5));
    expect(record!.errors).toHaveLength(5);
    expect(JSON.stringify(record)).not.toMatch(/TOP-SECRET/);
  });

  it('a wrong or unknown secret, a malformed URL, or any method but POST is recorded nowhere', async () => {
    const written: PostRecord[][] = [];
    const s = await setup({
      wrapStore: (store) => ({
        ...store,
        recordPosts: (records) => (written.push([...records]), store.recordPosts(records)),
      }),
    });
    await s.post({ text: 'hi' }, { url: s.wrongSecretPath });
    await s.post({ text: 'hi' }, { url: `/hooks/channels/wh_${'A'.repeat(22)}/${'B'.repeat(43)}` });
    await s.post({ text: 'hi' }, { url: `/hooks/channels/${s.webhookId}/short` });
    await s.post({ text: 'hi' }, { method: 'GET' });
    await s.post({ text: 'hi' }, { method: 'PUT', url: s.url });
    await settle();
    expect(written).toEqual([]);
    expect(await history(s)).toEqual([]);
  });

  it('neither the secret nor the URL reaches the store or onError', async () => {
    const reached: unknown[] = [];
    const s = await setup({
      wrapStore: (store) => ({
        ...store,
        recordPosts: (records) => {
          reached.push(records);
          throw new Error('history table is gone');
        },
      }),
      onError: (error, context) => reached.push(error, context),
    });
    await s.post({ text: 'hi' }, { idempotencyKey: 'k' });
    await s.post({ text: 'x'.repeat(20_000) });
    await settle();
    expect(reached.length).toBeGreaterThan(0);
    expect(deepText(reached)).not.toContain(s.secret);
  });
});

describe("the history's bounds", () => {
  it('429s are one record per webhook and minute, whatever their number', async () => {
    const s = await setup();
    for (let i = 0; i < 100; i++) await s.post({ text: `#${i}` });
    const first = await history(s);
    expect(first).toHaveLength(61);
    expect(first[0]).toEqual(refused(s, 429, 'rate_limited', { count: 40 }));
    s.clock.advance(61_000);
    for (let i = 0; i < 70; i++) await s.post({ text: `#${i}` });
    const second = await history(s);
    expect(second).toHaveLength(POST_HISTORY_LIMIT);
    expect(second[0]).toEqual(refused(s, 429, 'rate_limited', { count: 10 }));
    expect(second.filter((record) => record.status === 429).map((record) => record.count)).toEqual([10, 40]);
  });

  it('415s, which come before the rate count, are one record per webhook and minute too: a flood keeps an earlier 201', async () => {
    const s = await setup();
    await s.post({ text: 'deployed' });
    const deployed = stored(s, { bodyBytes: bytes({ text: 'deployed' }) });
    s.clock.advance(1_000);
    const plain = { headers: { 'content-type': 'text/plain' } };
    for (let i = 0; i < 1_000; i++) expect((await s.post({ text: `#${i}` }, plain)).status).toBe(415);
    const first = await history(s);
    expect(first).toEqual([refused(s, 415, 'unsupported_media_type', { count: 1_000 }), deployed]);
    // Still before the rate count: a JSON post of the same minute is counted as the first.
    expect((await s.post({ text: 'after' })).headers.ratelimit).toBe('"default";r=58;t=59');
    s.clock.advance(60_000);
    for (let i = 0; i < 1_000; i++) await s.post({ text: `#${i}` }, plain);
    const second = await history(s);
    expect(second.map((record) => [record.status, record.count])).toEqual([
      [415, 1_000],
      [201, 1],
      [415, 1_000],
      [201, 1],
    ]);
  });

  it('a flood of 400s from a sender holding the URL keeps the history at its bound and each batch small', async () => {
    const batches: number[] = [];
    const s = await setup({
      wrapStore: (store) => ({
        ...store,
        recordPosts: (records) => (batches.push(records.length), store.recordPosts(records)),
      }),
    });
    // 3,000 refused posts over 30 minutes: 60 a minute are counted and refused 400, the rest 429.
    for (let i = 0; i < 3_000; i++) {
      await s.post(undefined, { raw: '{"text": 1}' });
      s.clock.advance(600);
      if (i % 100 === 99) await settle();
    }
    const kept = await history(s);
    expect(kept).toHaveLength(POST_HISTORY_LIMIT);
    expect(new Set(kept.map((record) => record.status))).toEqual(new Set([400, 429]));
    expect(Math.max(...batches)).toBeLessThanOrEqual(100);
    expect(batches.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(30 * 61 + 30);
  });
});

describe('recording never changes an answer', () => {
  /** The answers to a fixed sequence of posts, ids and times taken out. */
  async function answers(options: WorldOptions): Promise<{ answers: unknown[]; errors: ReportedError[] }> {
    const s = await setup(options);
    const out: unknown[] = [];
    const send = async (body: unknown, postOptions = {}) => out.push(await s.post(body, postOptions));
    await send({ text: 'one' }, { idempotencyKey: 'k1' });
    await send({ text: 'one again' }, { idempotencyKey: 'k1' });
    await send({ blocks: [{ type: 'image' }] });
    await send(undefined, { raw: 'not json' });
    await send({ text: 'hi' }, { headers: { 'content-type': 'text/html' } });
    for (let i = 0; i < 62; i++) await send({ text: `#${i}` });
    await send({ text: 'archived' }, { url: s.archivedPath });
    await s.manager.update(ADMIN, s.webhookId, { description: 'still posting' });
    await settle();
    const normalized = JSON.parse(JSON.stringify(out), (key, value) =>
      key === 'id' || key === 'createdAt' ? '…' : value,
    );
    return { answers: normalized, errors: s.errors };
  }

  const without = (store: WebhookStore): WebhookStore => ({ ...store, recordPosts: undefined, listPosts: undefined });
  const failing: Array<[string, (store: WebhookStore) => WebhookStore]> = [
    [
      'throws',
      (store) => ({
        ...store,
        recordPosts: () => {
          throw new Error('history table is gone');
        },
      }),
    ],
    ['rejects', (store) => ({ ...store, recordPosts: () => Promise.reject(new Error('history table is gone')) })],
    ['never settles', (store) => ({ ...store, recordPosts: () => new Promise<void>(() => {}) })],
  ];

  it.each(failing)(
    'a history write that %s: the same answers as without a history, and onError hears stage history',
    async (_, wrap) => {
      const expected = await answers({ wrapStore: without });
      const actual = await answers({ wrapStore: wrap, storeTimeoutMs: 20 });
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(actual.answers).toEqual(expected.answers);
      expect(expected.errors).toEqual([]);
      expect(actual.errors.length).toBeGreaterThan(0);
      for (const { context } of actual.errors) expect(context).toEqual({ stage: 'history' });
    },
  );

  it('the answer is out before the history is written', async () => {
    const events: string[] = [];
    const s = await setup({
      wrapStore: (store) => ({
        ...store,
        recordPosts: (records) => (events.push('recordPosts'), store.recordPosts(records)),
      }),
    });
    const answer = s.handle.fastPath!.handleMatched(
      { method: 'POST', url: s.path, headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}' },
      { webhookId: s.webhookId, secret: s.secret },
    );
    events.push('answered');
    expect(answer).toMatchObject({ status: 201 });
    await settle();
    expect(events).toEqual(['answered', 'recordPosts']);
  });

  it('a handler over a store without history answers as before and never asks for it', async () => {
    const s = await setup({ wrapStore: without });
    const handle = createWebhookHandler({ store: without(s.store) });
    expect(
      (
        await handle({
          method: 'POST',
          url: s.url,
          headers: { 'content-type': 'application/json' },
          body: '{"text":"hi"}',
        })
      ).status,
    ).toBe(201);
    expect(s.store.listPosts(s.webhookId, POST_HISTORY_LIMIT)).toEqual([]);
  });
});
