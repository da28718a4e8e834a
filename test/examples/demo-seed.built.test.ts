import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Actor,
  createWebhookHandler,
  createWebhookManager,
  type WebhookHandler,
  type WebhookManager,
} from 'channel-webhooks';
import type { SqliteStore } from 'channel-webhooks/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_MESSAGES } from '../../examples/express/demo/demo-messages.js';

// The example's own files, JavaScript that the type check leaves out: imported by a path it does not follow.
const example = '../../examples/express/';
const { seedDemo } = (await import(`${example}seed.js`)) as {
  seedDemo: (world: { manager: WebhookManager; handle: WebhookHandler }) => Promise<number[]>;
};
const { DEMO_ACTOR, DEMO_CHANNEL_ID } = (await import(`${example}server.js`)) as {
  DEMO_ACTOR: Actor;
  DEMO_CHANNEL_ID: string;
};
const { openStore } = (await import(`${example}store.js`)) as {
  openStore: (options: { kind: string; file: string }) => Promise<{ store: SqliteStore }>;
};

const folder = mkdtempSync(join(tmpdir(), 'channel-webhooks-demo-seed-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// Rule: `npm run demo:seed` fills the demo's channel with the messages of the README's picture, one
// webhook per sender, through the handler; run again, it posts through the same webhooks. The page
// of an empty channel says how to get a message, and the start-up webhook already exists.
describe('npm run demo:seed', () => {
  it('is a script of the package that runs examples/express/seed.js', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(scripts['demo:seed']).toBe('node examples/express/seed.js');
  });

  it('posts every demo message, each from its own webhook, and reuses them on a second run', async () => {
    const { store } = await openStore({ kind: 'sqlite', file: join(folder, 'demo.sqlite') });
    await store.putChannel({ id: DEMO_CHANNEL_ID, ownerId: DEMO_ACTOR.userId, archived: false });
    const world = {
      manager: createWebhookManager({ store, baseUrl: 'http://127.0.0.1' }),
      handle: createWebhookHandler({ store }),
    };
    expect(await seedDemo(world)).toEqual(DEMO_MESSAGES.map(() => 201));
    expect(await seedDemo(world)).toEqual(DEMO_MESSAGES.map(() => 201));

    const senders = DEMO_MESSAGES.map(({ from }) => from);
    expect(senders.length).toBeGreaterThanOrEqual(5);
    const webhooks = await world.manager.list(DEMO_ACTOR, DEMO_CHANNEL_ID);
    expect(webhooks.map((webhook) => webhook.name).sort()).toEqual([...senders].sort());
    const messages = await store.listMessages(DEMO_CHANNEL_ID);
    expect(messages.map((message) => message.author.name)).toEqual([...senders, ...senders]);
    expect(messages.slice(0, senders.length).map((message) => message.blocks)).toEqual(
      DEMO_MESSAGES.map(({ payload }) => payload.blocks ?? []),
    );
  });

  it("the demo page's empty channel points at the start-up webhook's curl line and the seed", () => {
    const page = readFileSync('examples/express/demo/public/index.html', 'utf8');
    const empty = /<p id="empty"[^>]*>([\s\S]*?)<\/p>/.exec(page)?.[1]?.replace(/<[^>]+>/g, '');
    expect(empty).toBe(
      'No messages yet. Post one with the curl line npm start printed, send a test message from the webhook settings, or run npm run demo:seed.',
    );
  });
});
