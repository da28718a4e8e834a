import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeListener } from '../../adapters/frameworks/node/index.js';
import { createMemoryStore, createWebhookHandler, createWebhookManager, type WebhookManager } from '../../src/index.js';
import { backends } from '../support/backends.js';
import { listen, type Listening } from '../support/http.js';
import { packLibrary } from '../support/pack.js';
import { type CodeBlock, codeBlocks, docPages, root, setUpCommands } from './doc-files.js';

// Every JavaScript and TypeScript block of the README and of docs/ is what a reader pastes into a
// file of a new app made as docs/README.md's set-up says: the test types its commands in an empty
// folder (`npm install channel-webhooks` installs the packed tarball; other packages, and those a
// block imports, come from this repository's tree). Each block is written alone into that app, a
// `js` block as a `.js` file run by node, a `ts` block as a `.ts` file run by the set-up's tsx, each
// as its own process. It passes when it exits 0 with nothing on stderr and prints what its page
// shows below it ("It prints:" and a text block) or, when the page shows nothing, at least a line,
// or when it serves: it prints a curl line, which the test sends as curl would, and the answer is
// 201 for a post (200 for a GET); apart from that line, the URL's secret appears nowhere in what it
// prints. A block that imports vitest is a test file and must pass under vitest. A block gets from
// outside only what the page says just above it that it needs: PostgreSQL, Redis and MariaDB are the
// run's own (DATABASE_URL, REDIS_URL, REDIS_CLUSTER_NODES, MYSQL_URL), and CHANNEL_WEBHOOK_URL a fresh webhook of a
// receiver the test runs; PORT=0 lets each server pick a free port. A block that writes to stderr
// itself may, but never the library's own failure line.
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

/** What a block may need from outside the app; the page names it just above the block. */
const OUTSIDE = ['CHANNEL_WEBHOOK_URL', 'DATABASE_URL', 'REDIS_URL', 'REDIS_CLUSTER_NODES', 'MYSQL_URL'];

const execFileAsync = promisify(execFile);

const pages = docPages();
const blocks = pages.flatMap(codeBlocks);
const { databaseUrl, redisUrl, redisClusterNodes, mysqlUrl, title } = backends();
const SERVING_TIMEOUT_MS = 20_000;

let app: string;
let receiver: { server: Listening; manager: WebhookManager };
beforeAll(async () => {
  const store = createMemoryStore();
  await store.putChannel({ id: 'deploys', ownerId: 'u1', archived: false });
  const server = await listen(createServer(createNodeListener(createWebhookHandler({ store }))));
  receiver = { server, manager: createWebhookManager({ store, baseUrl: server.origin }) };
  if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('build the package first: npm run build');
  app = await makeApp();
  // What the reader installs beside the library: each package a block imports.
  for (const name of new Set(blocks.flatMap((block) => importedPackages(block.code)))) linkPackage(app, name);
  writeFileSync(join(app, 'vitest.config.js'), 'export default {};\n');
}, 180_000);
afterAll(async () => {
  if (app !== undefined) rmSync(app, { recursive: true, force: true });
  await receiver?.server.close();
});

/** An empty folder where the set-up's commands ran, as the reader types them. */
async function makeApp(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'channel-webhooks-docs-app-'));
  const tarball = await packLibrary(root, folder);
  const linked: string[] = [];
  for (const command of setUpCommands()) {
    const install = /^npm (?:install|i|add)\b(.*)$/.exec(command);
    if (install === null) {
      await execFileAsync('sh', ['-c', command], { cwd: folder });
      continue;
    }
    const names = install[1]!.split(/\s+/).filter((word) => word !== '' && !word.startsWith('-'));
    if (names.includes('channel-webhooks')) {
      await execFileAsync(
        'npm',
        ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball],
        { cwd: folder },
      );
    }
    linked.push(...names.filter((name) => name !== 'channel-webhooks'));
  }
  // Linked after npm's last run, which would prune what its package.json does not list.
  for (const name of linked) linkPackage(folder, name);
  return folder;
}

/** Puts this repository's copy of package `name` into the app, as `npm install name` would put the registry's. */
function linkPackage(app: string, name: string): void {
  const target = join(app, 'node_modules', name);
  if (existsSync(target)) return;
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(join(root, 'node_modules', name), target, 'dir');
  const bin = (
    JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> }
  ).bin;
  const bins = typeof bin === 'string' ? { [name]: bin } : (bin ?? {});
  mkdirSync(join(app, 'node_modules', '.bin'), { recursive: true });
  for (const [command, file] of Object.entries(bins)) {
    if (!existsSync(join(app, 'node_modules', '.bin', command)))
      symlinkSync(join('..', name, file), join(app, 'node_modules', '.bin', command));
  }
}

/** The outside things `block` reads: the names of OUTSIDE its code mentions. */
const needs = (block: CodeBlock): string[] => OUTSIDE.filter((name) => block.code.includes(name));

/** The pages that have blocks a reader runs in the set-up's app. */
const runPages = pages.filter((page) => codeBlocks(page).some((block) => block.notRun === null));

describe('the set-up every block runs in', () => {
  it('docs/README.md makes an ES module app, installs the library and a TypeScript runner', () => {
    expect(setUpCommands()).toEqual(
      expect.arrayContaining(['npm init -y', 'npm pkg set type=module', 'npm install channel-webhooks']),
    );
    expect(setUpCommands().some((command) => /^npm install (?:-D|--save-dev) tsx$/.test(command))).toBe(true);
  });

  it('each page with blocks to run points at it in its first lines, the README before its quick start', () => {
    expect(runPages.length).toBeGreaterThan(10);
    for (const page of runPages) {
      const link = page.path === 'README.md' ? 'docs/README.md#set-up' : 'README.md#set-up';
      const before =
        page.path === 'README.md'
          ? page.text.slice(0, page.text.search(/^```js$/m))
          : page.text.split('\n').slice(0, 6).join('\n');
      expect(before, page.path).toContain(`](${link})`);
    }
  });

  it('a block that needs something from outside says so just above it', () => {
    const unsaid = blocks
      .filter((block) => block.notRun === null)
      .flatMap((block) =>
        needs(block)
          .filter((name) => !block.above.includes(name))
          .map((name) => `${block.where}: ${name}`),
      );
    expect(unsaid).toEqual([]);
  });
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
      expect(readFileSync(join(root, test!), 'utf8'), `${test} does not read ${block.where}`).toContain(
        block.where.split(':')[0]!,
      );
    }
  });

  for (const block of blocks.filter((candidate) => candidate.notRun === null)) {
    it.skipIf(databaseUrl === null || redisUrl === null)(
      `${block.where} runs as pasted`,
      () => runBlock(block),
      90_000,
    );
  }
});

async function runBlock(block: CodeBlock): Promise<void> {
  const isTest = /from 'vitest'/.test(block.code);
  const name = block.where.replace(/[^\w]+/g, '-');
  const file = join(app, `${name}${isTest ? '.test' : ''}.${block.lang}`);
  writeFileSync(file, block.code);
  const { url } = await receiver.manager.create(
    { userId: 'u1', role: 'member' },
    { channelId: 'deploys', name: block.where },
  );
  const outside: Record<string, string> = {
    DATABASE_URL: databaseUrl!,
    REDIS_URL: redisUrl!,
    REDIS_CLUSTER_NODES: (redisClusterNodes ?? []).join(','),
    CHANNEL_WEBHOOK_URL: url,
    MYSQL_URL: mysqlUrl!,
  };
  const env = {
    PORT: '0',
    ...Object.fromEntries(OUTSIDE.filter((key) => block.above.includes(key)).map((key) => [key, outside[key]!])),
  };
  const command = isTest
    ? [
        process.execPath,
        join(app, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--root',
        app,
        '--config',
        join(app, 'vitest.config.js'),
        file,
      ]
    : block.lang === 'ts'
      ? [join(app, 'node_modules', '.bin', 'tsx'), file]
      : [process.execPath, file];
  const run = await runProgram(command, env);
  const report = `${block.where}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  if (run.outcome === 'exited 0') {
    if (isTest) return;
    if (block.prints !== null) expect(run.stdout, `${block.where} prints what its page shows`).toBe(block.prints);
    else expect(run.stdout.trim(), `${block.where} prints nothing a reader can check`).not.toBe('');
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
    if (secret !== undefined)
      expect(run.output().replace(run.curl!, ''), `${block.where} printed the secret`).not.toContain(secret);
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

/**
 * Runs `command` in the app, with only the outside things `env` gives: until it exits, or until it
 * prints a curl line (it serves then). It runs in a process group of its own, so that stopping it
 * stops the process tsx starts too.
 */
function runProgram([program, ...args]: string[], env: Record<string, string>): Promise<Running> {
  return new Promise((resolve) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !OUTSIDE.includes(key)));
    const child = spawn(program!, args, {
      cwd: app,
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    const output = Object.assign(() => stdout, { stderr: () => stderr });
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group has ended already.
      }
    };
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
  const words = [...line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)].map(
    (match) => match[1] ?? match[2]?.replace(/\\(.)/g, '$1') ?? match[3]!,
  );
  const request: { url: string; method: string; headers: Record<string, string>; body?: string } = {
    url: '',
    method: 'GET',
    headers: {},
  };
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
