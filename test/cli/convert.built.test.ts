import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatePayload } from '../../src/index.js';
import { fromSlackPayload, type SlackChange } from '../../src/send/index.js';
import { printable } from '../../bin/cli/io.js';

// `channel-webhooks convert`, and the hints `validate` prints, as users run the command: bundled from
// bin/ the way tsup builds dist/cli.js, started as a child process of its own.
const root = join(import.meta.dirname, '..', '..');
const CORPUS = join(root, 'test', 'fixtures', 'blockkit');
let cli: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'channel-webhooks-convert-'));
  cli = join(root, '.tmp', `convert-test-${process.pid}.mjs`);
  await build({
    entryPoints: [join(root, 'bin', 'channel-webhooks.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: cli,
    logLevel: 'warning',
  });
});
afterAll(() => {
  rmSync(cli, { force: true });
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], stdin = ''): Promise<Run> {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(stdin);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

/** The line the command writes for a change. */
function line(change: SlackChange): string {
  const action = change.action.padEnd('changed'.length);
  if (change.to === undefined) return `${action}  ${change.pointer} ${change.message}`;
  if (change.action === 'added') return `${action}  ${change.to} from ${change.pointer}: ${change.message}`;
  return `${action}  ${change.pointer}${change.to === change.pointer ? '' : ` → ${change.to}`}: ${change.message}`;
}

describe('channel-webhooks convert', () => {
  it('prints the converted payload on stdout and every change with its pointer on stderr, exit 0', async () => {
    const path = join(CORPUS, 'circleci-basic-fail-1.json');
    const slack = JSON.parse(readFileSync(path, 'utf8'));
    const { payload, changes } = fromSlackPayload(slack);
    const result = await run(['convert', path]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(payload);
    expect(validatePayload(JSON.parse(result.stdout))).toMatchObject({ ok: true });
    const bytes = Buffer.byteLength(JSON.stringify(payload));
    expect(result.stderr).toBe(
      `${[...changes.map(line), `${changes.length} changes: the payload is valid (${bytes} of 65,536 bytes)`].join('\n')}\n`,
    );
    expect(result.stderr).toContain('changed  /blocks/1/fields → /blocks/1/text/text: ');
    expect(result.stderr).toContain('changed  /blocks/4 → /blocks/5: an actions block is now a section of links');
  });

  it('reads standard input, and says when no change was needed', async () => {
    const payload = {
      text: 'Deploy 42 finished',
      blocks: [{ type: 'header', text: { type: 'plain_text', text: 'Deploy 42' } }],
    };
    const result = await run(['convert', '-'], JSON.stringify(payload));
    expect(result).toEqual({
      code: 0,
      stdout: `${JSON.stringify(payload, null, 2)}\n`,
      stderr: `no change needed: the payload is valid (${Buffer.byteLength(JSON.stringify(payload))} of 65,536 bytes)\n`,
    });
  });

  it('lists what it dropped and exits 1 when nothing usable is left, printing no payload', async () => {
    const result = await run(
      ['convert', '-'],
      JSON.stringify({
        username: 'ci',
        blocks: [{ type: 'divider' }, { type: 'actions', elements: [{ type: 'static_select' }] }],
      }),
    );
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        'dropped  /username is Slack-only: the author is always the webhook, under the name it was created with',
        'dropped  /blocks/1/elements/0 is interactive: messages here are not',
        'dropped  /blocks/1 is an actions block with nothing left to show',
        'nothing usable is left: stdin has no text, and no block that shows any, that this endpoint can take',
        '',
      ].join('\n'),
    });
  });

  it('exits 1 when the converted payload is still refused for its size, and says why', async () => {
    const big = 'é'.repeat(12_000);
    const slack = {
      text: 'big',
      blocks: [1, 2].map(() => ({
        type: 'section',
        fields: [
          { type: 'mrkdwn', text: big },
          { type: 'mrkdwn', text: big },
        ],
      })),
    };
    const result = await run(['convert', file('big.json', slack)]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual(fromSlackPayload(slack).payload);
    const bytes = Buffer.byteLength(JSON.stringify(fromSlackPayload(slack).payload)).toLocaleString('en-US');
    expect(result.stderr.split('\n').at(-2)).toBe(
      `2 changes, still refused: the payload is ${bytes} bytes; at most 65,536 are accepted`,
    );
  });

  it('is a usage error, exit 2, without a file, with two, with an unknown option, or with input that is not JSON or cannot be read', async () => {
    for (const args of [
      ['convert'],
      ['convert', 'a.json', 'b.json'],
      ['convert', '--colour', 'a.json'],
      ['convert', join(dir, 'missing.json')],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^error: /);
    }
    const broken = await run(['convert', '-'], '{"text":');
    expect(broken).toMatchObject({ code: 2, stdout: '' });
    expect(broken.stderr).toMatch(/^error: stdin is not valid JSON \(/);
  });

  it('never writes a terminal control from the input: pointers escaped on stderr, \\u escapes in the JSON', async () => {
    const hostile = '\u001b]52;c;aGk=\u0007\u001b[2J\r\u009b\u202e\u2066';
    const slack = {
      text: `x${hostile}`,
      [hostile]: 1,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: hostile }, [hostile]: 2 }],
    };
    const result = await run(['convert', '-'], JSON.stringify(slack));
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    // Standard error goes through the command's one escaping function, `printable`.
    expect(result.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(result.stderr).toContain(`dropped  /${printable(hostile)} is not a field of a message here`);
    expect(result.stderr).toContain(`dropped  /blocks/0/${printable(hostile)} is not carried`);
    // The same JSON value: only how its characters are written differs.
    expect(JSON.parse(result.stdout)).toEqual(fromSlackPayload(slack).payload);
  });

  it('is listed in the command’s help, and has its own', async () => {
    expect((await run(['--help'])).stdout).toMatch(
      /\n {2}convert <file\|-> {4}Turn a Slack payload into one this endpoint takes/,
    );
    const help = await run(['convert', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: channel-webhooks convert <file\|->\n/);
    expect(help.stdout).toContain('Exit codes: 0 the converted payload is valid');
  });
});

describe('channel-webhooks validate, on a Slack payload', () => {
  it('prints each refusal’s hint under it, and points at convert once', async () => {
    const path = join(CORPUS, 'pysdk-webhook-send-blocks.json');
    const check = validatePayload(JSON.parse(readFileSync(path, 'utf8')));
    if (check.ok) throw new Error('the corpus payload was expected to be refused');
    const result = await run(['validate', path, file('ok.json', { text: 'ok' })]);
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines.slice(1, 5)).toEqual(
      check.errors.flatMap((error) => [`  ${error.pointer} ${error.message}`, `    hint: ${error.hint}`]),
    );
    expect(lines.slice(-3)).toEqual([
      '2 payloads: 1 valid, 1 refused',
      '1 refused payload uses Slack constructs (see the hints): channel-webhooks convert <file> rewrites a Slack payload for this endpoint.',
      '',
    ]);
  });

  it('prints no hint and no pointer to convert for a refusal that is not a Slack construct', async () => {
    const payload = JSON.stringify({ text: 'x', colour: 'red' });
    const result = await run(['validate', '-'], payload);
    expect(result.stdout).toBe(
      `refused  stdin: invalid_payload: One field is invalid; see errors. (${payload.length} of 65,536 bytes, markdown 0 of 12,000 characters)\n  /colour is not an allowed property\n1 payload: 0 valid, 1 refused\n`,
    );
  });
});
