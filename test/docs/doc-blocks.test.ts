import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createNodeListener } from '../../adapters/frameworks/node/index.js';
import { createMemoryStore, createWebhookHandler, createWebhookManager, type WebhookManager } from '../../src/index.js';
import { backends } from '../support/backends.js';
import { listen, type Listening } from '../support/http.js';
import { installPackedLibrary } from '../support/pack.js';
import { type CodeBlock, codeBlocks, docPages, root } from './doc-files.js';

// Every JavaScript and TypeScript block of the README and of docs/ is what a reader pastes into a
// file of a new app that ran `npm install channel-webhooks` (the packed tarball) and the packages the
// block imports: each block is written alone into that app and run as its own process. It passes
// when it exits 0 with nothing on stderr, or when it serves: it prints a curl line, which the test
// sends as curl would, and the answer is 201 for a post (200 for a GET); apart from that line, the
// URL's secret appears nowhere in what it prints. A block that imports vitest is a test file and
// must pass under vitest. PostgreSQL and Redis are the run's own (DATABASE_URL, REDIS_URL,
// REDIS_CLUSTER_NODES), a block that sends posts to a fresh webhook of a receiver the test runs
// (CHANNEL_WEBHOOK_URL), and PORT=0 lets each server pick a free port. A block that writes to
// stderr itself may, but never the library's own failure line.
//
// A block that cannot run alone carries `<!-- not run: why -->` just above it. The list below is
// every such block: keep it short, and each reason names the test that runs the block's lines.
const NOT_RUN = [
  "docs/cloudflare-workers.md: import { createWebhookManager } from 'channel-webhooks';",
  'docs/deno-kv.md: // server.js: deno run --unstable-kv --allow-net --allow-env --allow-read --allow-write server.js',
  'docs/deno-kv.md: // feed.js: every message stored so far, oldest first, then each new one as it comes',
  'docs/frameworks.md: // main.ts, on @nestjs/platform-express (the default)',
  'docs/frameworks.md: // main.ts, on @nestjs/platform-fastify',
  "docs/settings-element.md: const settings = document.querySelector('channel-webhooks-settings');",
];

const pages = docPages();
const blocks = pages.flatMap(codeBlocks);
const { databaseUrl, redisUrl, title } = backends();
const redisClusterNodes = inject('redisClusterNodes');
const SERVING_TIMEOUT_MS = 20_000;

let app: string;
let receiver: { server: Listening; manager: WebhookManager };
beforeAll(async () => {
  const store = createMemoryStore();
  await store.putChannel({ id: 'deploys', ownerId: 'u1', archived: false });
  const server = await listen(createServer(createNodeListener(createWebhookHandler({ store }))));
  receiver = { server, manager: createWebhookManager({ store, baseUrl: server.origin }) };
  if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('build the package first: npm run build');
  ({ app } = await installPackedLibrary(root));
  // What the reader installs beside the library: each package a block imports, from this repository's tree.
  for (const name of new Set(blocks.flatMap((block) => importedPackages(block.code)))) {
    const target = join(app, 'node_modules', name);
    if (existsSync(target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), target, 'dir');
  }
  writeFileSync(join(app, 'vitest.config.mjs'), 'export default {};\n');
}, 180_000);
afterAll(async () => {
  if (app !== undefined) rmSync(app, { recursive: true, force: true });
  await receiver?.server.close();
});

describe(title('README and docs code blocks', 'both'), () => {
  it('there are blocks to run on every page that has code', () => {
    expect(blocks.filter((block) => block.notRun === null).length).toBeGreaterThan(20);
  });

  it('the blocks that do not run alone are the listed ones, each naming the test that runs its lines from that page', () => {
    const notRun = blocks.filter((block) => block.notRun !== null);
    expect(notRun.map((block) => `${block.where.split(':')[0]}: ${block.code.split('\n')[0]}`)).toEqual(NOT_RUN);
    for (const block of notRun) {
      const test = /\btest\/\S+\.test\.ts\b/.exec(block.notRun!)?.[0];
      expect(test, `${block.where}: the reason names no test`).toBeDefined();
      expect(readFileSync(join(root, test!), 'utf8'), `${test} does not read ${block.where}`).toContain(block.where.split(':')[0]!);
    }
  });

  for (const block of blocks.filter((candidate) => candidate.notRun === null)) {
    it.skipIf(databaseUrl === null || redisUrl === null)(`${block.where} runs as pasted`, () => runBlock(block), 90_000);
  }
});

async function runBlock(block: CodeBlock): Promise<void> {
  const isTest = /from 'vitest'/.test(block.code);
  const name = block.where.replace(/[^\w]+/g, '-');
  const file = join(app, `${name}${isTest ? '.test' : ''}.mjs`);
  const code = block.lang === 'ts' ? (await transform(block.code, { loader: 'ts', format: 'esm', target: 'node20' })).code : block.code;
  writeFileSync(file, code);
  const { url } = await receiver.manager.create({ userId: 'u1', role: 'member' }, { channelId: 'deploys', name: block.where });
  const env = {
    DATABASE_URL: databaseUrl!,
    REDIS_URL: redisUrl!,
    REDIS_CLUSTER_NODES: (redisClusterNodes ?? []).join(','),
    PORT: '0',
    CHANNEL_WEBHOOK_URL: url,
  };
  const args = isTest ? [join(app, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', app, '--config', join(app, 'vitest.config.mjs'), file] : [file];
  const run = await runProgram(args, env);
  const report = `${block.where}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  if (run.outcome === 'exited 0') {
    if (isTest) return;
    if (block.prints !== null) expect(run.stdout, `${block.where} prints what its page shows`).toBe(block.prints);
    if (writesToStderr(block.code)) expect(run.stderr, report).not.toMatch(/^channel-webhooks: /m);
    else expect(run.stderr, report).toBe('');
    return;
  }
  expect(run.outcome, report).toBe('serving');
  try {
    const request = parseCurl(run.curl!);
    const response = await fetch(request.url, request);
    expect(response.status, `${report}\n${await response.clone().text()}`).toBe(request.method === 'POST' ? 201 : 200);
    // Whatever the server logs about the request has been written by now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const secret = /\/hooks\/channels\/[^/]+\/([^/?#\s'"]+)/.exec(request.url)?.[1];
    if (secret !== undefined) expect(run.output().replace(run.curl!, ''), `${block.where} printed the secret`).not.toContain(secret);
    expect(run.output.stderr(), report).toBe('');
  } finally {
    run.stop();
  }
}

interface Running {
  outcome: string;
  stdout: string;
  stderr: string;
  curl?: string;
  output: (() => string) & { stderr: () => string };
  stop: () => void;
}

/** Runs `node args` in the app: until it exits, or until it prints a curl line (it serves then). */
function runProgram(args: string[], env: Record<string, string>): Promise<Running> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: app, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const output = Object.assign(() => stdout, { stderr: () => stderr });
    const stop = () => child.kill('SIGKILL');
    const settle = (outcome: string, curl?: string) => {
      clearTimeout(timer);
      resolve({ outcome, stdout, stderr, curl, output, stop });
    };
    const timer = setTimeout(() => {
      stop();
      settle(`neither exited nor printed a curl line within ${SERVING_TIMEOUT_MS} ms`);
    }, SERVING_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const curl = /^curl .*$/m.exec(stdout)?.[0];
      if (curl !== undefined && stdout.includes(`${curl}\n`)) settle('serving', curl);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code, signal) => settle(`exited ${code ?? signal}`));
  });
}

/** Whether a block writes to stderr itself (progress, its own error reports). */
const writesToStderr = (code: string): boolean => /\bconsole\.(error|warn)\(|\bprocess\.stderr\b/.test(code);

/** The request a curl line sends: its URL, `-X`, `-H` headers and `-d` body (POST when there is one). */
function parseCurl(line: string): { url: string; method: string; headers: Record<string, string>; body?: string } {
  const words = [...line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((match) => match[1] ?? match[2]?.replace(/\\(.)/g, '$1') ?? match[3]!);
  const request: { url: string; method: string; headers: Record<string, string>; body?: string } = { url: '', method: 'GET', headers: {} };
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '-X' || word === '--request') request.method = words[++i]!;
    else if (word === '-H' || word === '--header') {
      const [name, ...value] = words[++i]!.split(':');
      request.headers[name!.trim().toLowerCase()] = value.join(':').trim();
    } else if (word === '-d' || word === '--data' || word === '--data-raw') {
      request.body = words[++i]!;
      if (request.method === 'GET') request.method = 'POST';
    } else if (/^https?:\/\//.test(word)) request.url = word;
  }
  return request;
}

/** The packages `code` imports: what a reader installs to run it (never node: built-ins or this library). */
function importedPackages(code: string): string[] {
  return [...code.matchAll(/(?:from|import)\s*\(?\s*'([^'.][^']*)'/g)]
    .map((match) => match[1]!)
    .filter((specifier) => !specifier.startsWith('node:') && !/^channel-webhooks(\/|$)/.test(specifier))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    )
    .concat(/from 'vitest'/.test(code) ? ['vitest'] : []);
}
