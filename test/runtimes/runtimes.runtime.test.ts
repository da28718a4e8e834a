import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paddedBody, send } from '../support/http.js';
import { freePort } from '../support/servers.js';
import { installPackedLibrary } from '../support/pack.js';
import { startFaultyEndpoint, type FaultyEndpoint } from '../send/fault-proxy.js';
import { RUNTIME_BINARIES, runtimeSuiteTitle } from './runtime-install.js';

// The packed library, served by each real runtime through its Fetch adapter: what a user of Bun,
// Deno or Cloudflare Workers runs. The runtimes come from npm as binary packages, in the runtime
// install (test/runtimes/package.json, `npm run runtimes:install`).
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(root, 'test', 'runtimes', 'fixtures');
const STORE_TIMEOUT_MS = 400;
const BODY_TIMEOUT_MS = 800;

interface Runtime {
  name: string;
  binary: string;
  /** Prepares the app directory and returns the command line that serves it on `port`. */
  command: (app: string, port: number) => Promise<string[]>;
}

const runtimes: Runtime[] = [
  {
    name: 'Bun',
    binary: RUNTIME_BINARIES.bun,
    command: async (app) => ['run', join(app, 'bun.mjs')],
  },
  {
    name: 'Deno',
    binary: RUNTIME_BINARIES.deno,
    command: async (app) => [
      'run',
      '--quiet',
      '--no-prompt',
      '--allow-net=127.0.0.1',
      '--allow-env=PORT',
      '--allow-read',
      join(app, 'deno.mjs'),
    ],
  },
  {
    name: 'workerd',
    binary: RUNTIME_BINARIES.workerd,
    command: (app, port) => workerdCommand(app, port, 'worker.mjs'),
  },
];

/** Bundles `entry` as wrangler would (Workers take one module) and writes a workerd config serving it. */
async function workerdCommand(app: string, port: number, entry: string): Promise<string[]> {
  await build({
    entryPoints: [join(app, entry)],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    outfile: join(app, 'worker.bundle.js'),
    absWorkingDir: app,
    logLevel: 'warning',
  });
  writeFileSync(
    join(app, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker), (name = "internet", network = (allow = ["public", "local"])) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.bundle.js") ],
  compatibilityDate = "2025-09-01",
);
`,
  );
  return ['serve', join(app, 'config.capnp')];
}

let app: string;
beforeAll(async () => {
  ({ app } = await installPackedLibrary(root, fixtures));
}, 120_000);
afterAll(() => rmSync(app, { recursive: true, force: true }));

for (const runtime of runtimes) {
  describe.skipIf(!existsSync(runtime.binary))(
    runtimeSuiteTitle(`the packed Fetch adapter on ${runtime.name}`, runtime.binary),
    () => {
      let child: ChildProcess;
      let base: string;
      let port: number;
      let path: string;
      const output: string[] = [];

      beforeAll(async () => {
        port = await freePort();
        ({ child, base } = await serve(runtime.binary, await runtime.command(app, port), port, output));
        const setup = await send(`${base}/__setup`, { body: '{}' });
        expect(setup.status, output.join('')).toBe(200);
        path = (setup.json as { path: string }).path;
      }, 60_000);

      afterAll(() => {
        child?.kill('SIGKILL');
      });

      const post = (body: unknown, headers: Record<string, string> = {}) =>
        send(`${base}${path}`, { body: body as object, headers });

      it('stores a post (201) and answers its retry as a duplicate (200) with the same message', async () => {
        const first = await post({ text: 'Deploy 42 finished' }, { 'idempotency-key': 'deploy-42' });
        expect(first.status).toBe(201);
        expect(first.headers['content-type']).toBe('application/json');
        expect(first.headers['ratelimit-policy']).toBe('"default";q=60;w=60');
        const body = first.json as { message: { body: string; author: { name: string } }; duplicate: boolean };
        expect(body).toMatchObject({
          duplicate: false,
          message: { body: 'Deploy 42 finished', author: { type: 'webhook', name: 'CI' } },
        });
        const again = await post({ text: 'Deploy 42 finished' }, { 'idempotency-key': 'deploy-42' });
        expect(again.status).toBe(200);
        expect(again.json).toEqual({ ...body, duplicate: true });
      });

      it('answers 400 with a problem that points at the field', async () => {
        const answer = await post({ text: 'x', colour: 'red' });
        expect(answer.status).toBe(400);
        expect(answer.headers['content-type']).toBe('application/problem+json');
        expect(answer.json).toMatchObject({ status: 400, code: 'invalid_payload', errors: [{ pointer: '/colour' }] });
      });

      it('answers 405 with Allow: POST, and 415 for a body that is not JSON', async () => {
        const get = await send(`${base}${path}`, { method: 'GET' });
        expect(get.status).toBe(405);
        expect(get.headers.allow).toBe('POST');
        expect(get.json).toMatchObject({ code: 'method_not_allowed' });
        const text = await post('{"text":"x"}', { 'content-type': 'text/plain' });
        expect(text.status).toBe(415);
        expect(text.json).toMatchObject({ code: 'unsupported_media_type' });
      });

      it('answers 413 for a body over 64 KiB, with and without Content-Length', async () => {
        const declared = await post(paddedBody('big', 65_537));
        expect(declared.status).toBe(413);
        expect(declared.json).toMatchObject({ code: 'payload_too_large' });
        const chunked = await send(`${base}${path}`, { body: paddedBody('big', 70_000), chunkSize: 8_192 });
        expect(chunked.status).toBe(413);
        expect(chunked.json).toMatchObject({ code: 'payload_too_large' });
        const atLimit = await post(paddedBody('fits', 65_536));
        expect(atLimit.status).toBe(201);
      });

      it('answers 500 at storeTimeoutMs when the store is slow, also after a normal request', async () => {
        expect((await post({ text: 'normal' })).status).toBe(201);
        for (let i = 0; i < 2; i++) {
          const started = performance.now();
          const slow = await post({ text: 'slow' });
          const took = performance.now() - started;
          expect(slow.status).toBe(500);
          expect(slow.json).toMatchObject({ code: 'store_failed' });
          expect(took).toBeGreaterThanOrEqual(STORE_TIMEOUT_MS - 50);
          expect(took).toBeLessThan(STORE_TIMEOUT_MS + 1_500);
        }
        const reported = await send(`${base}/__reported`, { method: 'GET' });
        expect((reported.json as { stage: string; code: string }[]).filter((entry) => entry.stage === 'store')).toEqual(
          [
            { stage: 'store', code: 'store_timeout' },
            { stage: 'store', code: 'store_timeout' },
          ],
        );
      });

      it('cuts a trickling body at bodyTimeoutMs with 400 body_read_failed', async () => {
        const started = performance.now();
        const answer = await trickle(`${base}${path}`, '{"text":"slow sender"}');
        const took = performance.now() - started;
        expect(answer.status).toBe(400);
        expect(answer.json).toMatchObject({
          code: 'body_read_failed',
          errors: [{ pointer: '', message: 'did not arrive in time' }],
        });
        expect(took).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
        expect(took).toBeLessThan(BODY_TIMEOUT_MS + 2_000);
      });

      // The packed channel-webhooks/send, run by this runtime against the real handler (in Node) behind
      // the fault-injecting proxy of the sender's own tests.
      describe('the packed sender', () => {
        let endpoint: FaultyEndpoint;
        beforeAll(async () => {
          endpoint = await startFaultyEndpoint();
        });
        afterAll(() => endpoint.close());

        const runSender = async (body: Record<string, unknown>) => {
          const answer = await send(`${base}/__send`, { body: { url: endpoint.url, ...body } });
          expect(answer.status, output.join('')).toBe(200);
          return answer.json as {
            result: Record<string, unknown>;
            attempts: Array<Record<string, unknown>>;
            waits: number[];
          };
        };

        it('stores one message through a 500, a 429, a dropped connection and a time-out, with one key on every attempt', async () => {
          endpoint.inject(['500', '429', 'drop', 'stall_after']);
          const before = endpoint.seen.length;
          const { result, attempts, waits } = await runSender({
            payload: { text: `from ${runtime.name}` },
            options: { maxAttempts: 6, baseDelayMs: 100, attemptTimeoutMs: 500 },
          });
          expect(result).toMatchObject({
            ok: true,
            status: 200,
            duplicate: true,
            attempts: 5,
            message: { body: `from ${runtime.name}` },
          });
          expect(attempts.map((attempt) => [attempt.outcome, attempt.status, attempt.error])).toEqual([
            ['retry', 500, null],
            ['retry', 429, null],
            ['retry', null, 'network'],
            ['retry', null, 'timeout'],
            ['duplicate', 200, null],
          ]);
          expect(waits).toEqual([50, 2_000, 200, 400]);
          const keys = endpoint.seen.slice(before).map((request) => request.key);
          expect(keys).toHaveLength(5);
          expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
          expect(new Set(keys)).toEqual(new Set([result.idempotencyKey]));
          expect(
            endpoint.store.listMessages('general').filter((message) => message.body === `from ${runtime.name}`),
          ).toHaveLength(1);
        });

        it('does not retry a refusal, and returns the endpoint’s pointers', async () => {
          const before = endpoint.seen.length;
          const { result, attempts } = await runSender({
            payload: { text: 'x', colour: 'red' },
            idempotencyKey: 'refused-1',
          });
          expect(result).toMatchObject({
            ok: false,
            code: 'refused',
            status: 400,
            attempts: 1,
            idempotencyKey: 'refused-1',
            problem: {
              code: 'invalid_payload',
              errors: [{ pointer: '/colour', message: 'is not an allowed property' }],
            },
          });
          expect(attempts).toHaveLength(1);
          expect(endpoint.seen.slice(before)).toHaveLength(1);
        });
      });
    },
  );
}

// The packed SQLite store on bun:sqlite: both conformance suites and a round of posts, as `bun test` runs them.
describe.skipIf(!existsSync(RUNTIME_BINARIES.bun))(
  runtimeSuiteTitle('the packed SQLite store on Bun (bun:sqlite)', RUNTIME_BINARIES.bun),
  () => {
    it('passes both conformance suites and stores, deduplicates and refuses posts', async () => {
      const { code, output } = await runToEnd(RUNTIME_BINARIES.bun, ['test', './sqlite.test.mjs']);
      expect(output, output).toMatch(/\b0 fail\b/);
      expect(Number(/(\d+) pass\b/.exec(output)?.[1])).toBeGreaterThanOrEqual(38);
      expect(code).toBe(0);
    }, 60_000);
  },
);

// The packed SQLite store on node:sqlite, which Deno has (and Node from 22.5: see node-versions.runtime.test.ts): both conformance suites.
describe.skipIf(!existsSync(RUNTIME_BINARIES.deno))(
  runtimeSuiteTitle('the packed SQLite store on Deno (node:sqlite)', RUNTIME_BINARIES.deno),
  () => {
    it('passes both conformance suites', async () => {
      const { code, output } = await runToEnd(RUNTIME_BINARIES.deno, [
        'run',
        '--quiet',
        '--allow-read',
        '--allow-write',
        '--allow-env',
        './sqlite-node-sqlite.mjs',
      ]);
      expect(output, output).toMatch(/^\d+ passed, 0 failed$/m);
      expect(Number(/^(\d+) passed/m.exec(output)?.[1])).toBeGreaterThanOrEqual(35);
      expect(code).toBe(0);
    }, 60_000);
  },
);

// The runtime examples in examples/, run as their comments say, on the installed package.
// examples/cloudflare-workers needs Durable Objects: cloudflare-workers-example.runtime.test.ts runs it.
const [bun, deno] = runtimes;
const exampleRuns: Array<{
  name: string;
  runtime: Runtime;
  start: (port: number) => Promise<string[]>;
  webhookUrl: (base: string, output: string[]) => Promise<string>;
}> = [
  {
    name: 'examples/bun/server.js',
    runtime: bun!,
    start: async () => (copyExample('bun/server.js'), ['bun/server.js']),
    webhookUrl: async (_, output) => printedUrl(output),
  },
  {
    name: 'examples/deno/server.js',
    runtime: deno!,
    start: async () => (
      copyExample('deno/server.js'),
      [
        'run',
        '--quiet',
        '--unstable-kv',
        '--allow-net',
        '--allow-env',
        '--allow-read',
        '--allow-write',
        'deno/server.js',
      ]
    ),
    webhookUrl: async (_, output) => printedUrl(output),
  },
];

for (const example of exampleRuns) {
  describe.skipIf(!existsSync(example.runtime.binary))(runtimeSuiteTitle(example.name, example.runtime.binary), () => {
    it('runs as its comment says and stores a post sent to the webhook URL it gives', async () => {
      const output: string[] = [];
      const port = await freePort();
      const { child, base } = await serve(example.runtime.binary, await example.start(port), port, output);
      try {
        const url = await example.webhookUrl(base, output);
        const forged = 'line one\n\u001b[31mFAKE\u009b2J\u2028\u202eevil';
        const answer = await send(`${base}${new URL(url).pathname}`, { body: { text: forged } });
        expect(answer.status, output.join('')).toBe(201);
        expect(answer.json).toMatchObject({ duplicate: false, message: { body: forged, author: { name: 'Demo' } } });
        expect(output.join('')).not.toMatch(/[\u001b\u009b\u2028\u202e]/);
      } finally {
        child.kill('SIGKILL');
      }
    }, 60_000);
  });
}

/** Copies an example into the app as its comment says, with the log helper it imports beside it. */
function copyExample(path: string): void {
  for (const file of [path, 'shared/log-message.js']) {
    mkdirSync(dirname(join(app, file)), { recursive: true });
    copyFileSync(join(root, 'examples', file), join(app, file));
  }
}

async function printedUrl(output: string[]): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const match = /https?:\/\/\S+\/hooks\/channels\/\S+/.exec(output.join(''));
    if (match !== null) return match[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no webhook URL printed:\n${output.join('')}`);
}

/** Sends the headers and the first byte of `body`, then nothing more until answered. */
function trickle(url: string, body: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      });
    });
    req.flushHeaders();
    req.write(body.slice(0, 1));
  });
}

/** Runs `binary args` in the app directory to its end; answers its exit code and everything it wrote. */
function runToEnd(binary: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      cwd: app,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** Starts `binary args` with PORT set and waits until it answers HTTP on the port. */
async function serve(
  binary: string,
  args: string[],
  port: number,
  output: string[],
): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(binary, args, {
    cwd: app,
    env: { ...process.env, PORT: String(port), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  await waitForServer(base, child, output);
  return { child, base };
}

async function waitForServer(base: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the runtime exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      await send(`${base}/`, { method: 'GET' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`the runtime did not listen within 30 s:\n${output.join('')}`);
}
