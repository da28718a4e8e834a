import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../../src/clock.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { createWebhookManager } from '../../src/lifecycle/create-webhook-manager.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import type { WebhookStore } from '../../src/ports.js';
import { BASE_URL, CHANNEL_ID, OWNER, request } from '../support/setup.js';

afterEach(() => {
  vi.restoreAllMocks();
});

async function failingStoreWorld(onError?: () => void) {
  const clock = createFakeClock();
  const store = createMemoryStore();
  store.putChannel({ id: CHANNEL_ID, ownerId: OWNER.userId, archived: false });
  const { webhook, url } = await createWebhookManager({ store, baseUrl: BASE_URL, clock }).create(OWNER, {
    channelId: CHANNEL_ID,
    name: 'CI',
  });
  const broken: WebhookStore = {
    ...store,
    getWebhook: store.getWebhook,
    insertMessage: () => {
      throw new Error('connection refused\n    at Socket.connect');
    },
  };
  const handle = createWebhookHandler({ store: broken, clock, ...(onError === undefined ? {} : { onError }) });
  return {
    clock,
    webhookId: webhook.id,
    secret: url.split('/').at(-1)!,
    post: () => handle(request(url, { text: 'x' })),
  };
}

// Rule: without an onError, every kind of failure shows on console.error as one line (stage,
// webhook id, error; never the secret or the URL), identical failures at most one line every 10 s
// with the count of those it stood for; an onError replaces the log altogether.
describe('the default error log', () => {
  it('writes one line for a failing store, naming the stage, the webhook and the error, never the secret', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const world = await failingStoreWorld();
    expect((await world.post()).status).toBe(500);
    expect(log).toHaveBeenCalledTimes(1);
    const line = String(log.mock.calls[0]![0]);
    expect(line).toBe(
      `channel-webhooks: createWebhookHandler: store failure on webhook ${world.webhookId}: Error: connection refused at Socket.connect; pass onError to handle every failure yourself`,
    );
    expect(line).not.toContain(world.secret);
  });

  it('writes one line for identical failures every 10 s, then counts those it stood for', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const world = await failingStoreWorld();
    for (let i = 0; i < 5; i++) await world.post();
    expect(log).toHaveBeenCalledTimes(1);
    world.clock.advance(10_000);
    await world.post();
    expect(log).toHaveBeenCalledTimes(2);
    expect(String(log.mock.calls[1]![0])).toContain('(and 4 more since the last line)');
  });

  it('stays silent when onError is given: the hook replaces it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen: unknown[] = [];
    const world = await failingStoreWorld(() => seen.push('reported'));
    await world.post();
    expect(seen).toEqual(['reported']);
    expect(log).not.toHaveBeenCalled();
  });

  it('writes a line for an onMessage that throws', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createMemoryStore();
    store.putChannel({ id: CHANNEL_ID, ownerId: OWNER.userId, archived: false });
    const { webhook, url } = await createWebhookManager({ store, baseUrl: BASE_URL }).create(OWNER, {
      channelId: CHANNEL_ID,
      name: 'CI',
    });
    const handle = createWebhookHandler({
      store,
      onMessage: () => {
        throw new ReferenceError('broadcast is not defined');
      },
    });
    expect((await handle(request(url, { text: 'x' }))).status).toBe(201);
    expect(log.mock.calls.map(([line]) => line)).toEqual([
      `channel-webhooks: createWebhookHandler: on_message failure on webhook ${webhook.id}: ReferenceError: broadcast is not defined; pass onError to handle every failure yourself`,
    ]);
  });

  it('writes a line for a manager whose onAudit fails', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createMemoryStore();
    store.putChannel({ id: CHANNEL_ID, ownerId: OWNER.userId, archived: false });
    const manager = createWebhookManager({
      store,
      baseUrl: BASE_URL,
      onAudit: () => Promise.reject(new Error('audit table missing')),
    });
    const { webhook } = await manager.create(OWNER, { channelId: CHANNEL_ID, name: 'CI' });
    expect(log.mock.calls.map(([line]) => line)).toEqual([
      `channel-webhooks: createWebhookManager: on_audit failure on webhook ${webhook.id}: Error: audit table missing; pass onError to handle every failure yourself`,
    ]);
  });
});
