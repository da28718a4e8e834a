import { readFile } from 'node:fs/promises';
import type { Io } from './io.js';

/** The text of `source`: a file path, or `-` for standard input. */
export async function readSource(source: string, io: Io): Promise<string> {
  if (source !== '-') return readFile(source, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** How a source is named in output. */
export const sourceName = (source: string): string => (source === '-' ? 'stdin' : source);

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** JSON.parse, as a result; a leading byte-order mark is allowed, as the endpoint allows it. */
export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}
