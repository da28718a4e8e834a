import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/clock.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { createWebhookManager, type WebhookWithUrl } from '../../src/lifecycle/create-webhook-manager.js';
import type { WebhookResponse } from '../../src/http/http-types.js';
import { createMemoryRateLimiter } from '../../src/memory/memory-rate-limiter.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import type { Message, WebhookStore } from '../../src/ports.js';
import { OWNER, request } from '../support/setup.js';

const RUNS_SEQUENTIAL = 200;
const RUNS_CONCURRENT = 100;

interface Post {
  hook: number;
  key: string | null;
  /** Where the key travels: the body's eventId, the header, or both (equal). */
  via: 'eventId' | 'header' | 'both';
  text: string | undefined;
  blocks: unknown[] | undefined;
}

const contentArb: fc.Arbitrary<Pick<Post, 'text' | 'blocks'>> = fc.oneof(
  fc.record({ text: fc.constantFrom('deploy ok', 'deploy failed', ' spaced '), blocks: fc.constant(undefined) }),
  fc.record({
    text: fc.constant(undefined),
    blocks: fc.constantFrom<unknown[]>(
      [{ type: 'markdown', text: 'm' }],
      [{ type: 'divider' }, { type: 'header', text: { type: 'plain_text', text: 'H' } }],
    ),
  }),
  fc.record({ text: fc.constant('both'), blocks: fc.constant<unknown[]>([{ type: 'divider' }]) }),
);

const postArb = (hooks: number): fc.Arbitrary<Post> =>
  fc
    .record({
      hook: fc.nat({ max: hooks - 1 }),
      key: fc.option(fc.constantFrom('evt-1', 'evt-2', 'evt-3', 'EVT-1', ' evt-1'), { freq: 3 }),
      via: fc.constantFrom('eventId', 'header', 'both'),
      content: contentArb,
    })
    .map(({ content, ...rest }) => ({ ...rest, ...content }));

const scenarioArb = fc
  .integer({ min: 2, max: 3 })
  .chain((hooks) =>
    fc.record({ hooks: fc.constant(hooks), posts: fc.array(postArb(hooks), { minLength: 1, maxLength: 30 }) }),
  );

async function world(hooks: number, wrap: (store: WebhookStore) => WebhookStore = (store) => store) {
  const clock = createFakeClock();
  const store = createMemoryStore();
  await store.putChannel({ id: 'general', ownerId: OWNER.userId, archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com', clock });
  const created: WebhookWithUrl[] = [];
  for (let i = 0; i < hooks; i++)
    created.push(await manager.create(OWNER, { channelId: 'general', name: `hook ${i}` }));
  const handle = createWebhookHandler({
    store: wrap(store),
    clock,
    rateLimiter: createMemoryRateLimiter({ limit: 1_000 }),
  });
  const send = (post: Post) => {
    const payload: Record<string, unknown> = {};
    if (post.text !== undefined) payload.text = post.text;
    if (post.blocks !== undefined) payload.blocks = post.blocks;
    if (post.key !== null && post.via !== 'header') payload.eventId = post.key;
    const idempotencyKey = post.key !== null && post.via !== 'eventId' ? post.key : undefined;
    return handle(request(created[post.hook]!.url, payload, { idempotencyKey }));
  };
  return { store, created, send };
}

const messageOf = (response: WebhookResponse) => (response.body as { message: Message }).message;
const groupOf = (post: Post) => `${post.hook}\u0000${post.key}`;

describe('idempotency (property)', () => {
  // Rule: for any sequence of posts across webhooks, the first post with a given key on a webhook
  // creates a message (201) and every later post with that key on that webhook answers 200 with that
  // first message unchanged, whatever its text and blocks; a post without a key always creates a new
  // message; the stored messages are exactly the created ones, in order, each with its post's content
  // and its webhook as author.
  it('stored messages and answers match a simple model, for any sequence of posts', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ hooks, posts }) => {
        const w = await world(hooks);
        const firstByKey = new Map<string, Message>();
        const expectedStored: Message[] = [];
        for (const post of posts) {
          const response = await w.send(post);
          const earlier = post.key === null ? undefined : firstByKey.get(groupOf(post));
          if (earlier !== undefined) {
            expect(response.status).toBe(200);
            expect(response.body).toEqual({ message: earlier, duplicate: true });
            continue;
          }
          expect(response.status).toBe(201);
          const message = messageOf(response);
          expect(message).toMatchObject({
            body: post.text ?? '',
            blocks: post.blocks ?? [],
            author: { type: 'webhook', id: w.created[post.hook]!.webhook.id, name: `hook ${post.hook}` },
          });
          expect(expectedStored.some((stored) => stored.id === message.id)).toBe(false);
          expectedStored.push(message);
          if (post.key !== null) firstByKey.set(groupOf(post), message);
        }
        expect(await w.store.listMessages('general')).toEqual(expectedStored);
      }),
      { numRuns: RUNS_SEQUENTIAL },
    );
  });

  // Rule: under any interleaving of concurrent posts, each (webhook, key) group stores exactly one
  // message, exactly one of its posts answers 201 and all the others 200, and every post of the group
  // answers with that one message, whose content is that of one of the group's posts; every keyless
  // post stores its own message.
  it('concurrent posts with any interleaving store one message per key and all answer with it', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, fc.scheduler(), async ({ hooks, posts }, s) => {
        const w = await world(hooks, (store) => ({
          ...store,
          getWebhook: s.scheduleFunction(async (id: string) => store.getWebhook(id)),
          getChannel: s.scheduleFunction(async (id: string) => store.getChannel(id)),
          insertMessage: async (input) => {
            // Wait for the scheduler before the insert runs, and again before its answer is seen.
            await s.schedule(Promise.resolve(), 'insert');
            return s.schedule(Promise.resolve(store.insertMessage(input)), 'inserted');
          },
        }));
        const responses = await s.waitFor(Promise.all(posts.map((post) => w.send(post))));
        await s.waitIdle();

        const stored = await w.store.listMessages('general');
        const groups = new Map<string, { posts: Post[]; responses: WebhookResponse[] }>();
        let keyless = 0;
        posts.forEach((post, index) => {
          const response = responses[index]!;
          if (post.key === null) {
            keyless++;
            expect(response.status).toBe(201);
            expect(stored).toContainEqual(messageOf(response));
            return;
          }
          const group = groups.get(groupOf(post)) ?? { posts: [], responses: [] };
          group.posts.push(post);
          group.responses.push(response);
          groups.set(groupOf(post), group);
        });
        expect(stored).toHaveLength(keyless + groups.size);
        for (const group of groups.values()) {
          expect(group.responses.map((response) => response.status).sort()).toEqual([
            ...Array<number>(group.responses.length - 1).fill(200),
            201,
          ]);
          const message = messageOf(group.responses[0]!);
          for (const response of group.responses) expect(messageOf(response)).toEqual(message);
          expect(stored).toContainEqual(message);
          expect(
            group.posts.some(
              (post) =>
                message.body === (post.text ?? '') &&
                JSON.stringify(message.blocks) === JSON.stringify(post.blocks ?? []),
            ),
          ).toBe(true);
        }
      }),
      { numRuns: RUNS_CONCURRENT },
    );
  });
});
