import { createServer } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { expectExamplePosts } from '../support/examples.js';
import { listen, send, type Listening } from '../support/http.js';

type Message = { channelId: string; body: string; author: { name: string } };
type Example = {
  DEMO_ACTOR: { userId: string; role: string };
  DEMO_CHANNEL_ID: string;
  createApp(options: { baseUrl?: string; onMessage?: (message: Message) => void }): Promise<{
    app: unknown;
    manager: { create(actor: unknown, input: { channelId: string; name: string }): Promise<{ url: string }> };
  }>;
};

// The examples are plain JavaScript; importing them through a path typed as a string keeps the
// type checker from asking for declarations they do not ship.
const load = (name: string): Promise<Example> => import(`../../examples/${name}/server.js`);

const examples: Array<[string, (app: never) => Promise<Listening>]> = [
  ['express', (app) => listen(createServer(app))],
  ['koa', (app: { callback(): Parameters<typeof createServer>[0] }) => listen(createServer(app.callback()))],
  [
    'hono',
    (app: { fetch: (request: Request) => Promise<Response> }) =>
      listen(createAdaptorServer({ fetch: app.fetch }) as ReturnType<typeof createServer>),
  ],
  ['custom-store', (app) => listen(createServer(app))],
];

describe.each(examples)('examples/%s/server.js', (name, serve) => {
  it('stores a post through its app, tells onMessage, and keeps refusing what the contract refuses', async () => {
    const example = await load(name);
    const delivered: Message[] = [];
    const { app, manager } = await example.createApp({ onMessage: (message) => delivered.push(message) });
    const server = await serve(app as never);
    try {
      const { url } = await manager.create(example.DEMO_ACTOR, { channelId: example.DEMO_CHANNEL_ID, name: 'Deploys' });
      const webhookUrl = `${server.origin}${new URL(url).pathname}`;

      await expectExamplePosts(webhookUrl, delivered);

      // Messages are not readable without signing in: the examples have no such route.
      const listed = await send(`${server.origin}/channels/general/messages`, { method: 'GET' });
      expect(listed.status).toBe(404);
      expect(listed.text).not.toContain('Deploy finished');
    } finally {
      await server.close();
    }
  });
});
