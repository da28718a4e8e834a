import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { backends } from '../support/backends.js';

// Every JavaScript and TypeScript block of the README is what someone pastes into a file: each is
// run as written, as its own module, against the built package (a self-reference, as a user's
// `import … from 'channel-webhooks'`). A block passes when it exits 0, or when it is still serving
// after a moment with nothing on stderr (the blocks that start a server); a block that imports
// vitest is a test file and must pass under vitest. A block that needs a program around it (a NestJS
// app, an app to log) names, in an HTML comment just above it, the test that reads it from the
// README and runs it there: `<!-- run by: test/path/file.test.ts -->`.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = join(root, '.tmp', 'readme-blocks');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const SERVING_MS = 1_500;

interface Block {
  line: number;
  lang: 'js' | 'ts';
  code: string;
  runBy: string | null;
}

const blocks: Block[] = [];
for (const match of readme.matchAll(/(?:<!-- run by: (\S+) -->\n)?```(js|ts|javascript|typescript)\n([\s\S]*?)```/g)) {
  const lang = match[2]!.startsWith('t') ? 'ts' : 'js';
  blocks.push({ line: readme.slice(0, match.index).split('\n').length + (match[1] === undefined ? 0 : 1), lang, code: match[3]!, runBy: match[1] ?? null });
}

const { databaseUrl, redisUrl, title } = backends();
const redisClusterNodes = inject('redisClusterNodes');
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe(title('README code blocks', 'both'), () => {
  it('has blocks to run', () => {
    expect(blocks.filter((block) => block.runBy === null).length).toBeGreaterThan(5);
  });

  for (const block of blocks.filter((candidate) => candidate.runBy !== null)) {
    it(`README.md:${block.line} is run by ${block.runBy}, which reads it from the README`, () => {
      expect(readFileSync(join(root, block.runBy!), 'utf8')).toMatch(/README\.md/);
    });
  }

  for (const block of blocks.filter((candidate) => candidate.runBy === null)) {
    it.skipIf(databaseUrl === null || redisUrl === null)(
      `README.md:${block.line} runs as written`,
      async () => {
        mkdirSync(work, { recursive: true });
        const isTest = block.code.includes("from 'vitest'");
        const file = join(work, `block-${block.line}${isTest ? '.test' : ''}.mjs`);
        const code = block.lang === 'ts' ? (await transform(block.code, { loader: 'ts', format: 'esm', target: 'node20' })).code : block.code;
        writeFileSync(file, code);
        // The blocks' servers are the run's own, on loopback.
        const env = { DATABASE_URL: databaseUrl!, REDIS_URL: redisUrl!, REDIS_CLUSTER_NODES: (redisClusterNodes ?? []).join(','), PORT: '0' };
        if (isTest) {
          const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
          const config = join(work, 'vitest.config.mjs');
          writeFileSync(config, 'export default {};\n');
          const result = await runModule([vitest, 'run', '--root', work, '--config', config, file], env, 60_000);
          expect(result.outcome, `README.md:${block.line}\n${result.stderr}`).toBe('exited 0');
          return;
        }
        const result = await runModule([file], env, SERVING_MS);
        expect(result.stderr, `README.md:${block.line} wrote to stderr`).toBe('');
        expect(result.outcome, `README.md:${block.line}`).toMatch(/^(exited 0|serving)$/);
      },
      90_000,
    );
  }
});

/** Runs `node args`: exited with its code, or `serving` when still running after `servingMs`. */
function runModule(args: string[], env: Record<string, string>, servingMs: number): Promise<{ outcome: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ outcome: 'serving', stderr });
    }, servingMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') resolve({ outcome: `exited ${code ?? signal}`, stderr });
    });
  });
}

if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('build the package first: npm run build');
