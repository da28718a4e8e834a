import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createNodeListener } from '../../adapters/frameworks/node/index.js';
import {
  createMemoryStore,
  createWebhookHandler,
  createWebhookManager,
  type Message,
  type ProblemBody,
  type WebhookHandler,
} from '../../src/index.js';
import { toPlainText } from '../../src/render/index.js';
import { EXIT, type Io, parseCommand, printable, printFieldErrors, usageError, writer } from './io.js';

export const SERVE_HELP = `Usage: channel-webhooks serve [options]

A local receiver for a sender's development and CI: creates a webhook on an in-memory store,
prints its URL (the first line of standard output), and prints every message that arrives as
plain text. Answers exactly as a real endpoint does (validation, idempotency, 60 requests a
minute). Listens on 127.0.0.1 only. Refusals are reported on standard error, and when it stops,
one line sums up the run: posts received, stored, duplicates, and refused by code.

Options:
  --port <n>           Port to listen on (default 0: any free port).
  --count <n>          Stop after n stored messages (duplicates do not count), exit 0.
  --fail-on-refusal    Stop at the first refused post (4xx but 429), exit 1.
  --name <name>        The webhook's name, the author of its messages (default "local").
  -h, --help           Show this help.

Exit codes: 0 stopped after --count messages; 1 a post was refused (with --fail-on-refusal);
2 usage error or the port is taken; 130 interrupted.

Example:
  channel-webhooks serve --count 1 --fail-on-refusal`;

export async function serveCommand(args: string[], io: Io): Promise<number> {
  const parsed = parseCommand(io, SERVE_HELP, () => parse(args));
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const out = writer(io.stdout, io.env);
  const err = writer(io.stderr, io.env);
  if (parsed.positionals.length > 0)
    return usageError(io, `unexpected argument '${parsed.positionals[0]}'`, SERVE_HELP);
  const port = Number(values.port ?? '0');
  const wanted = values.count === undefined ? Number.POSITIVE_INFINITY : Number(values.count);
  if (!(Number.isInteger(port) && port >= 0 && port <= 65_535))
    return usageError(io, '--port must be a whole number from 0 to 65535', SERVE_HELP);
  if (!(wanted === Number.POSITIVE_INFINITY || (Number.isInteger(wanted) && wanted >= 1)))
    return usageError(io, '--count must be a whole number ≥ 1', SERVE_HELP);
  const name = values.name ?? 'local';

  const store = createMemoryStore();
  store.putChannel({ id: 'local', ownerId: 'serve', archived: false });
  const handle = createWebhookHandler({ store });
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => {
    finish = resolve;
  });
  const tally = { received: 0, stored: 0, duplicates: 0, refused: new Map<string, number>() };
  const observed: WebhookHandler = async (request) => {
    const response = await handle(request);
    tally.received++;
    if (response.status === 201) {
      showMessage((response.body as { message: Message }).message);
      if (++tally.stored >= wanted) finish(EXIT.ok);
    } else if (response.status === 200) {
      tally.duplicates++;
      const { message } = response.body as { message: Message };
      err.line(
        err.paint(
          'yellow',
          `duplicate: answered with ${printable(message.id)}, stored earlier under the same key (200)`,
        ),
      );
    } else {
      const problem = response.body as ProblemBody;
      const refused = response.status >= 400 && response.status < 500 && response.status !== 429;
      tally.refused.set(problem.code, (tally.refused.get(problem.code) ?? 0) + 1);
      err.line(
        `${err.paint(refused ? 'red' : 'yellow', refused ? 'refused' : 'answered')} ${response.status} ${printable(problem.code)}: ${printable(problem.detail)}`,
      );
      printFieldErrors(err, problem.errors ?? []);
      if (refused && values['fail-on-refusal']) finish(EXIT.refused);
    }
    return response;
  };

  const showMessage = (message: Message) => {
    out.line(
      out.paint(
        'bold',
        `── ${printable(message.author.name)} · ${printable(message.id)} · ${printable(message.createdAt)}`,
      ),
    );
    out.line(printable(toPlainText(message), { lines: true }));
    out.line();
  };

  const server = createServer(createNodeListener(observed));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
  } catch (error) {
    return usageError(io, `cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`, SERVE_HELP);
  }
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const manager = createWebhookManager({ store, baseUrl: origin });
  const { url } = await manager.create({ userId: 'serve', role: 'owner' }, { channelId: 'local', name });
  // The one place the secret is shown: this receiver exists to be posted to. Written raw, not redacted.
  io.stdout.write(`${url}\n`);
  err.line(
    err.paint(
      'dim',
      `listening on ${origin}; post to the URL above${wanted === Number.POSITIVE_INFINITY ? '' : `; stopping after ${wanted} message${wanted === 1 ? '' : 's'}`}`,
    ),
  );

  const interrupt = () => finish(EXIT.interrupted);
  process.once('SIGINT', interrupt);
  const code = await finished;
  process.off('SIGINT', interrupt);
  err.line(summary(tally));
  // Let the answer that ended the run reach its sender before the connections close.
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 1_000).unref();
  });
  return code;
}

/** The run in one line: `stopped: 5 posts received, 2 stored, 1 duplicate, 2 refused (invalid_payload 1, not_found 1)`. */
function summary({
  received,
  stored,
  duplicates,
  refused,
}: {
  received: number;
  stored: number;
  duplicates: number;
  refused: Map<string, number>;
}): string {
  const refusals = [...refused.values()].reduce((sum, n) => sum + n, 0);
  const byCode = [...refused].map(([code, n]) => `${printable(code)} ${n}`).join(', ');
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `stopped: ${plural(received, 'post')} received, ${stored} stored, ${plural(duplicates, 'duplicate')}, ${refusals} refused${refusals === 0 ? '' : ` (${byCode})`}`;
}

const parse = (args: string[]) =>
  parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      port: { type: 'string' },
      count: { type: 'string' },
      'fail-on-refusal': { type: 'boolean' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
