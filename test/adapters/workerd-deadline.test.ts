import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const WORKERD = fileURLToPath(new URL('../../node_modules/@cloudflare/workerd-linux-64/bin/workerd', import.meta.url));
const WORKER = fileURLToPath(new URL('./workerd/deadline-worker.ts', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let dir = '';
let child: ChildProcess | undefined;
let origin = '';
let log = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'workerd-deadline-'));
  await build({ entryPoints: [WORKER], bundle: true, format: 'esm', platform: 'neutral', outfile: join(dir, 'worker.js'), logLevel: 'error' });
  const port = await freePort();
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2024-09-01",
);
`,
  );
  child = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  origin = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await fetch(`${origin}/mode/fast`);
      return;
    } catch (error) {
      if (attempt === 100) throw new Error(`workerd did not start: ${log}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}, 60_000);

afterAll(() => {
  child?.kill('SIGKILL');
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

// workerd cancels the timers a request set once that request has its answer. A deadline must
// still hold for every later request: each store call gets its own timer.
describe('the Fetch adapter on Cloudflare workerd', () => {
  it('times out a hanging store on every request, also after earlier requests ended with timers pending', async () => {
    const path = await (await fetch(`${origin}/setup`)).text();
    const post = () => fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}' });
    for (let i = 0; i < 2; i++) expect((await post()).status).toBe(201);
    await fetch(`${origin}/mode/hang`);
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      const response = await post();
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ status: 500, code: 'store_failed' });
      expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    }
    await fetch(`${origin}/mode/fast`);
    expect((await post()).status).toBe(201);
  });
});
