import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasMiniflare, startTestWorker, workerdTitle, type TestWorker } from './support.js';

// The objects' SQLite files are on disk (miniflare's persistence): stopping workerd and starting it
// again on them must lose nothing: webhooks, messages, idempotency keys, revocations, rate windows.
let worker: TestWorker;
beforeAll(async () => {
  if (hasMiniflare) worker = await startTestWorker();
});
afterAll(() => worker?.dispose());

describe.skipIf(!hasMiniflare)(
  workerdTitle('Durable Objects in workerd: state survives a restart of the runtime'),
  () => {
    it('keeps webhooks, messages, keys, revocations and the rate window across a restart', async () => {
      await worker.manage({ op: 'putChannel', channel: { id: 'durable', ownerId: 'u-owner', archived: false } });
      const kept = (await worker.manage({ op: 'create', channelId: 'durable', name: 'Kept' })).json as {
        url: string;
        webhook: { id: string };
      };
      const revoked = (await worker.manage({ op: 'create', channelId: 'durable', name: 'Revoked' })).json as {
        url: string;
        webhook: { id: string };
      };
      const path = new URL(kept.url).pathname;
      const first = await worker.post(path, { text: 'before the restart' }, { 'idempotency-key': 'before' });
      expect(first.status).toBe(201);
      const burst = await Promise.all(Array.from({ length: 59 }, (_, i) => worker.post(path, { text: `burst ${i}` })));
      expect(burst.every((answer) => answer.status === 201)).toBe(true);
      expect((await worker.manage({ op: 'revoke', webhookId: revoked.webhook.id })).status).toBe(200);

      await worker.restart();

      const again = await worker.post(path, { text: 'retried after the restart' }, { 'idempotency-key': 'before' });
      // The window still holds the 60 posts of the last minute: the retry is counted, and refused.
      expect(again.status).toBe(429);
      expect(again.json).toMatchObject({ code: 'rate_limited' });
      const messages = (await worker.manage({ op: 'messages', channelId: 'durable' })).json as Array<{
        id: string;
        body: string;
      }>;
      expect(messages).toHaveLength(60);
      expect(messages[0]).toEqual((first.json as { message: unknown }).message);
      expect((await worker.post(new URL(revoked.url).pathname, { text: 'revoked before the restart' })).status).toBe(
        404,
      );
      const record = (await worker.manage({ op: 'getWebhook', webhookId: kept.webhook.id })).json as {
        name: string;
        lastPostAt: number | null;
      };
      expect(record).toMatchObject({ name: 'Kept', lastPostAt: expect.any(Number) });
    });

    it('answers a repeated key after a restart with the message stored before it', async () => {
      await worker.manage({ op: 'putChannel', channel: { id: 'durable-keys', ownerId: 'u-owner', archived: false } });
      const { url } = (await worker.manage({ op: 'create', channelId: 'durable-keys', name: 'Keys' })).json as {
        url: string;
      };
      const path = new URL(url).pathname;
      const first = await worker.post(path, { text: 'once' }, { 'idempotency-key': 'across-restarts' });
      expect(first.status).toBe(201);
      await worker.restart();
      const again = await worker.post(path, { text: 'twice?' }, { 'idempotency-key': 'across-restarts' });
      expect(again.status).toBe(200);
      expect(again.json).toEqual({ ...(first.json as object), duplicate: true });
    });
  },
);
