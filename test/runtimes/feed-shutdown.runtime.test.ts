import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keptAliveEventSource, type KeptAliveEventSource } from '../support/event-stream.js';
import { send } from '../support/http.js';
import { installPackedLibrary } from '../support/pack.js';
import { freePort } from '../support/servers.js';
import { RUNTIME_BINARIES, runtimeSuiteTitle } from './runtime-install.js';

// What docs/delivering-messages.md says of the Fetch helper at shutdown on Bun and Deno: with the
// streams' signal aborted and the server stopped (`server.stop()`, `server.shutdown()`), an open
// stream ends with its connection, and the process exits. A browser's EventSource that reconnects
// over a kept-alive connection is never served again by the stopping process.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(root, 'test', 'runtimes', 'fixtures');

const runtimes = [
  { name: 'Bun', binary: RUNTIME_BINARIES.bun, args: ['run', 'feed-shutdown.mjs'] },
  {
    name: 'Deno',
    binary: RUNTIME_BINARIES.deno,
    args: [
      'run',
      '--quiet',
      '--no-prompt',
      '--allow-net=127.0.0.1',
      '--allow-env=PORT',
      '--allow-read',
      'feed-shutdown.mjs',
    ],
  },
];

let app: string;
beforeAll(async () => {
  ({ app } = await installPackedLibrary(root, fixtures));
}, 120_000);
afterAll(() => rmSync(app, { recursive: true, force: true }));

for (const runtime of runtimes) {
  describe.skipIf(!existsSync(runtime.binary))(
    runtimeSuiteTitle(`the packed Fetch helper's streams at shutdown on ${runtime.name}`, runtime.binary),
    () => {
      let child: ChildProcess;
      let client: KeptAliveEventSource | undefined;
      afterEach(() => {
        client?.destroy();
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });

      it('ends an open stream with its connection on SIGTERM, serves nothing more on it, and exits', async () => {
        const port = await freePort();
        child = spawn(runtime.binary, runtime.args, {
          cwd: app,
          env: { ...process.env, PORT: String(port), NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
          child.once('exit', (code, signal) => resolve({ code, signal })),
        );
        await expect.poll(() => output, { timeout: 30_000 }).toMatch(/^listening (\S+)$/m);
        const path = /^listening (\S+)$/m.exec(output)![1]!;
        const base = `http://127.0.0.1:${port}`;
        expect((await send(`${base}${path}`, { body: { text: 'one' } })).status).toBe(201);

        client = keptAliveEventSource(`${base}/events`);
        await expect.poll(() => client!.reading(), { timeout: 5_000 }).toContain('"body":"one"');
        const started = Date.now();
        child.kill('SIGTERM');
        await Promise.race([
          client.closed,
          new Promise((_resolve, reject) =>
            setTimeout(() => reject(new Error(`still open after 5 s:\n${output}`)), 5_000),
          ),
        ]);
        expect(client.answers).toHaveLength(1);
        expect(client.answers[0]).toEqual({
          status: 200,
          headers: expect.objectContaining({ 'content-type': 'text/event-stream; charset=utf-8', connection: 'close' }),
          body: expect.stringMatching(/^: connected\n\nid: [^\n]+\ndata: \{.*"body":"one".*\}\n\n$/),
        });
        expect(await exited).toEqual({ code: 0, signal: null });
        expect(Date.now() - started).toBeLessThan(5_000);
      }, 60_000);
    },
  );
}
