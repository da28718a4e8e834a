import { parseArgs } from 'node:util';
import { createWebhookSender, type SendAttempt, type WebhookPayload } from '../../src/send/index.js';
import { EXIT, type Io, parseCommand, usageError, writer } from './io.js';
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

Exit codes: 0 stored (or already stored under the key); 1 refused: fix the payload, the URL or the
channel; 2 usage error or unreadable input; 3 gave up after retries: resend later with the same --key;
130 interrupted.

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
  if (url === undefined || url === '') return usageError(io, 'give the webhook URL, or set CHANNEL_WEBHOOK_URL', SEND_HELP);
  const sources = [values.text !== undefined, values.file !== undefined, stdin].filter(Boolean).length;
  if (sources !== 1) return usageError(io, 'give exactly one of --text, --file or -', SEND_HELP);
  const attempts = values.attempts === undefined ? undefined : Number(values.attempts);
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
  if (attempts !== undefined && !(Number.isInteger(attempts) && attempts >= 1)) return usageError(io, '--attempts must be a whole number ≥ 1', SEND_HELP);
  if (timeout !== undefined && !(timeout > 0 && Number.isFinite(timeout))) return usageError(io, '--timeout must be a positive number of seconds', SEND_HELP);

  let payload: unknown = { text: values.text };
  if (values.text === undefined) {
    const source = values.file ?? '-';
    const json = await readJson(source, io);
    if (json.kind === 'unreadable') return usageError(io, json.message, SEND_HELP);
    if (json.kind === 'not_json') {
      err.line(`${err.paint('red', 'refused')}: ${sourceName(source)} is not valid JSON (${json.message})`);
      return EXIT.refused;
    }
    payload = json.value;
  }

  let sender: ReturnType<typeof createWebhookSender>;
  try {
    sender = createWebhookSender({ url, maxAttempts: attempts, timeoutMs: timeout === undefined ? undefined : timeout * 1000 });
  } catch (error) {
    return usageError(io, (error as Error).message, SEND_HELP);
  }
  const interrupt = new AbortController();
  const stop = () => interrupt.abort();
  process.once('SIGINT', stop);
  const result = await sender
    .send(payload as WebhookPayload, { idempotencyKey: values.key, signal: interrupt.signal, onAttempt: (attempt) => logAttempt(err, attempt) })
    .finally(() => process.off('SIGINT', stop));

  if (result.ok) {
    out.line(result.message.id);
    err.line(
      result.duplicate
        ? `${err.paint('yellow', 'already stored')} under key ${result.idempotencyKey} (200 duplicate): the earlier message stands`
        : `${err.paint('green', 'stored')} (201) under key ${result.idempotencyKey}`,
    );
    return EXIT.ok;
  }
  const label = result.code === 'refused' || result.code === 'not_sent' ? 'refused' : result.code === 'aborted' ? 'interrupted' : 'gave up';
  err.line(`${err.paint('red', label)}: ${result.message}`);
  for (const error of result.problem?.errors ?? []) err.line(`  ${err.paint('bold', error.pointer ?? `header ${error.header}`)} ${error.message}`);
  switch (result.code) {
    case 'refused':
    case 'not_sent':
      return EXIT.refused;
    case 'aborted':
      err.line(`The message may have been stored: send again with --key ${result.idempotencyKey} to store it at most once.`);
      return EXIT.interrupted;
    default:
      err.line(`The message may have been stored: send again later with --key ${result.idempotencyKey} to store it at most once.`);
      return EXIT.gaveUp;
  }
}

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

function logAttempt(err: ReturnType<typeof writer>, attempt: SendAttempt): void {
  if (attempt.outcome !== 'retry') return;
  const what = attempt.status !== null ? `answered ${attempt.status}` : attempt.error === 'timeout' ? 'timed out' : 'could not connect';
  err.line(err.paint('dim', `attempt ${attempt.attempt} ${what}; retrying in ${(attempt.retryInMs! / 1000).toFixed(1)} s with the same key`));
}
