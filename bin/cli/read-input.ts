import { readFile } from 'node:fs/promises';
import type { Io } from './io.js';

/** The text of `source`: a file path, or `-` for standard input. */
async function readSource(source: string, io: Io): Promise<string> {
  if (source !== '-') return readFile(source, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** How a source is named in output. */
export const sourceName = (source: string): string => (source === '-' ? 'stdin' : source);

/** What reading a source as JSON came to: its value, text that is not JSON, or no text at all. */
export type Loaded =
  | { kind: 'json'; value: unknown }
  | { kind: 'not_json'; message: string }
  | { kind: 'unreadable'; message: string };

/** Reads `source` and parses it as JSON; a leading byte-order mark is allowed, as the endpoint allows it. */
export async function readJson(source: string, io: Io): Promise<Loaded> {
  let text: string;
  try {
    text = await readSource(source, io);
  } catch (error) {
    return { kind: 'unreadable', message: `cannot read ${sourceName(source)}: ${(error as Error).message}` };
  }
  try {
    return { kind: 'json', value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch (error) {
    return { kind: 'not_json', message: (error as Error).message };
  }
}
