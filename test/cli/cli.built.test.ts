import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatePayload } from '../../src/index.js';
import { useCommand } from './run-command.js';

const root = join(import.meta.dirname, '..', '..');
const corpusFile = (name: string) => join(root, 'test', 'fixtures', 'blockkit', name);
const command = useCommand();

/** A loopback port nothing listens on: a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
const { run, serve, file } = command;
const ESC = '\u001b';

describe('channel-webhooks', () => {
  it('prints its help and each command’s with --help, exit 0; no command or an unknown one is a usage error, exit 2', async () => {
    const help = await run(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: channel-webhooks <command>/);
    for (const command of ['validate', 'send', 'serve', 'convert']) {
      const own = await run([command, '--help']);
      expect(own.code).toBe(0);
      expect(own.stdout).toMatch(new RegExp(`^Usage: channel-webhooks ${command}`));
      expect(own.stdout).toContain('Exit codes:');
    }
    expect(await run([])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: give a command: validate, send, serve, convert\nRun 'channel-webhooks --help' for usage.\n",
    });
    expect(await run(['post'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: unknown command 'post'; the commands are validate, send, serve, convert\nRun 'channel-webhooks --help' for usage.\n",
    });
    expect(await run(['validate', '--colour', 'x.json'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: unknown option '--colour'; the options are --help\nRun 'channel-webhooks validate --help' for usage.\n",
    });
  }, 30_000);
});

describe('channel-webhooks validate', () => {
  it('passes a valid payload with its size and markdown total, exit 0', async () => {
    const payload = { text: 'Deploy finished', blocks: [{ type: 'markdown', text: '**done**' }] };
    const path = file('ok.json', payload);
    const result = await run(['validate', path]);
    expect(result).toEqual({
      code: 0,
      stdout: `valid    ${path} (${Buffer.byteLength(JSON.stringify(payload))} of 65,536 bytes, markdown 8 of 12,000 characters)\n1 payload: 1 valid, 0 refused\n`,
      stderr: '',
    });
  });

  it('refuses a Block Kit payload from the corpus with every pointer the endpoint answers, exit 1', async () => {
    const path = corpusFile('circleci-basic-fail-1.json');
    const check = validatePayload(JSON.parse(readFileSync(path, 'utf8')));
    if (check.ok) throw new Error('the corpus payload was expected to be refused');
    const result = await run(['validate', path]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^refused  ${path}: invalid_payload: ${check.detail.replace('.', '\\.')} \\(855 of 65,536 bytes`),
      ),
      ...check.errors.flatMap((error) => [
        `  ${error.pointer} ${error.message}`,
        ...(error.hint === undefined ? [] : [`    hint: ${error.hint}`]),
      ]),
      '1 payload: 0 valid, 1 refused',
      '1 refused payload uses Slack constructs (see the hints): channel-webhooks convert <file> rewrites a Slack payload for this endpoint.',
      '',
    ]);
    expect(check.errors).toContainEqual({
      pointer: '/blocks/4/type',
      message: expect.stringMatching(/^must be one of "header"/),
      hint: expect.stringMatching(/^`actions` blocks are Slack-only/),
    });
  });

  it('reads an array of payloads from standard input, naming each by its index', async () => {
    const result = await run(['validate', '-'], {
      stdin: JSON.stringify([{ text: 'ok' }, { text: 'ok', colour: 'red' }]),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^valid {4}stdin\[0\] \(13 of 65,536 bytes/);
    expect(result.stdout).toContain('refused  stdin[1]: invalid_payload: One field is invalid; see errors.');
    expect(result.stdout).toContain('  /colour is not an allowed property\n');
    expect(result.stdout).toContain('2 payloads: 1 valid, 1 refused');
  });

  it('refuses invalid JSON and a body over 64 KiB, exit 1; an unreadable file is exit 2', async () => {
    const broken = await run(['validate', '-'], { stdin: '{"text":' });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^refused {2}stdin: invalid_json\n {2}\(the body\) must be valid JSON \(/);
    const payload = { text: 'x'.repeat(9_000), blocks: [{ type: 'markdown', text: 'é'.repeat(30_000) }] };
    const big = await run(['validate', file('big.json', payload)]);
    expect(big.code).toBe(1);
    const bytes = Buffer.byteLength(JSON.stringify(payload)).toLocaleString('en-US');
    expect(big.stdout).toContain(`: payload_too_large\n  (the body) is ${bytes} bytes; at most 65,536 are accepted\n`);
    const missing = await run(['validate', join(command.dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: cannot read .*nope\.json: ENOENT/);
  });

  it('writes no colour when its output is not a terminal', async () => {
    const result = await run(['validate', '-'], { stdin: '{"text":""}', env: { FORCE_COLOR: '1' } });
    expect(result.stdout).not.toContain(ESC);
  });
});

describe('channel-webhooks send and serve', () => {
  it('serve --count 1 receives a send, prints it as plain text and exits 0; send prints the id, exit 0', async () => {
    const { url, done } = await serve(['--count', '1', '--name', 'Deploys']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/channels\/wh_[\w-]+\/[\w-]{43}$/);
    const secret = url.split('/').pop()!;
    const sent = await run(['send', '--text', 'Deploy *42* finished\n\u001b[31mnot red', '--key', 'deploy-42'], {
      env: { CHANNEL_WEBHOOK_URL: url },
    });
    expect(sent.code).toBe(0);
    const id = sent.stdout.trim();
    expect(sent.stdout).toBe(`${id}\n`);
    expect(sent.stderr).toBe('stored (201) under key deploy-42\n');
    const served = await done;
    expect(served.code).toBe(0);
    expect(served.stdout.split('\n').slice(1)).toEqual([
      expect.stringMatching(new RegExp(`^── Deploys · ${id} · \\d{4}-`)),
      'Deploy 42 finished',
      '\\u001b[31mnot red',
      '',
      '',
    ]);
    expect(`${sent.stdout}${sent.stderr}`).not.toContain(secret);
  }, 30_000);

  it('reads the payload from standard input, and a resend with the same key is a duplicate, exit 0', async () => {
    const { url, done } = await serve(['--count', '2']);
    const payload = JSON.stringify({
      blocks: [{ type: 'header', text: { type: 'plain_text', text: 'Release 1.2' } }],
      eventId: 'release-1.2',
    });
    const first = await run(['send', url, '-'], { stdin: payload });
    expect(first).toMatchObject({ code: 0, stderr: 'stored (201) under key release-1.2\n' });
    const again = await run(['send', url, '-'], { stdin: payload });
    expect(again).toEqual({
      code: 0,
      stdout: first.stdout,
      stderr: 'already stored under key release-1.2 (200 duplicate): the earlier message stands\n',
    });
    expect(await run(['send', url, '--text', 'second'])).toMatchObject({ code: 0 });
    const served = await done;
    expect(served.code).toBe(0);
    expect(served.stdout).toContain('\nRelease 1.2\n');
    expect(served.stderr).toContain(
      `duplicate: answered with ${first.stdout.trim()}, stored earlier under the same key (200)`,
    );
  }, 30_000);

  it('a refused send exits 1 with the pointers and their hints, without the secret; serve --fail-on-refusal exits 1', async () => {
    const { url, done } = await serve(['--fail-on-refusal']);
    const secret = url.split('/').pop()!;
    const path = corpusFile('circleci-basic-fail-1.json');
    const check = validatePayload(JSON.parse(readFileSync(path, 'utf8')));
    if (check.ok) throw new Error('the corpus payload should be refused');
    const [first] = check.errors;
    expect(first).toMatchObject({
      pointer: '/blocks/1/fields',
      hint: expect.stringMatching(/^Section `fields` are Slack-only/),
    });
    const firstLines = `  /blocks/1/fields is not an allowed property\n    hint: ${first!.hint}\n`;
    const sent = await run(['send', url, '--file', path]);
    expect(sent.code).toBe(1);
    expect(sent.stdout).toBe('');
    expect(
      sent.stderr.startsWith(
        `refused: the endpoint answered 400 invalid_payload: 5 fields are invalid; see errors.\n${firstLines}`,
      ),
    ).toBe(true);
    expect(sent.stderr).not.toContain(secret);
    const served = await done;
    expect(served.code).toBe(1);
    expect(served.stderr).toContain(`refused 400 invalid_payload: 5 fields are invalid; see errors.\n${firstLines}`);
  }, 30_000);

  it('a send that gives up after its retries exits 3, names the key to resend with, and never prints the secret', async () => {
    const secret = 'S'.repeat(43);
    const sent = await run(['send', '--text', 'x', '--key', 'k-7', '--attempts', '2'], {
      env: { CHANNEL_WEBHOOK_URL: `http://127.0.0.1:${await closedPort()}/hooks/channels/wh_x/${secret}` },
    });
    expect(sent.code).toBe(3);
    expect(sent.stdout).toBe('');
    expect(sent.stderr).toMatch(
      /^attempt 1 could not connect; retrying in \d\.\d s with the same key\ngave up: 2 attempts failed; the last could not connect \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)\nNothing was stored: send again later with --key k-7\.\n$/,
    );
    expect(sent.stderr).not.toContain(secret);
  }, 30_000);

  it('send without a URL, or with two payload sources, is a usage error, exit 2', async () => {
    const noUrl = await run(['send', '--text', 'x']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/^error: give the webhook URL, or set CHANNEL_WEBHOOK_URL/);
    const both = await run(['send', 'http://127.0.0.1:1/hooks/channels/a/b', '--text', 'x', '-']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^error: give exactly one of --text, --file or -/);
  });
});
