import { describe, expect, it } from 'vitest';
import { createWebhookManager, type Actor } from '../../src/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';

const actors: Actor[] = [
  { userId: 'u-owner', role: 'owner' },
  { userId: 'u-admin', role: 'admin' },
  { userId: 'u-chan', role: 'member' },
  { userId: 'u-other', role: 'member' },
];

function world() {
  const store = createMemoryStore();
  store.putChannel({ id: 'general', ownerId: 'u-chan', archived: false });
  store.putChannel({ id: 'old', ownerId: 'u-chan', archived: true });
  return { store, manager: createWebhookManager({ store, baseUrl: 'https://chat.example.com' }) };
}

/** Whether the manager's own list() lets `actor` in, the rule canManage must give. */
const listAllows = (manager: ReturnType<typeof world>['manager'], actor: Actor, channelId: string) =>
  manager.list(actor, channelId).then(
    () => true,
    () => false,
  );

describe('manager.canManage', () => {
  it('answers at once on a store that answers at once: org owners, admins and the channel owner', () => {
    const { manager } = world();
    expect(actors.map((actor) => manager.canManage(actor, 'general'))).toEqual([true, true, true, false]);
    expect(actors.map((actor) => manager.canManage(actor, 'old'))).toEqual([true, true, true, false]);
    expect(actors.map((actor) => manager.canManage(actor, 'missing'))).toEqual([false, false, false, false]);
  });

  it("gives the answer of the manager's own checks, also after the owner changes", async () => {
    const { store, manager } = world();
    for (const channelId of ['general', 'old', 'missing'])
      for (const actor of actors)
        expect(manager.canManage(actor, channelId)).toBe(await listAllows(manager, actor, channelId));
    store.putChannel({ id: 'general', ownerId: 'u-other', archived: false });
    expect(manager.canManage(actors[2]!, 'general')).toBe(false);
    expect(manager.canManage(actors[3]!, 'general')).toBe(true);
    expect(await listAllows(manager, actors[3]!, 'general')).toBe(true);
  });

  it('answers with a promise when the store answers with one', async () => {
    const { store } = world();
    const asyncStore = { ...store, getChannel: async (channelId: string) => store.getChannel(channelId) };
    const manager = createWebhookManager({ store: asyncStore, baseUrl: 'https://chat.example.com' });
    const answer = manager.canManage(actors[2]!, 'general');
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(true);
    expect(await manager.canManage(actors[3]!, 'general')).toBe(false);
    expect(await manager.canManage(actors[0]!, 'missing')).toBe(false);
  });

  it('refuses an actor or channel id that is not one', () => {
    const { manager } = world();
    expect(() => manager.canManage({ userId: 'u1', role: 'guest' } as never, 'general')).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(() => manager.canManage(actors[0]!, '')).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });
});
