import { describe, expect, it } from 'vitest';
import { createWebhookManager, type Actor } from '../../src/index.js';
import { createManagementApi, type ManagementErrorContext } from '../../src/manage/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';

// A channel the app never gave the store is a 404 for everyone; for an organization owner or admin,
// who may manage every channel, that is the app's set-up, and the log says so.
describe('a channel missing from the store', () => {
  const world = () => {
    const store = createMemoryStore();
    store.putChannel({ id: 'known', ownerId: 'u-chan', archived: false });
    const heard: Array<{ error: unknown; context: ManagementErrorContext }> = [];
    const actors: Record<string, Actor> = {
      admin: { userId: 'u-admin', role: 'admin' },
      owner: { userId: 'u-owner', role: 'owner' },
      member: { userId: 'u-other', role: 'member' },
    };
    const api = createManagementApi({
      manager: createWebhookManager({ store, baseUrl: 'https://chat.example.com' }),
      authenticate: (request: Request) => actors[request.headers.get('x-user') ?? ''] ?? null,
      onError: (error, context) => heard.push({ error, context }),
    });
    const list = (user: string, channelId: string) =>
      api.fetch(
        new Request(`https://chat.example.com/channels/${channelId}/webhooks`, { headers: { 'x-user': user } }),
      );
    return { heard, list };
  };

  it('is logged for an organization admin or owner, with the channel and what to do', async () => {
    const { heard, list } = world();
    for (const user of ['admin', 'owner']) {
      const answer = await list(user, 'general');
      expect(answer.status).toBe(404);
      expect(await answer.json()).toMatchObject({ code: 'channel_not_found' });
    }
    expect(heard.map(({ context }) => context)).toEqual([
      { stage: 'manager', route: 'GET /channels/{channelId}/webhooks' },
      { stage: 'manager', route: 'GET /channels/{channelId}/webhooks' },
    ]);
    expect(heard[0]!.error).toMatchObject({
      code: 'channel_not_found',
      message: expect.stringContaining(
        'there is no channel general: the store has no such channel, so even an organization admin',
      ),
    });
    expect((heard[0]!.error as Error).message).toContain('putChannel()');
  });

  it('is not logged for a member, nor is a channel that is there', async () => {
    const { heard, list } = world();
    expect((await list('member', 'general')).status).toBe(404);
    expect((await list('member', 'known')).status).toBe(404);
    expect((await list('admin', 'known')).status).toBe(200);
    expect(heard).toEqual([]);
  });
});
