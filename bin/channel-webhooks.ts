#!/usr/bin/env node
import { version } from '../package.json';
import { suggestOptions } from '../src/arguments/suggest-option.js';
import { convertCommand } from './cli/convert-command.js';
import { EXIT, type Io, printable, usageError, writer } from './cli/io.js';
import { sendCommand } from './cli/send-command.js';
import { serveCommand } from './cli/serve-command.js';
import { validateCommand } from './cli/validate-command.js';

const HELP = `Usage: channel-webhooks <command> [options]

The sender's side of channel webhooks.

Commands:
  validate <file|->   Check payloads offline, with the endpoint's own rules.
  send [<url>]        Post a payload with safe retries (URL from CHANNEL_WEBHOOK_URL).
  serve               Run a local receiver and print what arrives.
  convert <file|->    Turn a Slack payload into one this endpoint takes, listing what changed.

Options:
  -v, --version       Print the version.
  -h, --help          Show this help.

Run channel-webhooks <command> --help for a command's options.

Exit codes: 0 success; 1 refused (fix the payload); 2 usage error; 3 gave up after retries.`;

const commands: Record<string, (args: string[], io: Io) => Promise<number>> = {
  validate: validateCommand,
  send: sendCommand,
  serve: serveCommand,
  convert: convertCommand,
};

async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  const names = Object.keys(commands);
  if (name === undefined) return usageError(io, `give a command: ${names.join(', ')}`, HELP);
  if (name === '--help' || name === '-h' || name === 'help') {
    writer(io.stdout, io.env).line(HELP);
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    writer(io.stdout, io.env).line(version);
    return EXIT.ok;
  }
  const command = commands[name];
  if (command === undefined) {
    const meant = suggestOptions(name, names);
    const hint = meant.length > 0 ? `did you mean '${meant.join("' or '")}'?` : `the commands are ${names.join(', ')}`;
    return usageError(io, `unknown ${name.startsWith('-') ? 'option' : 'command'} '${name}'; ${hint}`, HELP);
  }
  return command(args, io);
}

main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    writer(process.stderr, process.env).line(
      `channel-webhooks: ${printable((error as Error)?.stack ?? String(error), { lines: true })}`,
    );
    process.exitCode = 70;
  },
);
