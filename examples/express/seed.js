// `npm run demo:seed`: posts a message of every block type into the demo's channel, each through a
// webhook of its own, as a sender would (through the handler, over the demo's SQLite file; a running
// `npm start` shows them at once). Run again, it posts them again through the same webhooks.
import { pathToFileURL } from 'node:url';
import { createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { DEMO_MESSAGES } from './demo/demo-messages.js';
import { DEMO_ACTOR, DEMO_CHANNEL_ID } from './server.js';
import { openStore } from './store.js';

/**
 * Posts {@link DEMO_MESSAGES} into the demo's channel: each through the active webhook of its
 * sender's name, given a new URL (only a URL's hash is kept, so an earlier one cannot be read back),
 * or through a new one. Returns each post's status.
 *
 * @param {object} world
 * @param {import('channel-webhooks').WebhookManager} world.manager
 * @param {import('channel-webhooks').WebhookHandler} world.handle
 * @returns {Promise<number[]>}
 */
export async function seedDemo({ manager, handle }) {
  const statuses = [];
  for (const { from, payload } of DEMO_MESSAGES) {
    const known = (await manager.list(DEMO_ACTOR, DEMO_CHANNEL_ID)).find(
      (webhook) => webhook.name === from && webhook.revokedAt === null,
    );
    const { url } = known
      ? await manager.rotate(DEMO_ACTOR, known.id)
      : await manager.create(DEMO_ACTOR, { channelId: DEMO_CHANNEL_ID, name: from });
    const answer = await handle({
      method: 'POST',
      url: new URL(url).pathname,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    statuses.push(answer.status);
  }
  return statuses;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.env.STORE === 'memory') {
    console.error(
      "npm run demo:seed posts into the demo's SQLite file; with STORE=memory the channel lives only in the server's process.",
    );
    process.exit(1);
  }
  const { store, where } = await openStore();
  await store.putChannel({ id: DEMO_CHANNEL_ID, ownerId: DEMO_ACTOR.userId, archived: false });
  const statuses = await seedDemo({
    manager: createWebhookManager({ store, baseUrl: 'http://127.0.0.1' }),
    handle: createWebhookHandler({ store }),
  });
  console.log(where);
  console.log(`Posted ${statuses.length} messages into #${DEMO_CHANNEL_ID}: see them on the demo page (npm start).`);
  if (statuses.some((status) => status !== 201)) process.exit(1);
}
