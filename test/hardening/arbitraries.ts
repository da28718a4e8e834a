import fc from 'fast-check';
import { anyCodePoint } from '../support/code-point.js';

// Generators of hostile and of valid webhook input, shared by the in-process and the HTTP fuzzers.

const UNSTORABLE = /[\0\p{Cs}]/u;

/** Strings built to hit edge cases: NUL, lone surrogates, a BOM, blanks, and every length limit ±1. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: anyCodePoint, maxLength: 40 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\t\n',
    '\u00a0',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00',
    '\udbff\udfff',
    '\ufeff',
    '\u202e',
    '😀',
    '__proto__',
    'constructor',
    'prototype',
    '</script>',
    '%00',
    '\\u0000',
  ),
  fc
    .constantFrom(199, 200, 201, 254, 255, 256, 9_999, 10_000, 10_001, 12_000, 12_001)
    .map((length) => 'a'.repeat(length)),
  fc.constantFrom(200, 201, 10_000, 10_001).map((length) => ` ${'😀'.repeat(length)} `),
);

/** JSON number texts, including ones no double can hold. */
export const hostileNumberText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0',
    '-0',
    '1',
    '-1',
    '0.5',
    '1e400',
    '-1e400',
    '1e-400',
    '123456789012345678901234567890',
    '9007199254740993',
    '4.9e-324',
    '1.7976931348623157e308',
    '8',
    '9',
    '6',
    '7',
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  fc.integer().map(String),
);

/** A JSON syntax tree that may hold duplicate and prototype-named keys (which JS objects cannot express). */
export type Node =
  | { kind: 'object'; entries: [string, Node][] }
  | { kind: 'array'; items: Node[] }
  | { kind: 'string'; value: string }
  | { kind: 'raw'; text: string };

const leaf: fc.Arbitrary<Node> = fc.oneof(
  hostileString.map((value): Node => ({ kind: 'string', value })),
  hostileNumberText.map((text): Node => ({ kind: 'raw', text })),
  fc.constantFrom('true', 'false', 'null').map((text): Node => ({ kind: 'raw', text })),
);

const key: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'type',
      'text',
      'blocks',
      'eventId',
      'elements',
      'block_id',
      'emoji',
      'verbatim',
      'style',
      'url',
      'image_url',
      'alt_text',
      'indent',
      'border',
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '') },
  { weight: 1, arbitrary: hostileString },
);

const blockType = fc.constantFrom(
  'header',
  'section',
  'markdown',
  'divider',
  'context',
  'rich_text',
  'plain_text',
  'mrkdwn',
  'image',
  'text',
  'link',
  'rich_text_section',
  'rich_text_list',
  'HEADER',
  'unknown',
);

/** Any JSON tree, leaning towards the shapes of a webhook body so that deep checks are reached. */
export const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node; typed: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(tie('node'), { maxLength: 4 }).map((items): Node => ({ kind: 'array', items })) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(key, tie('node')), { maxLength: 4 })
        .map((entries): Node => ({ kind: 'object', entries })),
    },
    { weight: 1, arbitrary: tie('typed') },
  ),
  typed: fc
    .tuple(blockType, fc.array(fc.tuple(key, tie('node')), { maxLength: 3 }))
    .map(
      ([type, entries]): Node => ({ kind: 'object', entries: [['type', { kind: 'string', value: type }], ...entries] }),
    ),
})).node;

/** A top-level body: an object with the contract's fields (any values), extra keys and duplicates. */
export const payloadNode: fc.Arbitrary<Node> = fc
  .tuple(
    fc.option(node, { nil: undefined }),
    fc.option(fc.array(node, { minLength: 0, maxLength: 6 }), { nil: undefined }),
    fc.option(node, { nil: undefined }),
    fc.array(fc.tuple(key, node), { maxLength: 2 }),
  )
  .map(([text, blocks, eventId, extra]): Node => {
    const entries: [string, Node][] = [];
    if (text !== undefined) entries.push(['text', text]);
    if (blocks !== undefined) entries.push(['blocks', { kind: 'array', items: blocks }]);
    if (eventId !== undefined) entries.push(['eventId', eventId]);
    return { kind: 'object', entries: [...entries, ...extra] };
  });

/** JSON text of a tree. Strings go through JSON.stringify, which escapes NUL and lone surrogates. */
export function render(tree: Node): string {
  switch (tree.kind) {
    case 'string':
      return JSON.stringify(tree.value);
    case 'raw':
      return tree.text;
    case 'array':
      return `[${tree.items.map(render).join(',')}]`;
    case 'object':
      return `{${tree.entries.map(([name, value]) => `${JSON.stringify(name)}:${render(value)}`).join(',')}}`;
  }
}

/** How a JSON text is damaged or disguised before it is sent. */
export type Twist =
  | { kind: 'none' }
  | { kind: 'bom' }
  | { kind: 'truncate'; at: number }
  | { kind: 'bytes'; at: number; bytes: Uint8Array }
  | { kind: 'nest'; depth: number; escaped: boolean }
  | { kind: 'raw-surrogate' }
  | { kind: 'pad'; to: number };

export const twist: fc.Arbitrary<Twist> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Twist>({ kind: 'none' }) },
  { weight: 1, arbitrary: fc.constant<Twist>({ kind: 'bom' }) },
  { weight: 1, arbitrary: fc.nat().map((at): Twist => ({ kind: 'truncate', at })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.nat(),
        fc.oneof(
          fc.uint8Array({ minLength: 1, maxLength: 4 }),
          fc.constantFrom(
            Uint8Array.of(0xc0, 0x80),
            Uint8Array.of(0xed, 0xa0, 0x80),
            Uint8Array.of(0xff),
            Uint8Array.of(0xef, 0xbb, 0xbf),
            Uint8Array.of(0xf4, 0x90, 0x80, 0x80),
          ),
        ),
      )
      .map(([at, bytes]): Twist => ({ kind: 'bytes', at, bytes })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(1_000, 5_000, 20_000), fc.boolean())
      .map(([depth, escaped]): Twist => ({ kind: 'nest', depth, escaped })),
  },
  { weight: 1, arbitrary: fc.constant<Twist>({ kind: 'raw-surrogate' }) },
  { weight: 1, arbitrary: fc.constantFrom(65_535, 65_536, 65_537, 70_000).map((to): Twist => ({ kind: 'pad', to })) },
);

const encoder = new TextEncoder();

/**
 * The body bytes (or, for a literal lone surrogate that UTF-8 cannot carry, a string) of a tree
 * after a twist. `nest` puts the value 20,000 arrays deep under an extra key (optionally with a
 * `\u` escape, which makes the core look at every string); `pad` grows the body with spaces to an
 * exact byte count around the 65,536-byte limit.
 */
export function applyTwist(text: string, how: Twist): Uint8Array | string {
  switch (how.kind) {
    case 'none':
      return encoder.encode(text);
    case 'bom':
      return encoder.encode(`\ufeff${text}`);
    case 'truncate':
      return encoder.encode(text).subarray(0, how.at % (encoder.encode(text).length + 1));
    case 'bytes': {
      const bytes = encoder.encode(text);
      const at = how.at % (bytes.length + 1);
      const out = new Uint8Array(bytes.length + how.bytes.length);
      out.set(bytes.subarray(0, at), 0);
      out.set(how.bytes, at);
      out.set(bytes.subarray(at), at + how.bytes.length);
      return out;
    }
    case 'nest': {
      const inner = how.escaped ? '"\\u0041"' : '1';
      const nested = `${'['.repeat(how.depth)}${inner}${']'.repeat(how.depth)}`;
      return encoder.encode(
        text.startsWith('{') && text !== '{}' ? `{"deep":${nested},${text.slice(1)}` : `{"deep":${nested}}`,
      );
    }
    case 'raw-surrogate':
      return text.startsWith('{"') ? `{"\ud800${text.slice(2)}` : `"\udc00"`;
    case 'pad': {
      const bytes = encoder.encode(text);
      if (bytes.length >= how.to) return bytes;
      const out = new Uint8Array(how.to).fill(0x20);
      out.set(bytes, 0);
      return out;
    }
  }
}

// ---- Valid bodies ---------------------------------------------------------------------------

const visible = fc
  .string({ unit: anyCodePoint, minLength: 1, maxLength: 30 })
  .filter((value) => value.trim().length > 0 && !UNSTORABLE.test(value));
const anyText = fc.string({ unit: anyCodePoint, maxLength: 30 }).filter((value) => !UNSTORABLE.test(value));
const flag = fc.option(fc.boolean(), { nil: undefined });
const blockId = fc.option(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 20 }), { nil: undefined });
const style = fc.option(fc.record({ bold: fc.boolean(), italic: fc.boolean() }, { requiredKeys: [] }), {
  nil: undefined,
});

function withOptional<T extends Record<string, unknown>>(value: T): T {
  for (const name of Object.keys(value)) if (value[name] === undefined) delete value[name];
  return value;
}

const inline = fc.oneof(
  fc.record({ type: fc.constant('text'), text: visible, style }).map(withOptional),
  fc
    .record({
      type: fc.constant('link'),
      url: fc.constantFrom('https://example.com/a', 'mailto:ops@example.com'),
      text: fc.option(visible, { nil: undefined }),
    })
    .map(withOptional),
  fc.record({ type: fc.constant('emoji'), name: fc.constantFrom('tada', 'rocket') }),
  fc.record({ type: fc.constant('user'), user_id: fc.constantFrom('U123', 'U456') }),
);

const block = fc.oneof(
  fc
    .record({
      type: fc.constant('header'),
      text: fc.record({ type: fc.constant('plain_text'), text: anyText, emoji: flag }).map(withOptional),
      block_id: blockId,
    })
    .map(withOptional),
  fc
    .record({
      type: fc.constant('section'),
      text: fc.record({ type: fc.constant('mrkdwn'), text: anyText, verbatim: flag }).map(withOptional),
      block_id: blockId,
    })
    .map(withOptional),
  fc.record({ type: fc.constant('markdown'), text: anyText, block_id: blockId }).map(withOptional),
  fc.record({ type: fc.constant('divider'), block_id: blockId }).map(withOptional),
  fc.record({
    type: fc.constant('context'),
    elements: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('plain_text'), text: anyText }),
        fc.record({ type: fc.constant('mrkdwn'), text: anyText }),
        fc.record({
          type: fc.constant('image'),
          image_url: fc.constant('https://example.com/i.png'),
          alt_text: fc.constant('logo'),
        }),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  }),
  fc.record({
    type: fc.constant('rich_text'),
    elements: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('rich_text_section'), elements: fc.array(inline, { maxLength: 3 }) }),
        fc
          .record({
            type: fc.constant('rich_text_quote'),
            elements: fc.array(inline, { maxLength: 3 }),
            border: fc.option(fc.constantFrom(0, 1), { nil: undefined }),
          })
          .map(withOptional),
        fc
          .record({
            type: fc.constant('rich_text_list'),
            style: fc.constantFrom('bullet', 'ordered'),
            indent: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
            elements: fc.array(
              fc.record({ type: fc.constant('rich_text_section'), elements: fc.array(inline, { maxLength: 2 }) }),
              {
                minLength: 1,
                maxLength: 2,
              },
            ),
          })
          .map(withOptional),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  }),
);

/** A body every rule accepts: text and/or blocks (with visible text when text is absent), maybe an eventId. */
export const validPayload: fc.Arbitrary<{ text?: string; blocks?: unknown[]; eventId?: string }> = fc
  .record(
    { text: visible, blocks: fc.array(block, { minLength: 1, maxLength: 5 }), eventId: visible },
    { requiredKeys: [] },
  )
  .map((payload) => {
    if (payload.text === undefined && payload.blocks === undefined) return { ...payload, text: 'fallback' };
    if (payload.text === undefined)
      return { ...payload, blocks: [...payload.blocks!, { type: 'markdown', text: 'visible' }] };
    return payload;
  });

/** Every JSON Pointer into `value` (the root is `''`). */
export function pointers(value: unknown, at = ''): string[] {
  const found = [at];
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) found.push(...pointers(item, `${at}/${index}`));
  } else if (typeof value === 'object' && value !== null) {
    for (const [name, item] of Object.entries(value))
      found.push(...pointers(item, `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  }
  return found;
}

/** The JSON kind of a value: the thing a wrong-type substitution must change. */
export function jsonKind(value: unknown): 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'string' | 'number' | 'boolean' | 'object';
}

/** A value of every JSON kind. */
export const KIND_SAMPLES: unknown[] = ['x', 0, 1.5, true, false, null, [], ['x'], {}, { type: 'divider' }];

/** A copy of `value` with the thing at `pointer` replaced by `replacement`. */
export function replaceAt(value: unknown, pointer: string, replacement: unknown): unknown {
  if (pointer === '') return replacement;
  const copy = structuredClone(value) as Record<string, unknown>;
  const parts = pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  let target: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) target = target[part] as Record<string, unknown>;
  target[parts[parts.length - 1]!] = replacement;
  return copy;
}

/** The value at `pointer` in `value`. */
export function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let target = value as Record<string, unknown>;
  for (const part of pointer.slice(1).split('/'))
    target = target[part.replace(/~1/g, '/').replace(/~0/g, '~')] as Record<string, unknown>;
  return target;
}
