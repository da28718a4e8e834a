import type { RenderClassName } from './allow-list.js';
import { type Block, type Inline, type StyleTag, lines } from './ast.js';
import { parseMarkdown } from './parse-markdown.js';
import { parseMrkdwn } from './parse-mrkdwn.js';

// Stored blocks are read defensively: a message may come from an older version or another writer,
// so a missing or mistyped field is skipped, never thrown on. Unknown fields are ignored.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const array = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const string = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const objects = (value: unknown): Json[] => array(value).filter(isObject);
const EMOJI_IN_PLAIN_TEXT = /:([a-z0-9][a-z0-9_+'-]{0,99}(?:::skin-tone-[2-6])?):/gi;

function plainText(value: string, emoji: boolean): Inline[] {
  if (!emoji) return lines(value);
  const out: Inline[] = [];
  let last = 0;
  for (const match of value.matchAll(EMOJI_IN_PLAIN_TEXT)) {
    out.push(...lines(value.slice(last, match.index)));
    out.push({ t: 'emoji', name: match[1]! });
    last = match.index + match[0].length;
  }
  out.push(...lines(value.slice(last)));
  return out;
}

/** A text object (`plain_text` or `mrkdwn`) as blocks. */
function textObject(value: unknown): Block[] {
  if (!isObject(value)) return [];
  const content = string(value.text) ?? '';
  // Slack links bare URLs in mrkdwn unless the object asks for its text verbatim; never in plain_text.
  if (value.type === 'mrkdwn') return parseMrkdwn(content, value.verbatim === true);
  return [{ t: 'para', children: plainText(content, value.emoji !== false) }];
}

// Innermost first, so `<strong><em>…</em></strong>` reads the same for every element.
const STYLE_ORDER: [string, StyleTag][] = [
  ['code', 'code'],
  ['strike', 's'],
  ['italic', 'em'],
  ['bold', 'strong'],
  ['underline', 'u'],
  ['highlight', 'mark'],
  ['client_highlight', 'mark'],
];

function styled(style: unknown, children: Inline[]): Inline[] {
  if (!isObject(style)) return children;
  let out = children;
  const applied = new Set<StyleTag>();
  for (const [flag, tag] of STYLE_ORDER) {
    if (style[flag] === true && !applied.has(tag)) {
      applied.add(tag);
      out = [{ t: 'style', tag, children: out }];
    }
  }
  return out;
}

function richInline(element: Json): Inline[] {
  switch (element.type) {
    case 'text':
      return styled(element.style, lines(string(element.text) ?? ''));
    case 'link': {
      const url = string(element.url) ?? '';
      const label = lines(string(element.text) || url);
      const unlinked = isObject(element.style) && element.style.unlink === true;
      return unlinked ? styled(element.style, label) : [{ t: 'link', url, children: styled(element.style, label) }];
    }
    case 'emoji':
      return styled(element.style, [
        { t: 'emoji', name: string(element.name) ?? '', unicode: string(element.unicode), url: string(element.url) },
      ]);
    case 'user':
      return styled(element.style, [{ t: 'mention', kind: 'user', id: string(element.user_id) ?? '' }]);
    case 'channel':
      return styled(element.style, [{ t: 'mention', kind: 'channel', id: string(element.channel_id) ?? '' }]);
    case 'usergroup':
      return styled(element.style, [{ t: 'mention', kind: 'usergroup', id: string(element.usergroup_id) ?? '' }]);
    case 'broadcast':
      return styled(element.style, [{ t: 'mention', kind: 'broadcast', id: string(element.range) ?? '' }]);
    case 'date': {
      const timestamp = typeof element.timestamp === 'number' ? element.timestamp : Number.NaN;
      const date: Inline = {
        t: 'date',
        timestamp,
        format: string(element.format) ?? '',
        fallback: string(element.fallback),
        url: string(element.url),
      };
      const timezone = string(element.timezone);
      return styled(element.style, [timezone === undefined ? date : { ...date, timezone }]);
    }
    case 'color':
      return styled(element.style, [{ t: 'color', value: string(element.value) ?? '' }]);
    default:
      return [];
  }
}

const richInlines = (elements: unknown): Inline[] => objects(elements).flatMap(richInline);

/** Preformatted text keeps its line breaks as characters. */
function unbroken(nodes: Inline[]): Inline[] {
  return nodes.map((node): Inline => {
    if (node.t === 'br') return { t: 'text', text: '\n' };
    if (node.t === 'style' || node.t === 'link') return { ...node, children: unbroken(node.children) };
    return node;
  });
}
const bordered = (classes: RenderClassName[], element: Json): RenderClassName[] =>
  element.border === 1 ? [...classes, 'cw-border'] : classes;

function richTextElement(element: Json): Block[] {
  switch (element.type) {
    case 'rich_text_section':
      return [{ t: 'para', classes: ['cw-rich-text-section'], children: richInlines(element.elements) }];
    case 'rich_text_quote':
      return [
        {
          t: 'quote',
          classes: bordered(['cw-quote'], element),
          children: [{ t: 'bare', children: richInlines(element.elements) }],
        },
      ];
    case 'rich_text_preformatted':
      return [{ t: 'pre', classes: bordered(['cw-pre'], element), children: unbroken(richInlines(element.elements)) }];
    case 'rich_text_list': {
      const indent =
        typeof element.indent === 'number' && Number.isInteger(element.indent)
          ? Math.min(Math.max(element.indent, 0), 8)
          : 0;
      const offset =
        typeof element.offset === 'number' && Number.isInteger(element.offset) && element.offset > 0
          ? element.offset
          : 0;
      const ordered = element.style === 'ordered';
      const classes = bordered(['cw-list', `cw-list-indent-${indent as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8}`], element);
      const items = objects(element.elements).map((item): Block[] => [
        { t: 'bare', children: richInlines(item.elements) },
      ]);
      return [{ t: 'list', ordered, start: ordered && offset > 0 ? offset + 1 : undefined, indent, classes, items }];
    }
    default:
      return [];
  }
}

function contextElement(element: Json): Block {
  if (element.type === 'image') {
    return {
      t: 'bare',
      children: [{ t: 'image', url: string(element.image_url) ?? '', alt: string(element.alt_text) ?? '' }],
    };
  }
  return { t: 'div', classes: ['cw-context-item'], children: textObject(element) };
}

function block(value: Json): Block[] {
  switch (value.type) {
    case 'header': {
      const content = isObject(value.text) ? (string(value.text.text) ?? '') : '';
      const emoji = !isObject(value.text) || value.text.emoji !== false;
      return [{ t: 'heading', level: 2, classes: ['cw-header'], children: plainText(content, emoji) }];
    }
    case 'section':
      return [{ t: 'div', classes: ['cw-section'], children: textObject(value.text) }];
    case 'markdown':
      return [{ t: 'div', classes: ['cw-markdown'], children: parseMarkdown(string(value.text) ?? '') }];
    case 'divider':
      return [{ t: 'hr', classes: ['cw-divider'] }];
    case 'context':
      return [{ t: 'div', classes: ['cw-context'], row: true, children: objects(value.elements).map(contextElement) }];
    case 'rich_text':
      return [{ t: 'div', classes: ['cw-rich-text'], children: objects(value.elements).flatMap(richTextElement) }];
    default:
      return [];
  }
}

/** Reads stored blocks into the document model, in order; unknown block types are left out. */
export function parseBlocks(blocks: unknown): Block[] {
  return objects(blocks).flatMap(block);
}
