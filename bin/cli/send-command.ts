import { parseArgs } from 'node:util';
import { MAX_TIMEOUT_MS } from '../../src/waiting/deadline.js';
import {
  createWebhookSender,
  type SendAttempt,
  type SendFailureCode,
  type WebhookPayload,
} from '../../src/send/index.js';
import { WEBHOOK_URL } from '../../src/send/webhook-url.js';
import { countdownSleep } from './countdown.js';
import { EXIT, type Io, parseCommand, printable, printFieldErrors, usageError, writer } from './io.js';
import { readJson, sourceName } from './read-input.js';

export const SEND_HELP = `Usage: channel-webhooks send [<url>] (--text <text> | --file <path> | -) [options]

Posts one payload to a webhook with safe retries: one idempotency key for every attempt (--key,
else the payload's eventId, else a new one), retries of 5xx, 429 (as Retry-After asks), network
errors and time-outs with backoff; never a retry of a refusal. Prints the stored message's id on
standard output, and what happened on standard error. The URL's secret is never printed.

The URL comes from the argument or from CHANNEL_WEBHOOK_URL (preferred: it stays out of the
shell's history and the process list).

Options:
  --text <text>        Send {"text": <text>}.
  --file <path>        Send the JSON payload in this file.
  -                    Send the JSON payload read from standard input.
  --key <key>          The idempotency key. Reuse it to resend the same event: it is stored once.
  --attempts <n>       Most attempts (default 5).
  --timeout <seconds>  Give up after this long, retries and waits included (default 90).
  -h, --help           Show this help.

A redirect is a refusal: the post is never sent on to another location. A wait of 5 s or more
(a 429's Retry-After) is shown while it runs; Ctrl-C stops it at once.

Exit codes: 0 stored (or already stored under the key); 1 refused, not sent, or an answer over
1 MiB: fix the payload, the URL or the channel; 2 usage error or unreadable input; 3 gave up after
retries: resend later with the same --key; 130 interrupted.

Example:
  export CHANNEL_WEBHOOK_URL='https://chat.example.com/hooks/channels/…'
  channel-webhooks send --text 'Deploy 42 finished' --key deploy-42`;

export async function sendCommand(args: string[], io: Io): Promise<number> {
  const parsed = parseCommand(io, SEND_HELP, () => parse(args));
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const out = writer(io.stdout, io.env);
  const err = writer(io.stderr, io.env);
  const stdin = positionals.includes('-');
  const urls = positionals.filter((positional) => positional !== '-');
  if (urls.length > 1) return usageError(io, 'give at most one URL', SEND_HELP);
  const url = urls[0] ?? io.env.CHANNEL_WEBHOOK_URL;
  if (url === undefined || url === '')
    return usageError(io, 'give the webhook URL, or set CHANNEL_WEBHOOK_URL', SEND_HELP);
  const urlProblem = WEBHOOK_URL.problem(url);
  if (urlProblem !== undefined) {
    // Never the URL itself: it may be a secret one, mistyped.
    const named = urls[0] === undefined ? 'CHANNEL_WEBHOOK_URL' : 'the webhook URL';
    const file =
      urls[0] !== undefined && urlProblem === 'it is not a URL' ? ' (to send a file, give --file <path>)' : '';
    return usageError(io, `${named} is not an absolute http(s) URL: ${urlProblem}${file}`, SEND_HELP);
  }
  const sources = [values.text !== undefined, values.file !== undefined, stdin].filter(Boolean).length;
  if (sources !== 1) return usageError(io, 'give exactly one of --text, --file or -', SEND_HELP);
  const attempts = values.attempts === undefined ? undefined : Number(values.attempts);
  const timeoutMs = values.timeout === undefined ? undefined : Math.round(Number(values.timeout) * 1000);
  if (attempts !== undefined && !(Number.isSafeInteger(attempts) && attempts >= 1))
    return usageError(io, '--attempts must be a whole number ≥ 1', SEND_HELP);
  if (timeoutMs !== undefined && !(timeoutMs >= 1 && timeoutMs <= MAX_TIMEOUT_MS))
    return usageError(
      io,
      `--timeout must be a number of seconds from 0.001 to ${Math.floor(MAX_TIMEOUT_MS / 1000)}`,
      SEND_HELP,
    );

  let payload: unknown = { text: values.text };
  if (values.text === undefined) {
    const source = values.file ?? '-';
    const json = await readJson(source, io);
    if (json.kind === 'unreadable') return usageError(io, json.message, SEND_HELP);
    if (json.kind === 'not_json') {
      err.line(
        `${err.paint('red', 'not sent')}: ${printable(sourceName(source))} is not valid JSON (${printable(json.message)})`,
      );
      return EXIT.refused;
    }
    payload = json.value;
  }

  const sender = createWebhookSender({
    url,
    maxAttempts: attempts,
    timeoutMs,
    sleep: countdownSleep(io.stderr, err),
  });
  const interrupt = new AbortController();
  const stop = () => interrupt.abort();
  process.once('SIGINT', stop);
  const result = await sender
    .send(payload as WebhookPayload, {
      idempotencyKey: values.key,
      signal: interrupt.signal,
      onAttempt: (attempt) => logAttempt(err, attempt),
    })
    .finally(() => process.off('SIGINT', stop));

  const key = shellWord(result.idempotencyKey);
  if (result.ok) {
    out.line(printable(result.message.id));
    err.line(
      result.duplicate
        ? `${err.paint('yellow', 'already stored')} under key ${key} (200 duplicate): the earlier message stands`
        : `${err.paint('green', 'stored')} (201) under key ${key}`,
    );
    return EXIT.ok;
  }
  err.line(
    `${err.paint('red', LABELS[result.code])}: ${printable(result.code === 'aborted' ? interrupted(result.attempts) : result.message)}`,
  );
  printFieldErrors(err, result.problem?.errors ?? []);
  if (result.code === 'refused' || result.code === 'not_sent') return EXIT.refused;
  err.line(
    result.possiblyStored
      ? `The message may have been stored: send again${result.code === 'aborted' ? '' : ' later'} with --key ${key} to store it at most once.`
      : `Nothing was stored: send again${result.code === 'aborted' ? '' : ' later'} with --key ${key}.`,
  );
  return result.code === 'aborted' ? EXIT.interrupted : result.code === 'answer_too_large' ? EXIT.refused : EXIT.gaveUp;
}

const LABELS: Record<SendFailureCode, string> = {
  refused: 'refused',
  not_sent: 'not sent',
  answer_too_large: 'unusable answer',
  retries_exhausted: 'gave up',
  deadline_exceeded: 'gave up',
  aborted: 'interrupted',
};

const interrupted = (attempts: number): string =>
  attempts === 0 ? 'before the first attempt' : `after ${attempts} attempt${attempts === 1 ? '' : 's'}`;

/** `key` as it can be pasted after `--key` in a shell: quoted when it holds anything but plain characters. */
const shellWord = (key: string): string =>
  printable(/^[\w.:@%+=,/-]+$/.test(key) ? key : `'${key.replaceAll("'", "'\\''")}'`);

const parse = (args: string[]) =>
  parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      text: { type: 'string' },
      file: { type: 'string' },
      key: { type: 'string' },
      attempts: { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });

const FAILED: Record<NonNullable<SendAttempt['error']>, string> = {
  no_connection: 'could not connect',
  network: 'met a network error',
  timeout: 'timed out',
  bad_response: 'answered without a stored message',
};

function logAttempt(err: ReturnType<typeof writer>, attempt: SendAttempt): void {
  if (attempt.outcome !== 'retry') return;
  const what = attempt.status !== null ? `answered ${attempt.status}` : FAILED[attempt.error ?? 'network'];
  err.line(
    err.paint(
      'dim',
      `attempt ${attempt.attempt} ${what}; retrying in ${(attempt.retryInMs! / 1000).toFixed(1)} s with the same key`,
    ),
  );
}
