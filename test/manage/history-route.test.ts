import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/clock.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { createWebhookManager } from '../../src/lifecycle/create-webhook-manager.js';
import { createManagementApi } from '../../src/manage/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import { settle } from '../support/setup.js';
import { actorOfCookie, CALLERS } from './support.js';

const GUIDE = 'https://github.com/channel-webhooks/channel-webhooks/blob/main/docs/slack-differences.md';

async function world() {
  const clock = createFakeClock(Date.UTC(2026, 0, 1, 12));
  const store = createMemoryStore();
  store.putChannel({ id: 'ops', ownerId: CALLERS['the channel owner'].userId, archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com', clock });
  const { webhook, url } = await manager.create(CALLERS['the channel owner'], { channelId: 'ops', name: 'CI' });
  const handle = createWebhookHandler({ store, clock });
  const post = (body: unknown, path = new URL(url).pathname) =>
    handle({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const api = createManagementApi({ manager, authenticate: (request) => actorOfCookie(request.headers.get('cookie')) });
  const history = async (query = '') => {
    await settle();
    const response = await api.fetch(
      new Request(`https://chat.example.com/webhooks/${webhook.id}/posts${query}`, {
        headers: { cookie: `session=${CALLERS['the channel owner'].userId}` },
      }),
    );
    return { status: response.status, json: (await response.json()) as { posts: Array<Record<string, unknown>> } };
  };
  return { clock, post, history, path: new URL(url).pathname };
}

describe('the history route', () => {
  it("shows why a sender's posts do not appear: each refusal's code, pointers and what to send instead", async () => {
    const w = await world();
    await w.post({ text: 'Deploy 42 finished' });
    await w.post({
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'Deploy' },
          accessory: { type: 'button', text: { type: 'plain_text', text: 'Open' } },
        },
      ],
    });
    await w.post({ text: 'Deploy 43', attachments: [{ color: '#36a64f', text: 'green' }] });
    const { status, json } = await w.history();
    expect(status).toBe(200);
    expect(json.posts.map(({ status, code }) => [status, code])).toEqual([
      [400, 'invalid_payload'],
      [400, 'invalid_payload'],
      [201, null],
    ]);
    expect(json.posts[0]!.errors).toEqual([
      {
        pointer: '/attachments',
        message: 'is not an allowed property',
        hint: expect.stringContaining(`${GUIDE}#attachments`),
      },
    ]);
    expect(json.posts[1]!.errors).toEqual([
      {
        pointer: '/blocks/0/accessory',
        message: 'is not an allowed property',
        hint: expect.stringContaining(`${GUIDE}#section-accessory`),
      },
    ]);
  });

  it('a post with a wrong secret is not there; ?limit= keeps the newest', async () => {
    const w = await world();
    await w.post({ text: 'one' });
    await w.post({ text: 'two' }, w.path.replace(/[^/]{43}$/, 'A'.repeat(43)));
    await w.post({ text: 'three' });
    expect((await w.history()).json.posts).toHaveLength(2);
    const [newest] = (await w.history('?limit=1')).json.posts;
    expect((await w.history()).json.posts[0]).toEqual(newest);
  });
});
