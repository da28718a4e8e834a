import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { expectExamplePosts } from '../support/examples.js';
import { listenFastify, send, type FastifyLikeApp } from '../support/http.js';

type Message = { channelId: string; body: string; author: { name: string } };
type Example = {
  DEMO_ACTOR: { userId: string; role: string };
  DEMO_CHANNEL_ID: string;
  createApp(options: { baseUrl?: string; onMessage?: (message: Message) => void; logger?: object }): Promise<{
    app: FastifyLikeApp & { initialConfig: { requestTimeout?: number } };
    manager: { create(actor: unknown, input: { channelId: string; name: string }): Promise<{ url: string }> };
  }>;
};

// A plain JavaScript example, imported through a path typed as a string (it ships no declarations).
const load = (name: string): Promise<Example> => import(`../../examples/${name}/server.js`);

describe('examples/fastify/server.js', () => {
  it('stores a post under /api, refuses what the contract refuses, and logs the URL redacted', async () => {
    const example = await load('fastify');
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const delivered: Message[] = [];
    const { app, manager } = await example.createApp({
      onMessage: (message) => delivered.push(message),
      logger: { stream },
    });
    expect(app.initialConfig.requestTimeout).toBe(15_000);
    const server = await listenFastify(app);
    try {
      const { url } = await manager.create(example.DEMO_ACTOR, { channelId: example.DEMO_CHANNEL_ID, name: 'Deploys' });
      const path = new URL(url).pathname;
      expect(path).toMatch(/^\/api\/hooks\/channels\/wh_[\w-]{22}\/[\w-]{43}$/);
      const webhookUrl = `${server.origin}${path}`;

      const created = await expectExamplePosts(webhookUrl, delivered);
      const wrongType = await send(webhookUrl, { body: 'hi', headers: { 'content-type': 'text/plain' } });
      expect([wrongType.status, (wrongType.json as { code: string }).code]).toEqual([415, 'unsupported_media_type']);

      const listed = await send(`${server.origin}/channels/general/messages`, { method: 'GET' });
      expect([listed.status, listed.json]).toEqual([200, [(created.json as { message: Message }).message]]);

      const logged = lines.join('');
      expect(logged).toContain(`${path.slice(0, path.lastIndexOf('/'))}/[redacted]`);
      expect(logged).not.toContain(path.split('/').at(-1));
    } finally {
      await server.close();
    }
  });
});
