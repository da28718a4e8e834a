import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactWebhookUrl, webhookPathPattern } from '../../../src/index.js';
import { RUNTIME_BINARIES } from '../../runtimes/runtime-install.js';
import { frameworkTargets } from '../../support/frameworks.js';
import { freePort } from '../../support/servers.js';
import { setup } from '../../support/setup.js';
import { post } from './raw-post.js';
import { ACCEPTED_FORMS, NEAR_MISSES, type Server } from './url-forms.js';

// Every way of writing a webhook URL that some server answers 201 is posted, as written, to every
// server: each must answer 201 exactly where the table says, refuse the rest, and the redactor must
// take the secret out of every one of them.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const FORMS = [
  ...ACCEPTED_FORMS,
  ...NEAR_MISSES.map(([name, form]) => [name, form, []] as [string, typeof form, Server[]]),
];

/** Posts every form to `origin` and checks each answer against the table and the redactor. */
async function expectFormsAnswered(server: Server, origin: string, id: string, secret: string): Promise<void> {
  const answered: Array<[string, number]> = [];
  for (const [name, form] of FORMS) answered.push([name, await post(origin, form('/api', id, secret))]);
  const accepted = (status: number) =>
    status === 201 ? 'accepted' : status >= 400 && status < 500 ? 'refused' : `answered ${status}`;
  expect(answered.map(([name, status]) => [name, accepted(status)])).toEqual(
    FORMS.map(([name, , by]) => [name, by.includes(server) ? 'accepted' : 'refused']),
  );
  for (const [name, form] of FORMS) {
    const target = form('/api', id, secret);
    expect(redactWebhookUrl(target), name).not.toContain(secret);
    expect(target.replace(new RegExp(webhookPathPattern, 'g'), '$1[redacted]'), name).not.toContain(secret);
  }
}

const SERVER_OF: Record<string, Server> = {
  'node:http': 'node:http',
  'Express 5': 'express',
  'Express 4': 'express',
  'Koa 3': 'koa',
  'Koa 2': 'koa',
  'Fastify 5': 'fastify',
  'Fastify 4': 'fastify',
  'fetch (Hono)': 'hono',
};

describe.each(frameworkTargets)('webhook URL forms on $name', (target) => {
  it('answers 201 to the forms it accepts, refuses the others, and the redactor takes the secret out of each', async () => {
    const fixture = await setup();
    const listening = await target.start(fixture.handle);
    try {
      await expectFormsAnswered(
        SERVER_OF[target.name]!,
        listening.origin,
        fixture.webhookId,
        fixture.path.split('/').at(-1)!,
      );
    } finally {
      await listening.close();
    }
  });
});

// The Fetch adapter on the real runtimes of the runtime install, built from the sources with the
// runtime tests' app.
const runtimes: Array<{ server: Server; binary: string; command: (bundle: string, port: number) => string[] }> = [
  { server: 'bun', binary: RUNTIME_BINARIES.bun, command: (dir) => ['run', join(dir, 'bun.mjs')] },
  {
    server: 'deno',
    binary: RUNTIME_BINARIES.deno,
    command: (dir) => [
      'run',
      '--quiet',
      '--no-prompt',
      '--allow-net=127.0.0.1',
      '--allow-env=PORT',
      join(dir, 'deno.mjs'),
    ],
  },
  {
    server: 'workerd',
    binary: RUNTIME_BINARIES.workerd,
    command: (dir, port) => {
      writeFileSync(
        join(dir, 'config.capnp'),
        `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = ( modules = [ (name = "worker", esModule = embed "worker.mjs") ], compatibilityDate = "2025-09-01" );
`,
      );
      return ['serve', join(dir, 'config.capnp')];
    },
  },
];

for (const runtime of runtimes) {
  describe.skipIf(!existsSync(runtime.binary))(`webhook URL forms on ${runtime.server}`, () => {
    let dir: string;
    let child: ChildProcess | undefined;
    let origin: string;
    const output: string[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'url-forms-'));
      const entry = { bun: 'bun.mjs', deno: 'deno.mjs', workerd: 'worker.mjs' }[
        runtime.server as 'bun' | 'deno' | 'workerd'
      ];
      await build({
        entryPoints: [join(root, 'test/runtimes/fixtures', entry)],
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        mainFields: ['module', 'main'],
        alias: {
          'channel-webhooks/fetch': join(root, 'adapters/frameworks/fetch/index.ts'),
          'channel-webhooks/send': join(root, 'src/send/index.ts'),
          'channel-webhooks': join(root, 'src/index.ts'),
        },
        outfile: join(dir, entry),
        logLevel: 'warning',
      });
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      child = spawn(runtime.binary, runtime.command(dir, port), {
        env: { ...process.env, PORT: String(port), NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      for (let waited = 0; ; waited += 100) {
        if (child.exitCode !== null || waited > 30_000)
          throw new Error(`${runtime.server} did not start:\n${output.join('')}`);
        if ((await post(origin, '/').catch(() => 0)) !== 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }, 60_000);

    afterAll(() => {
      child?.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });

    it('answers 201 to the forms it accepts, refuses the others, and the redactor takes the secret out of each', async () => {
      const setup = await fetch(`${origin}/__setup`, { method: 'POST', body: '{}' });
      const [, , , id, secret] = ((await setup.json()) as { path: string }).path.split('/');
      await expectFormsAnswered(runtime.server, origin, id!, secret!);
    });
  });
}
