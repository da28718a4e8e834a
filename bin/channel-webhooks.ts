#!/usr/bin/env node
import { EXIT, type Io, usageError, writer } from './cli/io.js';
import { sendCommand } from './cli/send-command.js';
import { serveCommand } from './cli/serve-command.js';
import { validateCommand } from './cli/validate-command.js';

const HELP = `Usage: channel-webhooks <command> [options]

The sender's side of channel webhooks.

Commands:
  validate <file|->   Check payloads offline, with the endpoint's own rules.
  send [<url>]        Post a payload with safe retries (URL from CHANNEL_WEBHOOK_URL).
  serve               Run a local receiver and print what arrives.

Run channel-webhooks <command> --help for a command's options.

Exit codes: 0 success; 1 refused (fix the payload); 2 usage error; 3 gave up after retries.`;

const commands: Record<string, (args: string[], io: Io) => Promise<number>> = {
  validate: validateCommand,
  send: sendCommand,
  serve: serveCommand,
};

async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) return usageError(io, 'give a command', HELP);
  if (name === '--help' || name === '-h' || name === 'help') {
    writer(io.stdout, io.env).line(HELP);
    return EXIT.ok;
  }
  const command = commands[name];
  if (command === undefined) return usageError(io, `unknown command ${JSON.stringify(name)}`, HELP);
  return command(args, io);
}

main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    writer(process.stderr, process.env).line(`channel-webhooks: ${(error as Error)?.stack ?? String(error)}`);
    process.exitCode = 70;
  },
);
