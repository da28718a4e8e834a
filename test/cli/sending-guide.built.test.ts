import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyEndpoint, type FaultyEndpoint } from '../send/fault-proxy.js';

// Every sh and ts block of docs/sending.md runs as pasted, in order, in one directory: `npx
// channel-webhooks` is the built command (dist/cli.js) and `channel-webhooks` the built package (a
// self-reference), as after `npm install channel-webhooks`. CHANNEL_WEBHOOK_URL is a real endpoint.
// A text block right after a block shows that block's output, and must stay true.
const root = join(import.meta.dirname, '..', '..');
const guide = readFileSync(join(root, 'docs', 'sending.md'), 'utf8');
const work = join(root, '.tmp', `sending-guide-${process.pid}`);
const shims = join(work, '.bin');

interface Block {
  line: number;
  lang: string;
  code: string;
  /** The text block that follows this one with nothing but blank lines between, if any. */
  output: string | null;
}
const blocks: Block[] = [];
for (const match of guide.matchAll(/```(sh|ts)\n([\s\S]*?)```\n(?:\n```text\n([\s\S]*?)```)?/g)) {
  blocks.push({
    line: guide.slice(0, match.index).split('\n').length,
    lang: match[1]!,
    code: match[2]!,
    output: match[3] ?? null,
  });
}

let endpoint: FaultyEndpoint;
beforeAll(async () => {
  endpoint = await startFaultyEndpoint();
  mkdirSync(shims, { recursive: true });
  writeFileSync(
    join(shims, 'npx'),
    `#!/bin/sh\nif [ "$1" = channel-webhooks ]; then shift; exec "${process.execPath}" "${join(root, 'dist', 'cli.js')}" "$@"; fi\necho "unexpected: npx $*" >&2\nexit 127\n`,
  );
  chmodSync(join(shims, 'npx'), 0o755);
});
afterAll(async () => {
  await endpoint.close();
  rmSync(work, { recursive: true, force: true });
});

function run(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, {
    cwd: work,
    env: {
      ...process.env,
      PATH: `${shims}:${process.env.PATH}`,
      CHANNEL_WEBHOOK_URL: endpoint.directUrl,
      NO_COLOR: '1',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('docs/sending.md', () => {
  it('has sh and ts blocks to run', () => {
    expect(blocks.filter((block) => block.lang === 'sh').length).toBeGreaterThanOrEqual(3);
    expect(blocks.filter((block) => block.lang === 'ts').length).toBeGreaterThanOrEqual(2);
  });

  for (const block of blocks) {
    it(`docs/sending.md:${block.line} (${block.lang}) runs as pasted`, async () => {
      let result: Awaited<ReturnType<typeof run>>;
      if (block.lang === 'sh') {
        result = await run('bash', ['-e', '-c', block.code]);
      } else {
        const file = join(work, `block-${block.line}.mjs`);
        writeFileSync(file, (await transform(block.code, { loader: 'ts', format: 'esm', target: 'node20' })).code);
        result = await run(process.execPath, [file]);
      }
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      if (block.output !== null) expect(result.stdout).toBe(block.output);
    }, 30_000);
  }
});
