import { readFileSync } from 'node:fs';
import Hapi from '@hapi/hapi';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeRequestParts } from '../../../adapters/frameworks/node/index.js';
import { createWebhookAdapter } from '../../../src/adapter-kit/index.js';
import type { WebhookHandler } from '../../../src/handler/handler-types.js';
import { send } from '../../support/http.js';
import { problem, setup, type World } from '../../support/setup.js';

type HapiPlugin = { name: string; register: (server: Hapi.Server) => void };

/** The adapter of docs/frameworks.md's hapi recipe, as written there, over this tree's sources. */
function recipeAdapter(): (handle: WebhookHandler, options?: object) => HapiPlugin {
  const page = readFileSync(new URL('../../../docs/frameworks.md', import.meta.url), 'utf8');
  const code = /\nfunction hapiWebhooks\([\s\S]*?\n}\n/.exec(page)?.[0];
  if (code === undefined) throw new Error('docs/frameworks.md has no function hapiWebhooks');
  return new Function('createWebhookAdapter', 'nodeRequestParts', `${code}\nreturn hapiWebhooks;`)(
    createWebhookAdapter,
    nodeRequestParts,
  );
}

let server: Hapi.Server | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function startHapi(world: World, options?: object): Promise<string> {
  server = Hapi.server({ port: 0, host: '127.0.0.1' });
  await server.register(recipeAdapter()(world.handle, options));
  server.route({ method: 'GET', path: '/health', handler: () => 'ok' });
  await server.start();
  return server.info.uri;
}

// Rule: an app's own adapter, built on the kit in about 15 lines, answers as the shipped adapters
// do: the contract's statuses, bodies and headers, the body never read by hapi, and every other
// request left to the app.
describe("docs/frameworks.md's hapi adapter on a real hapi server", () => {
  it('stores a post and answers 201 with the message and the rate-limit headers', async () => {
    const world = await setup();
    const origin = await startHapi(world);
    const created = await send(`${origin}${world.path}`, {
      body: { text: 'through hapi' },
      headers: { 'idempotency-key': 'k-1' },
    });
    expect(created.status).toBe(201);
    // hapi adds the charset of its own to a JSON type.
    expect(created.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'ratelimit-policy': '"default";q=60;w=60',
      ratelimit: '"default";r=59;t=60',
    });
    expect(created.json).toEqual({ message: (await world.messages())[0], duplicate: false });
    const again = await send(`${origin}${world.path}`, {
      body: { text: 'again' },
      headers: { 'idempotency-key': 'k-1' },
    });
    expect([again.status, again.json]).toEqual([200, { message: (await world.messages())[0], duplicate: true }]);
    expect((await world.messages()).map((message) => message.body)).toEqual(['through hapi']);
  });

  it.each([
    [
      'a wrong secret, whatever the body',
      (w: World) => w.wrongSecretPath,
      { body: 'not json', headers: {} },
      404,
      'not_found',
    ],
    ['a GET', (w: World) => w.path, { method: 'GET', headers: {} }, 405, 'method_not_allowed'],
    [
      'text/plain',
      (w: World) => w.path,
      { body: 'hi', headers: { 'content-type': 'text/plain' } },
      415,
      'unsupported_media_type',
    ],
    [
      'a body over 65,536 bytes',
      (w: World) => w.path,
      { body: `{"text":"${'x'.repeat(70_000)}"}`, headers: {} },
      413,
      'payload_too_large',
    ],
    [
      'an unknown field',
      (w: World) => w.path,
      { body: { text: 'hi', channel: '#ops' }, headers: {} },
      400,
      'invalid_payload',
    ],
    [
      'an archived channel',
      (w: World) => w.archivedPath,
      { body: { text: 'hi' }, headers: {} },
      409,
      'channel_archived',
    ],
  ] as const)('answers %s with its problem', async (_, path, options, status, code) => {
    const world = await setup();
    const origin = await startHapi(world);
    const answer = await send(`${origin}${path(world)}`, options as Parameters<typeof send>[1]);
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatchObject({ 'content-type': 'application/problem+json', 'cache-control': 'no-store' });
    expect(answer.json).toEqual(problem(status, code, code === 'invalid_payload' ? { errors: expect.any(Array) } : {}));
    expect(await world.messages()).toEqual([]);
  });

  it('leaves every other request to the app', async () => {
    const world = await setup();
    const origin = await startHapi(world);
    const health = await send(`${origin}/health`, { method: 'GET' });
    expect([health.status, health.text]).toEqual([200, 'ok']);
  });

  it('takes the kit options and refuses a bad one when the plugin is made', async () => {
    const world = await setup();
    expect(() => recipeAdapter()(world.handle, { bodyTimeout: 5 })).toThrow(
      expect.objectContaining({
        code: 'invalid_argument',
        message: expect.stringMatching(/^hapiWebhooks: options has an unknown key `bodyTimeout`/),
      }),
    );
  });
});
