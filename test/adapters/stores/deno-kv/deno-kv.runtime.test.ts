import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../../support/http.js';
import { installPackedLibrary } from '../../../support/pack.js';
import { freePort } from '../../../support/servers.js';
import { RUNTIME_BINARIES, runtimeSuiteTitle } from '../../../runtimes/runtime-install.js';
import { codeBlocks, docPages } from '../../../docs/doc-files.js';

// The packed Deno KV store and limiter, inside the real Deno from the runtime install (see
// test/runtimes/runtime-install.ts), on local KV files: the Deno test files of fixtures/ run with
// `deno test`, and several Deno processes share one file here. Deno KV is Deno's own: there is no
// stand-in for it in Node, so everything below runs in Deno or not at all.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const deno = RUNTIME_BINARIES.deno;
const KV_FLAGS = [
  '--quiet',
  '--no-check',
  '--unstable-kv',
  '--allow-read',
  '--allow-write',
  '--allow-env',
  '--allow-net',
  '--allow-run',
];

let app: string;
beforeAll(async () => {
  ({ app } = await installPackedLibrary(root, join(dirname(fileURLToPath(import.meta.url)), 'fixtures')));
}, 120_000);
afterAll(() => rmSync(app, { recursive: true, force: true }));

/** Runs Deno in the app directory to its end: its exit code and everything it wrote. */
function runDeno(args: string[]): Promise<{ code: number | null; output: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(deno, args, {
      cwd: app,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      stdout += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output, stdout }));
  });
}

/** `deno test` of one fixture file: passes when every step passed, at least `steps` of them. */
async function denoTest(file: string, steps: number): Promise<void> {
  const { code, output } = await runDeno(['test', ...KV_FLAGS, file]);
  expect(output, output).toMatch(/^ok \| \d+ passed \(\d+ steps\) \| 0 failed/m);
  expect(Number(/passed \((\d+) steps\)/.exec(output)?.[1])).toBeGreaterThanOrEqual(steps);
  expect(code).toBe(0);
}

interface Answer {
  status: number;
  messageId: string | null;
  code: string | null;
}

/** One run of fixtures/posts.mjs: a Deno process on the KV file, which prints its result as JSON. */
async function posts<T>(...args: string[]): Promise<T> {
  const { code, output, stdout } = await runDeno(['run', ...KV_FLAGS, 'posts.mjs', ...args]);
  expect(code, output).toBe(0);
  return JSON.parse(stdout) as T;
}

const statuses = (answers: Answer[]) => answers.map((answer) => answer.status).sort();

describe.skipIf(!existsSync(deno))(runtimeSuiteTitle('the packed Deno KV store and limiter inside Deno', deno), () => {
  it(
    'pass both conformance suites, each store with a peer on a second connection to the KV file',
    () => denoTest('conformance.test.mjs', 42),
    120_000,
  );

  it(
    'keep one message per key and exactly 60 posts a minute under concurrent posts, and miss no revocation, rotation or archival in flight',
    () => denoTest('races.test.mjs', 8),
    120_000,
  );

  it(
    'store a message at the body limit and at the edge of one KV value, keys of any length and Unicode; fail whole and in time; version the layout; count a post’s KV operations',
    () => denoTest('limits.test.mjs', 10),
    120_000,
  );

  it('keep the message feed and the post history', () => denoTest('feed.test.mjs', 7), 120_000);

  it('accept a Deno.Kv as the entry point types it (deno check)', async () => {
    // Written here rather than kept in fixtures/: the repository's own type check knows no Deno.
    writeFileSync(
      join(app, 'kv-types.ts'),
      `import { createDenoKvRateLimiter, createDenoKvStore, type DenoKv } from 'channel-webhooks/deno-kv';
const kv = await Deno.openKv(':memory:');
const shaped: DenoKv = kv;
createDenoKvStore({ kv });
createDenoKvRateLimiter({ kv: shaped });
`,
    );
    const { code, output } = await runDeno(['check', '--quiet', '--unstable-kv', 'kv-types.ts']);
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  describe('several Deno processes on one KV file', () => {
    let file: string;
    beforeAll(() => {
      mkdirSync(join(app, 'kv'), { recursive: true });
    });
    const freshFile = () => (file = join(app, 'kv', `${Math.random().toString(36).slice(2)}.kv`));

    it('100 posts at once to one webhook from two processes get exactly 60 201s, and 60 messages are stored', async () => {
      freshFile();
      const { url } = await posts<{ url: string }>('setup', file);
      const startAt = String(Date.now() + 1_500);
      const bursts = await Promise.all(
        [0, 1].map(() => posts<{ answers: Answer[] }>('burst', file, url, '50', startAt, '60')),
      );
      const answers = bursts.flatMap((burst) => burst.answers);
      expect(statuses(answers)).toEqual([...Array(60).fill(201), ...Array(40).fill(429)]);
      const state = await posts<{ messages: string[] }>('state', file);
      expect(state.messages.sort()).toEqual(
        answers.flatMap((answer) => (answer.status === 201 ? [answer.messageId] : [])).sort(),
      );
    }, 60_000);

    it('posts with one key at once from two processes store one message, and every answer carries it', async () => {
      freshFile();
      const { url } = await posts<{ url: string }>('setup', file);
      const startAt = String(Date.now() + 1_500);
      const bursts = await Promise.all(
        [0, 1].map(() => posts<{ answers: Answer[] }>('burst', file, url, '20', startAt, '60', 'deploy-42')),
      );
      const answers = bursts.flatMap((burst) => burst.answers);
      expect(statuses(answers)).toEqual([...Array(39).fill(200), 201]);
      expect(new Set(answers.map((answer) => answer.messageId)).size).toBe(1);
      expect((await posts<{ messages: string[] }>('state', file)).messages).toEqual([answers[0]!.messageId]);
    }, 60_000);

    it('two processes inserting the same 200 keys at once store each key once, and both get its message', async () => {
      freshFile();
      const { webhookId } = await posts<{ webhookId: string }>('setup', file);
      const startAt = String(Date.now() + 1_500);
      type Outcomes = { outcomes: { outcome: string; messageId: string }[] };
      const [one, two] = await Promise.all([0, 1].map(() => posts<Outcomes>('keys', file, webhookId, '200', startAt)));
      const created = [...one!.outcomes, ...two!.outcomes].filter((result) => result.outcome === 'created');
      expect(created).toHaveLength(200);
      expect(one!.outcomes.map((result) => result.messageId)).toEqual(two!.outcomes.map((result) => result.messageId));
      expect((await posts<{ messages: string[] }>('state', file)).messages.sort()).toEqual(
        created.map((result) => result.messageId).sort(),
      );
    }, 60_000);

    it('state survives a restart: a new process sees the key, the rate window, the feed and a revocation', async () => {
      freshFile();
      const { url, webhookId } = await posts<{ url: string; webhookId: string }>('setup', file);
      const now = () => String(Date.now());
      const first = await posts<{ answers: Answer[] }>('burst', file, url, '1', now(), '3', 'deploy-42');
      expect(first.answers).toEqual([{ status: 201, messageId: expect.any(String), code: null }]);
      const again = await posts<{ answers: Answer[] }>('burst', file, url, '1', now(), '3', 'deploy-42');
      expect(again.answers).toEqual([{ ...first.answers[0], status: 200 }]);
      const more = await posts<{ answers: Answer[] }>('burst', file, url, '2', now(), '3');
      expect(statuses(more.answers)).toEqual([201, 429]);
      const state = await posts<{ messages: string[]; feed: string[]; lastPostAt: (number | null)[] }>('state', file);
      expect(state.messages).toHaveLength(2);
      expect(state.feed).toEqual(state.messages);
      expect(state.lastPostAt).toEqual([expect.any(Number)]);
      await posts('revoke', file, webhookId);
      const revoked = await posts<{ answers: Answer[] }>('burst', file, url, '1', now(), '60');
      expect(revoked.answers).toEqual([{ status: 404, messageId: null, code: 'not_found' }]);
    }, 60_000);
  });

  // docs/deno-kv.md's blocks need Deno, so test/docs/doc-blocks.built.test.ts leaves them to this test:
  // each runs as pasted, in order, in a folder of its own; a server's curl line must get a 201.
  it('run the blocks of docs/deno-kv.md as pasted: the server stores a post, and the feed reader prints it', async () => {
    const page = docPages().find((candidate) => candidate.path === 'docs/deno-kv.md')!;
    const blocks = codeBlocks(page);
    expect(blocks.map((block) => block.notRun)).toEqual(
      blocks.map(() => expect.stringContaining('test/adapters/stores/deno-kv/deno-kv.runtime.test.ts')),
    );
    const dir = join(app, 'doc-blocks');
    mkdirSync(dir, { recursive: true });
    const printed: string[] = [];
    for (const block of blocks) {
      const file = join(dir, `${block.where.replace(/\W+/g, '-')}.mjs`);
      writeFileSync(file, block.code);
      const output: string[] = [];
      const child = spawn(deno, ['run', ...KV_FLAGS, file], {
        cwd: dir,
        env: { ...process.env, PORT: '0', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const errors: string[] = [];
      child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const curl = await Promise.race([
        exited.then(() => null),
        (async () => {
          for (;;) {
            const line = /^curl .* (http\S+)$/m.exec(output.join(''));
            if (line !== null) return line[1]!;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        })(),
      ]);
      if (curl !== null) {
        const posted = await send(curl, { body: { text: 'Deploy 42 finished' } });
        expect(posted.status, `${block.where}\n${output.join('')}${errors.join('')}`).toBe(201);
        child.kill('SIGKILL');
      }
      const code = await exited;
      if (curl === null) expect(code, `${block.where}\n${output.join('')}${errors.join('')}`).toBe(0);
      expect(errors.join(''), block.where).toBe('');
      printed.push(output.join(''));
    }
    expect(printed.at(-1)).toBe('deploys CI: Deploy 42 finished\n');
  }, 60_000);

  describe('examples/deno/server.js', () => {
    let child: ChildProcess | undefined;
    afterAll(() => {
      child?.kill('SIGKILL');
    });

    /** Starts the example as its comment says, on the app's KV file; answers its base URL and the webhook URL it printed. */
    async function startExample(): Promise<{ base: string; url: string; output: string[] }> {
      const port = await freePort();
      const output: string[] = [];
      child = spawn(
        deno,
        [
          'run',
          '--quiet',
          '--unstable-kv',
          '--allow-net',
          '--allow-env',
          '--allow-read',
          '--allow-write',
          'deno/server.js',
        ],
        {
          cwd: app,
          env: { ...process.env, PORT: String(port), DENO_KV_PATH: join(app, 'example.kv'), NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      for (let i = 0; i < 300; i++) {
        const url = /https?:\/\/\S+\/hooks\/channels\/\S+/.exec(output.join(''))?.[0];
        if (url !== undefined) return { base: `http://127.0.0.1:${port}`, url, output };
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`the example printed no webhook URL:\n${output.join('')}`);
    }

    it('runs on its KV file, and after a kill -9 and a restart answers the same key with the same message', async () => {
      for (const file of ['deno/server.js', 'shared/log-message.js']) {
        mkdirSync(dirname(join(app, file)), { recursive: true });
        copyFileSync(join(root, 'examples', file), join(app, file));
      }
      const first = await startExample();
      const post = (base: string, url: string) =>
        send(`${base}${new URL(url).pathname}`, {
          body: { text: 'Deploy 42 finished' },
          headers: { 'idempotency-key': 'deploy-42' },
        });
      const created = await post(first.base, first.url);
      expect(created.status, first.output.join('')).toBe(201);
      child!.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));

      const second = await startExample();
      const again = await post(second.base, first.url);
      expect(again.status, second.output.join('')).toBe(200);
      expect(again.json).toEqual({ ...(created.json as object), duplicate: true });
      expect((await post(second.base, second.url)).status).toBe(201);
    }, 60_000);
  });
});
