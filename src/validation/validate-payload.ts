import type { HeaderValue } from '../http/http-types.js';
import type { FieldError } from '../http/problem.js';
import { boundPointer, codePointLength, hasTrimmedLength } from './text.js';
import { LINK_URL, MAX_BLOCK_ID, MAX_KEY, MAX_MARKDOWN_TOTAL, MAX_TEXT, UNSTORABLE, WEB_URL } from './field-rules.js';
import {
  contextBlock,
  dividerBlock,
  headerBlock,
  imageElement,
  inlineElements,
  markdownBlock,
  mrkdwnTextObject,
  payloadSchema,
  plainTextObject,
  richTextBlock,
  richTextList,
  richTextPreformatted,
  richTextQuote,
  richTextSection,
  sectionBlock,
} from './block-schemas.js';
import { compile, describeError, type Checker } from './compile.js';
import type { Block } from './payload-types.js';
import { blockTypeHint, explainBlock, inlineTypeHint, payloadPropertyHint, visibleTextHint } from './slack-hints.js';

/** A payload that passed every rule. */
export interface ValidPayload {
  text: string | undefined;
  blocks: Block[] | undefined;
  /** The idempotency key: `eventId`, the header, or both when equal; `null` when neither was sent. */
  key: string | null;
}

export type PayloadValidation =
  | { ok: true; payload: ValidPayload }
  | { ok: false; code: 'invalid_payload' | 'key_mismatch'; detail: string; errors: FieldError[] };

/** More errors than this are not listed: the sender has enough to fix. */
export const MAX_ERRORS = 20;

// Compiled once, at module load.
const payloadChecker = compile(payloadSchema);
const blockCheckers = checkers(
  {
    header: headerBlock,
    section: sectionBlock,
    markdown: markdownBlock,
    divider: dividerBlock,
    context: contextBlock,
    rich_text: richTextBlock,
  },
  blockTypeHint,
);
const contextCheckers = checkers({ plain_text: plainTextObject, mrkdwn: mrkdwnTextObject, image: imageElement });
const richTextCheckers = checkers({
  rich_text_section: richTextSection,
  rich_text_list: richTextList,
  rich_text_quote: richTextQuote,
  rich_text_preformatted: richTextPreformatted,
});
const listItemCheckers = checkers({ rich_text_section: richTextSection });
const inlineCheckers = checkers(inlineElements, inlineTypeHint);

interface Checkers {
  byType: Map<string, Checker>;
  label: string;
  /** The hint for a `type` outside the set, when Slack has that type. */
  typeHint?: (type: unknown) => string | undefined;
}

function checkers(schemas: Record<string, Parameters<typeof compile>[0]>, typeHint?: Checkers['typeHint']): Checkers {
  const byType = new Map(Object.entries(schemas).map(([type, schema]) => [type, compile(schema)] as const));
  return { byType, label: [...byType.keys()].map((type) => JSON.stringify(type)).join(', '), typeHint };
}

/** How schema errors are listed: the pointers already explained by another error, and a hint per pointer. */
interface SchemaErrorOptions {
  skip?: ReadonlySet<string>;
  hint?: (pointer: string) => string | undefined;
}

/**
 * Gathers at most {@link MAX_ERRORS} errors, one per pointer (the first found: "is required" rather
 * than the type error that follows it), each pointer bounded so a sender's key names are not echoed
 * at any length.
 */
class Collector {
  readonly errors: FieldError[] = [];
  // Made at the first error: most payloads are valid, and a set per post is garbage per post.
  #pointers: Set<string> | undefined;
  add(pointer: string, message: string, hint?: string): void {
    const bounded = boundPointer(pointer);
    if (this.errors.length >= MAX_ERRORS) return;
    this.#pointers ??= new Set<string>();
    if (this.#pointers.has(bounded)) return;
    this.#pointers.add(bounded);
    this.errors.push(hint === undefined ? { pointer: bounded, message } : { pointer: bounded, message, hint });
  }
  addHeader(header: string, message: string): void {
    if (this.errors.length < MAX_ERRORS) this.errors.push({ header, message });
  }
  addSchemaErrors(checker: Checker, value: unknown, pointer: string, options: SchemaErrorOptions = {}): void {
    for (const error of checker.errors(value)) {
      if (this.errors.length >= MAX_ERRORS) return;
      const at = pointer + error.path;
      if (options.skip?.has(at)) continue;
      this.add(at, describeError(error), options.hint?.(at));
    }
  }
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isBlank = (text: string): boolean => text.trim().length === 0;

/**
 * Checks `value` against `checkers` by its `type`; returns the type when the shape is right, adding
 * errors that point into the element otherwise.
 */
function dispatch(value: unknown, pointer: string, set: Checkers, out: Collector): string | null {
  if (!isObject(value)) {
    out.add(pointer, 'must be an object');
    return null;
  }
  const type = value.type;
  const checker = typeof type === 'string' ? set.byType.get(type) : undefined;
  if (checker === undefined) {
    out.add(`${pointer}/type`, `must be one of ${set.label}`, set.typeHint?.(type));
    return null;
  }
  if (!checker.check(value)) {
    // A Slack construct is one error that says what to send instead, listed before the schema's own.
    const { refusals, explained } = explainBlock(value, pointer);
    for (const refusal of refusals) out.add(refusal.pointer, refusal.message, refusal.hint);
    out.addSchemaErrors(checker, value, pointer, { skip: explained });
    return null;
  }
  return type as string;
}

/** Checks inline rich-text elements; returns whether any shows text. */
function checkInline(elements: unknown[], pointer: string, out: Collector): boolean {
  let visible = false;
  elements.forEach((element, index) => {
    const at = `${pointer}/${index}`;
    const type = dispatch(element, at, inlineCheckers, out);
    if (type === null) return;
    const inline = element as Json;
    if (type === 'text') {
      visible ||= !isBlank(inline.text as string);
    } else if (type === 'link') {
      if (!LINK_URL.test(inline.url as string)) out.add(`${at}/url`, 'must be an http(s) or mailto URL');
      visible ||= !isBlank((inline.text as string | undefined) ?? (inline.url as string));
    } else if (
      (type === 'date' || type === 'emoji') &&
      inline.url !== undefined &&
      !WEB_URL.test(inline.url as string)
    ) {
      out.add(`${at}/url`, 'must be an http(s) URL');
    }
  });
  return visible;
}

interface BlockFacts {
  visible: boolean;
  markdown: number;
}

function checkBlock(block: unknown, pointer: string, out: Collector): BlockFacts {
  const facts: BlockFacts = { visible: false, markdown: 0 };
  const type = dispatch(block, pointer, blockCheckers, out);
  if (type === null) return facts;
  const b = block as Json;
  if (typeof b.block_id === 'string' && codePointLength(b.block_id) > MAX_BLOCK_ID) {
    out.add(`${pointer}/block_id`, `must have 1 to ${MAX_BLOCK_ID} characters`);
  }
  switch (type) {
    case 'header':
    case 'section':
      facts.visible = !isBlank((b.text as Json).text as string);
      break;
    case 'markdown':
      facts.visible = !isBlank(b.text as string);
      facts.markdown = codePointLength(b.text as string);
      break;
    case 'context':
      (b.elements as unknown[]).forEach((element, index) => {
        const at = `${pointer}/elements/${index}`;
        const kind = dispatch(element, at, contextCheckers, out);
        const e = element as Json;
        if (kind === 'image') {
          if (!WEB_URL.test(e.image_url as string)) out.add(`${at}/image_url`, 'must be an http(s) URL');
        } else if (kind !== null) {
          facts.visible ||= !isBlank(e.text as string);
        }
      });
      break;
    case 'rich_text':
      (b.elements as unknown[]).forEach((element, index) => {
        const at = `${pointer}/elements/${index}`;
        const kind = dispatch(element, at, richTextCheckers, out);
        if (kind === null) return;
        const items = (element as Json).elements as unknown[];
        if (kind === 'rich_text_list') {
          items.forEach((item, itemIndex) => {
            const itemAt = `${at}/elements/${itemIndex}`;
            if (dispatch(item, itemAt, listItemCheckers, out) !== null) {
              facts.visible =
                checkInline((item as Json).elements as unknown[], `${itemAt}/elements`, out) || facts.visible;
            }
          });
        } else {
          facts.visible = checkInline(items, `${at}/elements`, out) || facts.visible;
        }
      });
      break;
  }
  return facts;
}

/**
 * Adds an error for every string under `value` that holds NUL or a lone surrogate. Iterative, so no
 * nesting depth can overflow the stack.
 */
function checkStorable(value: unknown, out: Collector): void {
  const pending: [unknown, string][] = [[value, '']];
  while (pending.length > 0) {
    const [item, pointer] = pending.pop()!;
    if (typeof item === 'string') {
      if (UNSTORABLE.test(item)) out.add(pointer, 'must not contain U+0000 or unpaired surrogates');
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--) pending.push([item[index], `${pointer}/${index}`]);
    } else if (isObject(item)) {
      const keys = Object.keys(item);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!;
        pending.push([item[key], `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
      }
    }
  }
}

/**
 * Applies every field rule of the contract to a parsed body and the `Idempotency-Key` header.
 *
 * @param mayHoldEscapes - whether the raw JSON had a `\u` escape; only then can a string hold NUL or
 *   a lone surrogate, so only then are all strings walked.
 */
export function validatePayload(value: unknown, keyHeader: HeaderValue, mayHoldEscapes: boolean): PayloadValidation {
  const out = new Collector();
  if (!isObject(value)) {
    out.add('', 'must be a JSON object');
    return invalid(out);
  }
  const { text, blocks, eventId } = value;
  // Before the schema's errors, so that an empty string gets the full rule rather than "at least 1".
  if (typeof text === 'string' && !hasTrimmedLength(text, MAX_TEXT)) {
    out.add('/text', `must have 1 to ${MAX_TEXT.toLocaleString('en-US')} characters after trimming`);
  }
  if (typeof eventId === 'string' && !hasTrimmedLength(eventId, MAX_KEY)) {
    out.add('/eventId', `must have 1 to ${MAX_KEY} characters after trimming`);
  }
  if (!payloadChecker.check(value))
    out.addSchemaErrors(payloadChecker, value, '', { hint: (pointer) => payloadPropertyHint(pointer.slice(1)) });

  if (Array.isArray(blocks) && blocks.length >= 1 && blocks.length <= 50) {
    let visible = false;
    let markdown = 0;
    const errorsBefore = out.errors.length;
    blocks.forEach((block, index) => {
      const facts = checkBlock(block, `/blocks/${index}`, out);
      visible ||= facts.visible;
      markdown += facts.markdown;
    });
    if (markdown > MAX_MARKDOWN_TOTAL) {
      out.add(
        '/blocks',
        `markdown blocks together must have at most ${MAX_MARKDOWN_TOTAL.toLocaleString('en-US')} characters; these have ${markdown.toLocaleString('en-US')}`,
      );
    }
    // Only judge visibility on well-formed blocks: an invalid block already has its own error.
    if (text === undefined && !visible && out.errors.length === errorsBefore) {
      out.add('/blocks', 'must contain visible text when text is omitted', visibleTextHint());
    }
  }
  if (text === undefined && blocks === undefined) out.add('/text', 'is required when blocks is absent');
  let header: string | undefined;
  if (Array.isArray(keyHeader)) {
    out.addHeader('idempotency-key', 'must be sent at most once');
  } else if (keyHeader !== undefined) {
    header = keyHeader;
    if (!hasTrimmedLength(header, MAX_KEY))
      out.addHeader('idempotency-key', `must have 1 to ${MAX_KEY} characters after trimming`);
  }
  // Only a payload of the right shape is walked: its depth is bounded by the schema.
  if (out.errors.length === 0 && mayHoldEscapes) checkStorable(value, out);
  if (out.errors.length > 0) return invalid(out);

  if (typeof eventId === 'string' && header !== undefined && eventId !== header) {
    return {
      ok: false,
      code: 'key_mismatch',
      detail: 'eventId and the Idempotency-Key header must be exactly equal when both are sent.',
      errors: [{ pointer: '/eventId', message: 'must equal the Idempotency-Key header exactly' }],
    };
  }
  return {
    ok: true,
    payload: {
      text: text as string | undefined,
      blocks: blocks as Block[] | undefined,
      key: (eventId as string | undefined) ?? header ?? null,
    },
  };
}

function invalid(out: Collector): PayloadValidation {
  const count = out.errors.length;
  return {
    ok: false,
    code: 'invalid_payload',
    detail:
      count === 1
        ? 'One field is invalid; see errors.'
        : `${count >= MAX_ERRORS ? `At least ${count}` : count} fields are invalid; see errors.`,
    errors: out.errors,
  };
}
