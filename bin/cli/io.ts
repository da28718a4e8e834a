import { redactWebhookUrl } from '../../src/index.js';

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

// Text from a sender must not drive the terminal: every control character but newline and tab is shown as a placeholder.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with control characters (terminal escapes) made visible and harmless. */
export function printable(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A usage error: the message and the command's help, on standard error. */
export function usageError(io: Io, message: string, help: string): number {
  const err = writer(io.stderr, io.env);
  err.line(`${err.paint('red', 'error:')} ${message}`);
  err.line();
  err.line(help);
  return EXIT.usage;
}

/**
 * Parses a command's arguments with `parse` (a `util.parseArgs` call): the parsed arguments, or the
 * exit code once a usage error or the `--help` text has been printed.
 */
export function parseCommand<T extends { values: { help?: boolean } }>(io: Io, help: string, parse: () => T): T | number {
  let parsed: T;
  try {
    parsed = parse();
  } catch (error) {
    return usageError(io, (error as Error).message, help);
  }
  if (parsed.values.help) {
    writer(io.stdout, io.env).line(help);
    return EXIT.ok;
  }
  return parsed;
}

/** `n` with thousands separators, as the endpoint's messages write numbers. */
export const count = (n: number): string => n.toLocaleString('en-US');
