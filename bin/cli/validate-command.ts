import { parseArgs } from 'node:util';
import { MAX_BODY_BYTES, validatePayload, type FieldError } from '../../src/index.js';
import { MAX_MARKDOWN_TOTAL } from '../../src/validation/block-schemas.js';
import { codePointLength } from '../../src/validation/text.js';
import { count, EXIT, type Io, type Out, parseCommand, printable, printFieldErrors, usageError, writer } from './io.js';
import { readJson, sourceName } from './read-input.js';

export const VALIDATE_HELP = `Usage: channel-webhooks validate <file|->...

Checks payloads offline with the endpoint's own rules, and prints every problem with its JSON
pointer, as the endpoint's 400 answer would list it. A file holds one payload (a JSON object) or
a JSON array of payloads; - reads standard input. Also checks each request's size (at most
${count(MAX_BODY_BYTES)} bytes, as sent by \`channel-webhooks send\`) and the markdown blocks' total
(at most ${count(MAX_MARKDOWN_TOTAL)} characters).

Options:
  -h, --help   Show this help.

Exit codes: 0 every payload passes; 1 some payload would be refused; 2 usage error or unreadable file.

Example:
  channel-webhooks validate payload.json
  echo '{"text":"Deploy finished"}' | channel-webhooks validate -`;

export async function validateCommand(args: string[], io: Io): Promise<number> {
  const parsed = parseCommand(io, VALIDATE_HELP, () => parse(args));
  if (typeof parsed === 'number') return parsed;
  const out = writer(io.stdout, io.env);
  if (parsed.positionals.length === 0)
    return usageError(io, 'give a file to validate, or - for standard input', VALIDATE_HELP);

  let total = 0;
  let refused = 0;
  let slack = 0;
  for (const source of parsed.positionals) {
    const json = await readJson(source, io);
    if (json.kind === 'unreadable') return usageError(io, json.message, VALIDATE_HELP);
    if (json.kind === 'not_json') {
      total++;
      refused++;
      report(
        out,
        printable(sourceName(source)),
        [{ pointer: '', message: `must be valid JSON (${json.message})` }],
        'invalid_json',
      );
      continue;
    }
    const payloads = Array.isArray(json.value) ? json.value : [json.value];
    payloads.forEach((payload, index) => {
      total++;
      const name = printable(Array.isArray(json.value) ? `${sourceName(source)}[${index}]` : sourceName(source));
      const verdict = check(out, name, payload);
      if (verdict !== 'valid') refused++;
      if (verdict === 'slack') slack++;
    });
  }
  const summary = `${total} payload${total === 1 ? '' : 's'}: ${total - refused} valid, ${refused} refused`;
  out.line(refused === 0 ? out.paint('green', summary) : out.paint('red', summary));
  if (slack > 0)
    out.line(
      `${slack === 1 ? '1 refused payload uses' : `${slack} refused payloads use`} Slack constructs (see the hints): channel-webhooks convert <file> rewrites a Slack payload for this endpoint.`,
    );
  return refused === 0 ? EXIT.ok : EXIT.refused;
}

const parse = (args: string[]) =>
  parseArgs({ args, allowPositionals: true, strict: true, options: { help: { type: 'boolean', short: 'h' } } });

/** Prints the verdict on one payload: valid, refused, or refused with hints about Slack constructs. */
function check(out: Out, name: string, payload: unknown): 'valid' | 'refused' | 'slack' {
  const bytes = new TextEncoder().encode(JSON.stringify(payload) ?? '').byteLength;
  const markdown = markdownTotal(payload);
  const facts = `${count(bytes)} of ${count(MAX_BODY_BYTES)} bytes, markdown ${count(markdown)} of ${count(MAX_MARKDOWN_TOTAL)} characters`;
  if (bytes > MAX_BODY_BYTES) {
    // The endpoint answers 413 before it reads a field: the size is the one problem it reports.
    report(
      out,
      name,
      [{ pointer: '', message: `is ${count(bytes)} bytes; at most ${count(MAX_BODY_BYTES)} are accepted` }],
      'payload_too_large',
    );
    return 'refused';
  }
  const result = validatePayload(payload);
  if (!result.ok) {
    report(out, name, result.errors, `${result.code}: ${result.detail}`, facts);
    return result.errors.some((error) => error.hint !== undefined) ? 'slack' : 'refused';
  }
  out.line(`${out.paint('green', 'valid')}    ${name} ${out.paint('dim', `(${facts})`)}`);
  return 'valid';
}

function report(out: Out, name: string, errors: FieldError[], why: string, facts?: string): void {
  out.line(
    `${out.paint('red', 'refused')}  ${name}: ${printable(why)}${facts === undefined ? '' : ` ${out.paint('dim', `(${facts})`)}`}`,
  );
  printFieldErrors(out, errors);
}

function markdownTotal(payload: unknown): number {
  const blocks = (payload as { blocks?: unknown } | null)?.blocks;
  if (!Array.isArray(blocks)) return 0;
  let total = 0;
  for (const block of blocks) {
    const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
    if (type === 'markdown' && typeof text === 'string') total += codePointLength(text);
  }
  return total;
}
