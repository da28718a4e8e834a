import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createExpressMiddleware } from '../../../../adapters/frameworks/express/index.js';
import { createFastifyPlugin } from '../../../../adapters/frameworks/fastify/index.js';
import { listen, listenFastify, send, type Listening } from '../../../support/http.js';
import { setup, type World } from '../../../support/setup.js';

/** The lines of the NestJS recipes (docs/frameworks.md) that touch the underlying instance, block by block. */
async function nestLines(): Promise<string[]> {
  const readme = await readFile(new URL('../../../../docs/frameworks.md', import.meta.url), 'utf8');
  const start = readme.indexOf('## NestJS');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
  return blocks.map((code) => {
    const lines = code.split('\n').filter((line) => line.includes('getInstance()'));
    if (lines.length !== 1) throw new Error(`expected one getInstance() line per NestJS block, found ${lines.length}`);
    return lines[0]!;
  });
}

/** Runs one recipe line as written, with `app` a NestJS application over `instance`. */
async function runLine(line: string, instance: unknown, fixture: World) {
  const app = { getHttpAdapter: () => ({ getInstance: () => instance }) };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...args: unknown[]) => Promise<unknown>;
  await new AsyncFunction('app', 'handle', 'createExpressMiddleware', 'createFastifyPlugin', line)(
    app,
    fixture.handle,
    createExpressMiddleware,
    createFastifyPlugin,
  );
}

async function expectBoth(server: Listening, fixture: World) {
  const webhook = await send(`${server.origin}/api${fixture.path}`, { body: { text: 'through Nest' } });
  expect(webhook.status).toBe(201);
  expect((await fixture.messages()).map((message) => message.body)).toEqual(['through Nest']);
  const own = await send(`${server.origin}/api/things`, { body: { name: 'parsed by Nest' } });
  expect([own.status, own.json]).toEqual([200, { received: { name: 'parsed by Nest' } }]);
}

describe('the NestJS recipes of docs/frameworks.md', () => {
  it('on Express: the middleware line, then the JSON parser Nest adds when it initializes', async () => {
    const [onExpress] = await nestLines();
    const fixture = await setup();
    const instance = express();
    await runLine(onExpress!, instance, fixture);
    // What NestFactory's app does at init, after main.ts ran the recipe line.
    instance.use(express.json());
    instance.post('/api/things', (req, res) => {
      res.json({ received: req.body });
    });
    const server = await listen(createServer(instance));
    try {
      await expectBoth(server, fixture);
    } finally {
      await server.close();
    }
  });

  it('on Fastify: the register line, then the parsers and routes Nest adds when it initializes', async () => {
    const [, onFastify] = await nestLines();
    const fixture = await setup();
    const instance = Fastify();
    await runLine(onFastify!, instance, fixture);
    instance.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, { form: body }),
    );
    instance.post('/api/things', async (request) => ({ received: request.body }));
    const server = await listenFastify(instance);
    try {
      await expectBoth(server, fixture);
    } finally {
      await server.close();
    }
  });
});
