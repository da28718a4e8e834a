import { suggestOptions } from '../../src/arguments/suggest-option.js';
import { type FieldError, redactWebhookUrl } from '../../src/index.js';

/** Exit codes a CI can branch on. */
export const EXIT = {
  /** Everything passed or was stored. */
  ok: 0,
  /** Refused: fix the payload (or the URL, or the channel); resending it as it is fails again. */
  refused: 1,
  /** The command line is wrong, or an input could not be read. */
  usage: 2,
  /** Gave up after retries or at the deadline: the endpoint may recover; resend with the same key. */
  gaveUp: 3,
  /** Stopped by Ctrl-C. */
  interrupted: 130,
} as const;

/** Where a command reads and writes: the process's own streams, or a test's. */
export interface Io {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export type Paint = (style: 'red' | 'green' | 'yellow' | 'dim' | 'bold', text: string) => string;

const CODES = { red: [31, 39], green: [32, 39], yellow: [33, 39], dim: [2, 22], bold: [1, 22] } as const;

/** A line writer for one stream: colours only on a terminal and never with NO_COLOR; every line redacted. */
export interface Out {
  line(text?: string): void;
  paint: Paint;
}

export function writer(stream: Io['stdout'], env: NodeJS.ProcessEnv): Out {
  // NO_COLOR: "when present and not an empty string" (no-color.org).
  const colour = stream.isTTY === true && (env.NO_COLOR ?? '') === '';
  return {
    line: (text = '') => {
      stream.write(`${redactWebhookUrl(text)}\n`);
    },
    paint: (style, text) => (colour ? `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m` : text),
  };
}

// Text from outside (a sender's payload, an endpoint's answer, a file, an error quoting either)
// must not drive the terminal or change how a line reads: C0 and C1 controls (ESC starts colour,
// title, clipboard (OSC 52) and screen sequences; CSI is also U+009B), DEL, line and paragraph
// separators, and the bidirectional marks, embeddings, overrides and isolates, which reorder what
// is shown. Newline and tab are kept only in text printed as lines of its own.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_BUT_LINES =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text`, which came from outside, made safe to print: every control, separator and bidirectional
 * formatting character written as `\uXXXX`. The one function for any such text; by default the
 * result is one line (newline and tab escaped too: a pointer, a code, an id); with `lines`, newline
 * and tab stay (a message's text).
 */
export function printable(text: string, { lines = false }: { lines?: boolean } = {}): string {
  return text.replace(
    lines ? CONTROL_BUT_LINES : CONTROL,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The command a help text is for, as its first line names it: `channel-webhooks send`. */
const commandOf = (help: string): string =>
  /^Usage: (channel-webhooks(?: [a-z][a-z-]*)?)/.exec(help)?.[1] ?? 'channel-webhooks';

/**
 * A usage error: the one line that says what is wrong (escaped: it may quote an argument or a
 * file's error), and where the help is, on standard error.
 */
export function usageError(io: Io, message: string, help: string): number {
  const err = writer(io.stderr, io.env);
  err.line(`${err.paint('red', 'error:')} ${printable(message)}`);
  err.line(`Run '${commandOf(help)} --help' for usage.`);
  return EXIT.usage;
}

/**
 * Parses a command's arguments with `parse` (a `util.parseArgs` call): the parsed arguments, or the
 * exit code once a usage error or the `--help` text has been printed. An unknown option is named
 * with the option of `help`'s list it is closest to, by the rule the library's own option checks use.
 */
export function parseCommand<T extends { values: { help?: boolean } }>(
  io: Io,
  help: string,
  parse: () => T,
): T | number {
  let parsed: T;
  try {
    parsed = parse();
  } catch (error) {
    return usageError(io, argumentsError(error as Error & { code?: string }, help), help);
  }
  if (parsed.values.help) {
    writer(io.stdout, io.env).line(help);
    return EXIT.ok;
  }
  return parsed;
}

// What parseArgs's errors say, said for this command; the option is the one quoted in its message.
function argumentsError(error: Error & { code?: string }, help: string): string {
  const option = /'([^']+)'/
    .exec(error.message)?.[1]
    ?.match(/--?[A-Za-z][\w-]*/g)
    ?.at(-1);
  if (option === undefined) return error.message;
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const options = [...help.matchAll(/^ {2}(?:-\w, )?--([a-z][a-z-]*)/gm)].map((match) => match[1]!);
    const meant = suggestOptions(option.replace(/^--?/, ''), options);
    const suggestion =
      meant.length > 0
        ? `did you mean ${meant.map((name) => `'--${name}'`).join(' or ')}?`
        : `the options are ${options.map((name) => `--${name}`).join(', ')}`;
    return `unknown option '${option}'; ${suggestion}`;
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return /argument missing/.test(error.message)
      ? `option '${option}' needs a value`
      : `option '${option}' takes no value`;
  }
  return error.message;
}

/** `n` with thousands separators, as the endpoint's messages write numbers. */
export const count = (n: number): string => n.toLocaleString('en-US');

/**
 * Prints the error entries of a 400, one line each (pointer and message), and the hint under any
 * entry that has one. A pointer names the sender's own property names and a message may quote
 * their text, and an answer from a remote endpoint is anyone's text: all of it is escaped.
 */
export function printFieldErrors(out: Out, errors: readonly FieldError[]): void {
  for (const error of errors) {
    const where = error.pointer ?? `header ${error.header}`;
    out.line(`  ${out.paint('bold', printable(where))}${where === '' ? '(the body)' : ''} ${printable(error.message)}`);
    if (error.hint !== undefined) out.line(`    ${out.paint('dim', 'hint:')} ${printable(error.hint)}`);
  }
}
