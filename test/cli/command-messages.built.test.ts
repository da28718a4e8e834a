import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../support/http.js';
import { finished, stderrShows, useCommand } from './run-command.js';

// The command as a CI author meets it, run as a child process: what each message says, and that it
// says only what is known.
const command = useCommand();
const { run, start, serve } = command;
const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
  version: string;
};
const SECRET = 'S'.repeat(43);

const usage = (message: string, help = 'channel-webhooks send') => ({
  code: 2,
  stdout: '',
  stderr: `error: ${message}\nRun '${help} --help' for usage.\n`,
});

describe('the command line', () => {
  it('prints the version with --version and -v', async () => {
    for (const flag of ['--version', '-v'])
      expect(await run([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('answers a usage error with its one line and where the help is, an unknown option with the one meant', async () => {
    expect(await run(['send', '--txt', 'hi'])).toEqual(usage("unknown option '--txt'; did you mean '--text'?"));
    expect(await run(['send', '--attempt', '3'])).toEqual(
      usage("unknown option '--attempt'; did you mean '--attempts'?"),
    );
    expect(await run(['serve', '--count'])).toEqual(usage("option '--count' needs a value", 'channel-webhooks serve'));
    expect(await run(['sned'])).toEqual(usage("unknown command 'sned'; did you mean 'send'?", 'channel-webhooks'));
    expect(
      await run(['send', '--text', 'x', '--timeout', '0', `http://127.0.0.1/hooks/channels/wh_1/${SECRET}`]),
    ).toEqual(usage('--timeout must be a number of seconds from 0.001 to 2147483'));
  });

  it('says a URL is not an absolute http(s) URL without quoting it or naming the library’s factory', async () => {
    expect(await run(['send', 'not-a-url', '--text', 'x'])).toEqual(
      usage('the webhook URL is not an absolute http(s) URL: it is not a URL (to send a file, give --file <path>)'),
    );
    expect(
      await run(['send', '--text', 'x'], {
        env: { CHANNEL_WEBHOOK_URL: `ftp://chat.example.com/hooks/channels/wh_1/${SECRET}` },
      }),
    ).toEqual(usage('CHANNEL_WEBHOOK_URL is not an absolute http(s) URL: its scheme is ftp:'));
    expect(
      await run(['send', `https://ci:hunter2@chat.example.com/hooks/channels/wh_1/${SECRET}`, '--text', 'x']),
    ).toEqual(
      usage(
        'the webhook URL is not an absolute http(s) URL: it has a user name or password before the host (user:password@), which a webhook URL never has',
      ),
    );
  });
});

describe('send, against an endpoint that fails', () => {
  let endpoint: Listening;
  beforeAll(async () => {
    endpoint = await listen(
      createServer((req, res) => {
        req.resume();
        const [, kind, seconds] = /^\/(\w+)(?:-(\d+))?\//.exec(req.url!) ?? [];
        const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
          res
            .writeHead(status, { 'content-type': 'application/problem+json', ...headers })
            .end(JSON.stringify({ type: 'about:blank', title: code, status, detail: 'x', code }));
        if (kind === 'limited') return problem(429, 'rate_limited', { 'retry-after': seconds! });
        if (kind === 'failing') return problem(500, 'store_failed');
        if (kind === 'redirect')
          return res.writeHead(307, { location: `http://127.0.0.1:9/hooks/channels/wh_1/${SECRET}` }).end();
        // 'stalled': never answers.
      }),
    );
  });
  afterAll(() => endpoint.close());
  const url = (kind: string) => `${endpoint.origin}/${kind}/hooks/channels/wh_1/${SECRET}`;

  it('after a 429 that asks past the deadline: the wait in seconds, and that nothing was stored', async () => {
    const sent = await run(['send', url('limited-57'), '--text', 'x', '--key', 'k-1', '--timeout', '10']);
    expect(sent).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'gave up: the endpoint asked to wait 57 s, past the 10 s deadline, after 1 attempt; the last answered 429 rate_limited\n' +
        'Nothing was stored: send again later with --key k-1.\n',
    });
  });

  it('after a 5xx or a time-out: that the message may have been stored', async () => {
    expect(await run(['send', url('failing'), '--text', 'x', '--key', 'k-2', '--attempts', '1'])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'gave up: the one attempt answered 500 store_failed\nThe message may have been stored: send again later with --key k-2 to store it at most once.\n',
    });
    expect(await run(['send', url('stalled'), '--text', 'x', '--key', 'k-3', '--timeout', '1'])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'gave up: the 1 s deadline leaves no time for attempt 2; the last timed out\nThe message may have been stored: send again later with --key k-3 to store it at most once.\n',
    });
  });

  it('names what kept a payload from being sent, once, exit 1', async () => {
    expect(await run(['send', url('failing'), '-', '--key', 'b'], { stdin: '{"text":"x","eventId":"a"}' })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'not sent: the key differs from the payload’s eventId; the endpoint would refuse the pair\n',
    });
  });

  it('refuses a redirect, naming its status, exit 1', async () => {
    expect(await run(['send', url('redirect'), '--text', 'x'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'refused: the endpoint answered 307, a redirect: a webhook URL is never redirected, and the post was not sent on\n',
    });
  });

  it('shows a long wait in plain lines off a terminal, and Ctrl-C during it exits 130 at once', async () => {
    const child = start(['send', url('limited-11'), '--text', 'x', '--key', 'k-4']);
    child.stdin!.end();
    const done = finished(child);
    await stderrShows(child, /waiting: 10 s left\n/);
    const interrupted = performance.now();
    child.kill('SIGINT');
    const sent = await done;
    expect(performance.now() - interrupted).toBeLessThan(2_000);
    expect(sent).toEqual({
      code: 130,
      stdout: '',
      stderr:
        'attempt 1 answered 429; retrying in 11.0 s with the same key\nwaiting: 10 s left\ninterrupted: after 1 attempt\nNothing was stored: send again with --key k-4.\n',
    });
  }, 30_000);
});

describe('serve, when it stops', () => {
  it('sums up the run in one line: received, stored, duplicates, refused by code', async () => {
    const { url, child, done } = await serve([]);
    const post = (body: string, target = url, type = 'application/json') =>
      fetch(target, { method: 'POST', headers: { 'content-type': type }, body });
    expect((await post('{"text":"one","eventId":"e-1"}')).status).toBe(201);
    expect((await post('{"text":"one again","eventId":"e-1"}')).status).toBe(200);
    expect((await post('{"text":"x","colour":"red"}')).status).toBe(400);
    expect((await post('{"text":"x"}', url, 'text/plain')).status).toBe(415);
    expect((await post('{"text":"x"}', url.replace(/[^/]+$/, 'A'.repeat(43)))).status).toBe(404);
    child.kill('SIGINT');
    const served = await done;
    expect(served.code).toBe(130);
    expect(served.stderr.split('\n').at(-2)).toBe(
      'stopped: 5 posts received, 1 stored, 1 duplicate, 3 refused (invalid_payload 1, unsupported_media_type 1, not_found 1)',
    );
  }, 30_000);

  it('after --count, too', async () => {
    const { url, done } = await serve(['--count', '1']);
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"only"}' });
    const served = await done;
    expect(served.code).toBe(0);
    expect(served.stderr.split('\n').at(-2)).toBe('stopped: 1 post received, 1 stored, 0 duplicates, 0 refused');
  }, 30_000);
});
