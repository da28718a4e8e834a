import { parseArgs } from 'node:util';
import { MAX_BODY_BYTES, validatePayload } from '../../src/index.js';
import { fromSlackPayload, type SlackChange } from '../../src/send/index.js';
import { count, EXIT, type Io, type Out, parseCommand, printable, usageError, writer } from './io.js';
import { readJson, sourceName } from './read-input.js';

export const CONVERT_HELP = `Usage: channel-webhooks convert <file|->

Converts a payload written for Slack's incoming webhooks into one this endpoint takes: section
fields become lines of mrkdwn text, image blocks and image accessories context images (or links),
buttons links, legacy attachments sections; Slack-only fields (username, icon_emoji, channel, …)
are dropped. Prints the converted payload (JSON) on standard output, and every part it dropped or
changed, with its JSON pointer, on standard error. - reads standard input.

Options:
  -h, --help   Show this help.

Exit codes: 0 the converted payload is valid (what could not be carried is listed);
1 nothing usable is left, or the converted payload is still refused (over ${count(MAX_BODY_BYTES)} bytes);
2 usage error, or the input cannot be read as JSON.

Example:
  channel-webhooks convert slack-payload.json > payload.json
  channel-webhooks convert slack-payload.json | channel-webhooks send -`;

export async function convertCommand(args: string[], io: Io): Promise<number> {
  const parsed = parseCommand(io, CONVERT_HELP, () => parse(args));
  if (typeof parsed === 'number') return parsed;
  const [source, ...extra] = parsed.positionals;
  if (source === undefined) return usageError(io, 'give a file to convert, or - for standard input', CONVERT_HELP);
  if (extra.length > 0) return usageError(io, 'give one file: convert takes one payload', CONVERT_HELP);
  const json = await readJson(source, io);
  if (json.kind === 'unreadable') return usageError(io, json.message, CONVERT_HELP);
  if (json.kind === 'not_json')
    return usageError(io, `${sourceName(source)} is not valid JSON (${json.message})`, CONVERT_HELP);

  const err = writer(io.stderr, io.env);
  const { payload, changes } = fromSlackPayload(json.value);
  for (const change of changes) err.line(describe(err, change));
  if (payload === null) {
    err.line(
      `${err.paint('red', 'nothing usable is left')}: ${sourceName(source)} has no text, and no block that shows any, that this endpoint can take`,
    );
    return EXIT.refused;
  }
  // The payload is data for a pipe, written as it is (never redacted), as JSON that cannot drive a
  // terminal: the characters that could are written as the \u escapes JSON has for them.
  io.stdout.write(`${JSON.stringify(payload, null, 2).replace(TERMINAL_CONTROLS, jsonEscape)}\n`);

  const bytes = new TextEncoder().encode(JSON.stringify(payload)).byteLength;
  const check = validatePayload(payload);
  const verdict =
    changes.length === 0 ? 'no change needed' : `${changes.length} change${changes.length === 1 ? '' : 's'}`;
  if (check.ok && bytes <= MAX_BODY_BYTES) {
    err.line(
      `${err.paint('green', verdict)}: the payload is valid (${count(bytes)} of ${count(MAX_BODY_BYTES)} bytes)`,
    );
    return EXIT.ok;
  }
  err.line(
    `${err.paint('red', `${verdict}, still refused`)}: ${
      check.ok
        ? `the payload is ${count(bytes)} bytes; at most ${count(MAX_BODY_BYTES)} are accepted`
        : `${check.code}: ${check.detail}`
    }`,
  );
  if (!check.ok)
    for (const error of check.errors)
      err.line(`  ${err.paint('bold', printable(error.pointer ?? ''))} ${printable(error.message)}`);
  return EXIT.refused;
}

const parse = (args: string[]) =>
  parseArgs({ args, allowPositionals: true, strict: true, options: { help: { type: 'boolean', short: 'h' } } });

// C0 controls are escaped by JSON.stringify itself; these are the others a terminal or a reader acts
// on: DEL and C1, the bidirectional controls, and the line and paragraph separators.
const TERMINAL_CONTROLS = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const jsonEscape = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

const ACTION_WIDTH = 'changed'.length;

/** One change as a line: what happened, the pointer in the Slack payload, where it went, why. */
function describe(err: Out, change: SlackChange): string {
  const action = err.paint(change.action === 'dropped' ? 'yellow' : 'dim', change.action.padEnd(ACTION_WIDTH));
  const pointer = err.paint('bold', change.pointer === '' ? '(the payload)' : printable(change.pointer));
  const message = printable(change.message);
  if (change.to === undefined) return `${action}  ${pointer} ${message}`;
  if (change.action === 'added') return `${action}  ${printable(change.to)} from ${pointer}: ${message}`;
  return `${action}  ${pointer}${change.to === change.pointer ? '' : ` → ${printable(change.to)}`}: ${message}`;
}
