import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { createMemoryStore, createWebhookManager } from '../../src/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// Every webhook keeps its secret's hash for life: a memory store of a million webhooks holds a
// million of them. Joined from 32 pieces, a 64-character hash is a tree of strings until something
// reads it (a webhook then cost ~1,140 bytes); flat, the hash is ~80 bytes and a webhook ~350.
it('a webhook the manager creates costs the memory store under 400 bytes of heap', async () => {
  const store = createMemoryStore();
  store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
  const actor = { userId: 'u1', role: 'owner' } as const;
  await manager.create(actor, { channelId: 'general', name: 'warm' });
  const count = 20_000;
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i++) await manager.create(actor, { channelId: 'general', name: 'Deploys' });
  gc();
  const perWebhook = (process.memoryUsage().heapUsed - before) / count;
  expect(store.listWebhooks('general')).toHaveLength(count + 1);
  expect(perWebhook).toBeLessThan(400);
});
