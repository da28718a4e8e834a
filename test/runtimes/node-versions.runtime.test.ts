import { execFile, spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/http.js';
import { installPackedLibrary } from '../support/pack.js';
import { freePort } from '../support/servers.js';
import { RUNTIME_BINARIES, runtimeSuiteTitle } from './runtime-install.js';

// What a user of each current Node LTS line runs, from the packed package installed in an app: the
// ESM and CJS builds, the node:http adapter, the SQLite store and the command. The tests themselves
// run on Node 20 (with better-sqlite3); these Nodes come from the runtime install. Their SQLite store
// runs on node:sqlite, which these lines ship (no flag from 22.13 on) and which needs no native
// build, where better-sqlite3 would need one per Node ABI.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(root, 'test', 'runtimes', 'fixtures');
const run = promisify(execFile);

const nodes = [
  { major: 22, binary: RUNTIME_BINARIES.node22 },
  { major: 24, binary: RUNTIME_BINARIES.node24 },
];

let app: string;
beforeAll(async () => {
  ({ app } = await installPackedLibrary(root, fixtures));
}, 120_000);
afterAll(() => rmSync(app, { recursive: true, force: true }));

for (const { major, binary } of nodes) {
  describe.skipIf(!existsSync(binary))(runtimeSuiteTitle(`the packed package on Node ${major}`, binary), () => {
    const expectedPost = {
      direct: { status: 201, body: 'direct', author: 'CI' },
      viaFetch: { status: 201, body: 'via fetch', contentType: 'application/json' },
      stored: ['direct', 'via fetch'],
      forbidden: { code: 'forbidden', isError: true },
      refused: ['/colour'],
    };

    it('imported as ESM, loads the ESM build and posts a message end to end', async () => {
      const { stdout } = await run(binary, ['consumer.mjs'], { cwd: app });
      const result = JSON.parse(stdout) as { node: string };
      expect(result.node.split('.')[0]).toBe(String(major));
      expect(result).toEqual({ node: result.node, entry: 'index.js', ...expectedPost });
    });

    it('required as CJS, loads the CJS build and posts a message end to end', async () => {
      const { stdout } = await run(binary, ['consumer.cjs'], { cwd: app });
      const result = JSON.parse(stdout) as { node: string };
      expect(result.node.split('.')[0]).toBe(String(major));
      expect(result).toEqual({ node: result.node, entry: 'index.cjs', ...expectedPost });
    });

    it('serves posts over node:http: 201, its retry 200 as a duplicate, a bad field 400', async () => {
      const port = await freePort();
      const child = spawn(binary, ['node-server.mjs'], {
        cwd: app,
        env: { ...process.env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          child.stdout.on('data', () => {
            const printed = /^webhook (\S+)$/m.exec(output);
            if (printed !== null) resolve(printed[1]!);
          });
          child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
        });
        const post = (body: object, headers: Record<string, string> = {}) => send(url, { body, headers });

        const first = await post({ text: 'Deploy 42 finished' }, { 'idempotency-key': 'deploy-42' });
        expect(first.status, output).toBe(201);
        expect(first.headers['content-type']).toBe('application/json');
        expect(first.json).toMatchObject({
          duplicate: false,
          message: { body: 'Deploy 42 finished', author: { type: 'webhook', name: 'CI' } },
        });
        const again = await post({ text: 'Deploy 42 finished' }, { 'idempotency-key': 'deploy-42' });
        expect(again.status).toBe(200);
        expect(again.json).toEqual({ ...(first.json as object), duplicate: true });
        const refused = await post({ text: 'x', colour: 'red' });
        expect(refused.status).toBe(400);
        expect(refused.headers['content-type']).toBe('application/problem+json');
        expect(refused.json).toMatchObject({ status: 400, code: 'invalid_payload', errors: [{ pointer: '/colour' }] });
      } finally {
        child.kill('SIGKILL');
      }
    });

    it('passes both SQLite conformance suites on node:sqlite', async () => {
      const { stdout } = await run(binary, ['sqlite-node-sqlite.mjs'], { cwd: app });
      expect(stdout, stdout).toMatch(/^\d+ passed, 0 failed$/m);
      expect(Number(/^(\d+) passed/m.exec(stdout)?.[1])).toBeGreaterThanOrEqual(35);
    }, 60_000);

    // `#!/usr/bin/env node` starts the command on the first Node on PATH: this one, as for its users.
    describe('the command, channel-webhooks', () => {
      const env = { ...process.env, PATH: `${dirname(binary)}${delimiter}${process.env.PATH}` };
      const command = () => join(app, 'node_modules', '.bin', 'channel-webhooks');
      const runCommand = (args: string[]) =>
        run(command(), args, { cwd: app, env }).then(
          ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
          (error: { code: number; stdout: string; stderr: string }) => error,
        );

      it(`starts on Node ${major} from PATH`, async () => {
        const { stdout } = await run('/usr/bin/env', ['node', '--version'], { env });
        expect(stdout.trim()).toMatch(new RegExp(`^v${major}\\.`));
      });

      it('prints its help and exits 0 on --help', async () => {
        const { code, stdout } = await runCommand(['--help']);
        expect(code).toBe(0);
        expect(stdout).toMatch(/^Usage: channel-webhooks <command> \[options\]\n/);
        for (const name of ['validate', 'send', 'serve']) expect(stdout).toMatch(new RegExp(`^ {2}${name} `, 'm'));
      });

      it('validates a file of payloads: one passes, one is refused with its pointer, exit 1', async () => {
        writeFileSync(
          join(app, 'payloads.json'),
          JSON.stringify([{ text: 'Deploy 42 finished' }, { text: 'x', colour: 'red' }]),
        );
        const { code, stdout } = await runCommand(['validate', 'payloads.json']);
        expect(code).toBe(1);
        expect(stdout).toMatch(/^valid {4}payloads\.json\[0\] /m);
        expect(stdout).toMatch(/^refused {2}payloads\.json\[1\]: invalid_payload: /m);
        expect(stdout).toContain('  /colour is not an allowed property\n');
        expect(stdout).toMatch(/^2 payloads: 1 valid, 1 refused$/m);
      });
    });
  });
}
