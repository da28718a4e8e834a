import { randomUUID } from 'node:crypto';
import {
  createMemoryRateLimiter,
  createWebhookHandler,
  createWebhookManager,
  type FeedEntry,
  followFeed,
  type WebhookStore,
} from '../../../src/index.js';

/** What {@link followTwoInstances} saw. */
export interface TwoInstancesRun {
  /** The ids of the messages stored, in the order their 201s came. */
  stored: string[];
  /** What each instance's follower got, in order, until a while after the last was due. */
  followed: [FeedEntry[], FeedEntry[]];
  /** From the first post to the last message at both followers, in ms. */
  deliveredMs: number;
}

const WEBHOOKS = 4;
const IN_FLIGHT = 8;

/**
 * Two instances of a store on one database, each with a handler and a follower of one fresh
 * channel: `posts` posts through the handlers, alternately, `IN_FLIGHT` at a time, over
 * `WEBHOOKS` webhooks. Each of `steps` runs once that many posts are stored, the posts waiting for
 * it (a server stopped, started again). The followers are stopped `settleMs` after both have every
 * message, so a repeat would show.
 */
export async function followTwoInstances(
  stores: [WebhookStore, WebhookStore],
  putChannel: (channelId: string) => Promise<void>,
  {
    posts,
    steps,
    settleMs = 500,
  }: { posts: number; steps: Array<[afterStored: number, step: () => Promise<void>]>; settleMs?: number },
): Promise<TwoInstancesRun> {
  const channelId = `c_${randomUUID()}`;
  await putChannel(channelId);
  const manager = createWebhookManager({ store: stores[0], baseUrl: 'http://127.0.0.1' });
  const paths: string[] = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    const { url } = await manager.create({ userId: 'u1', role: 'member' }, { channelId, name: `Hook ${i}` });
    paths.push(new URL(url).pathname);
  }
  const handlers = stores.map((store) =>
    createWebhookHandler({ store, rateLimiter: createMemoryRateLimiter({ limit: posts }) }),
  );

  const stop = new AbortController();
  const followed: [FeedEntry[], FeedEntry[]] = [[], []];
  const following = stores.map(async (store, i) => {
    for await (const entry of followFeed(store, { channelId, signal: stop.signal })) followed[i]!.push(entry);
  });

  const started = Date.now();
  const stored: string[] = [];
  let next = 0;
  let step: Promise<void> = Promise.resolve();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, lane) => {
      for (let job = next++; job < posts; job = next++) {
        const answer = await handlers[lane % 2]!({
          method: 'POST',
          url: paths[job % WEBHOOKS]!,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: `post ${job}` }),
        });
        if (answer.status !== 201) throw new Error(`post ${job}: ${answer.status} ${JSON.stringify(answer.body)}`);
        stored.push((answer.body as { message: { id: string } }).message.id);
        const due = steps.find(([after]) => after === stored.length);
        if (due !== undefined) step = due[1]();
        await step;
      }
    }),
  );

  let deliveredMs = Number.NaN;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (followed.every((entries) => entries.length >= posts)) {
      deliveredMs = Date.now() - started;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  stop.abort();
  await Promise.all(following);
  return { stored, followed, deliveredMs };
}
