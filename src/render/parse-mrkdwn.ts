import { type Block, type Inline, type StyleTag, text } from './ast.js';
import { decodeSlackEntities } from './escape.js';
import { type BareLink, findBareLinks } from './linkify.js';

// Slack's mrkdwn, as "Formatting text for app surfaces" describes it: `*bold*`, `_italic_`,
// `~strike~`, `` `code` ``, ``` fences, `>` quotes, `<…>` links, mentions and dates, `:emoji:`, and
// `&amp;`, `&lt;`, `&gt;` as the only entities; and, as Slack's server links them, bare URLs and
// email addresses (linkify.ts) outside code and `<…>`.

const MARKERS: Record<string, StyleTag> = { '*': 'strong', _: 'em', '~': 's' };
const WORD_CHAR = /[\p{L}\p{N}]/u;
const SPACE_CHAR = /\s/;
const EMOJI = /:([a-z0-9+-][a-z0-9_+'-]{0,99}(?:::skin-tone-[2-6])?):/iy;
const QUOTE_LINE = /^(?:>|&gt;) ?/;
const ENTITIES: [string, string][] = [
  ['&amp;', '&'],
  ['&lt;', '<'],
  ['&gt;', '>'],
];
const BROADCASTS = new Set(['here', 'channel', 'everyone']);

/** For each index, the index of the next `char` at or after it (`-1` when none): one pass, so scans stay linear. */
function nextIndexes(source: string, char: string): Int32Array {
  const next = new Int32Array(source.length + 1).fill(-1);
  for (let index = source.length - 1; index >= 0; index--)
    next[index] = source[index] === char ? index : next[index + 1]!;
  return next;
}

function withoutMarker(label: string | undefined): string | undefined {
  const trimmed = label?.replace(/^[@#]/, '');
  return trimmed === '' ? undefined : trimmed;
}

/** Reads what sits between `<` and `>`; `undefined` when it is none of Slack's forms. */
function parseAngle(inside: string): Inline | undefined {
  const bar = inside.indexOf('|');
  const target = bar === -1 ? inside : inside.slice(0, bar);
  const label = bar === -1 ? undefined : decodeSlackEntities(inside.slice(bar + 1));
  // Without a scheme, or with blanks, it is prose that happens to hold `<` and `>`: kept as written.
  if (!/^(?:![^\n]*|[@#]\S+|[a-z][a-z0-9+.-]*:\S*)$/i.test(target)) return undefined;
  if (target.startsWith('@') && target.length > 1)
    return { t: 'mention', kind: 'user', id: target.slice(1), label: withoutMarker(label) };
  if (target.startsWith('#') && target.length > 1)
    return { t: 'mention', kind: 'channel', id: target.slice(1), label: withoutMarker(label) };
  if (target.startsWith('!')) {
    const command = target.slice(1);
    if (BROADCASTS.has(command)) return { t: 'mention', kind: 'broadcast', id: command };
    // `<!group>` is Slack's older name for `<!channel>`.
    if (command === 'group') return { t: 'mention', kind: 'broadcast', id: 'channel' };
    const [name, first, second, third] = command.split('^');
    if (name === 'subteam' && first) return { t: 'mention', kind: 'usergroup', id: first, label: withoutMarker(label) };
    if (name === 'date' && first !== undefined && /^\d{1,15}$/.test(first)) {
      const url = third === undefined ? undefined : decodeSlackEntities(third);
      return { t: 'date', timestamp: Number(first), format: second ?? '', fallback: label, url };
    }
    return undefined;
  }
  const url = decodeSlackEntities(target);
  return { t: 'link', url, children: label === undefined || label === '' ? [text(url)] : labelInlines(label) };
}

const EMOJI_IN_LABEL = new RegExp(EMOJI.source, 'gi');

/** A link's label: text, with its emoji codes as emoji, as Slack shows them there too. */
function labelInlines(label: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of label.matchAll(EMOJI_IN_LABEL)) {
    if (match.index > last) out.push(text(label.slice(last, match.index)));
    out.push({ t: 'emoji', name: match[1]! });
    last = match.index + match[0].length;
  }
  if (last < label.length || out.length === 0) out.push(text(label.slice(last)));
  return out;
}

/**
 * The bare links of a line by where they start. `<…>` and `` `…` `` are blanked first, read from
 * the left as the parser reads them: Slack links inside neither. So are `&lt;` and `&gt;`, which
 * stand for characters no URL holds.
 */
function bareLinks(source: string, nextGt: Int32Array, nextTick: Int32Array): Map<number, BareLink> {
  const parts: string[] = [];
  let last = 0;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    const end = char === '<' ? nextGt[index + 1]! : char === '`' ? nextTick[index + 1]! : -1;
    if (end === -1) continue;
    parts.push(source.slice(last, index), ' '.repeat(end + 1 - index));
    index = end;
    last = end + 1;
  }
  parts.push(source.slice(last));
  const blanked = parts.join('').replace(/&[lg]t;/g, '    ');
  return new Map(findBareLinks(blanked).map((link) => [link.start, link]));
}

/**
 * Parses one line of mrkdwn; `markers` are the emphasis markers still open to nesting, `linkify`
 * whether bare links are links (not in a text object that asks for its text `verbatim`).
 */
function parseLine(source: string, markers: string, linkify: boolean): Inline[] {
  const nextGt = nextIndexes(source, '>');
  const nextTick = nextIndexes(source, '`');
  const links = linkify ? bareLinks(source, nextGt, nextTick) : new Map<number, BareLink>();
  const out: Inline[] = [];
  const failed = new Set<string>();
  let buffer = '';
  const flush = (): void => {
    if (buffer !== '') out.push(text(buffer));
    buffer = '';
  };
  // `<…>`, `` `…` `` and bare links are atoms: a marker inside them never opens or closes emphasis.
  const atomEnd = (index: number): number => {
    const char = source[index];
    if (char === '<') return nextGt[index + 1]!;
    if (char === '`') return nextTick[index + 1]!;
    const link = links.get(index);
    return link === undefined ? -1 : link.end - 1;
  };
  const findCloser = (marker: string, from: number): number => {
    for (let index = from; index < source.length; index++) {
      const end = atomEnd(index);
      if (end !== -1) {
        index = end;
        continue;
      }
      const after = source[index + 1];
      if (
        source[index] === marker &&
        !SPACE_CHAR.test(source[index - 1]!) &&
        (after === undefined || !WORD_CHAR.test(after))
      )
        return index;
    }
    return -1;
  };

  let index = 0;
  while (index < source.length) {
    const char = source[index]!;
    const link = links.get(index);
    if (link !== undefined) {
      flush();
      out.push({ t: 'link', url: decodeSlackEntities(link.url), children: [text(decodeSlackEntities(link.text))] });
      index = link.end;
      continue;
    }
    const end = atomEnd(index);
    if (end !== -1) {
      const inside = source.slice(index + 1, end);
      const code: Inline | undefined =
        inside === '' ? undefined : { t: 'style', tag: 'code', children: [text(decodeSlackEntities(inside))] };
      const node = char === '<' ? parseAngle(inside) : code;
      if (node === undefined) buffer += decodeSlackEntities(source.slice(index, end + 1));
      else {
        flush();
        out.push(node);
      }
      index = end + 1;
      continue;
    }
    const next = source[index + 1];
    const before = source[index - 1];
    if (
      markers.includes(char) &&
      !failed.has(char) &&
      (before === undefined || !WORD_CHAR.test(before)) &&
      next !== undefined &&
      next !== char &&
      !SPACE_CHAR.test(next)
    ) {
      const closer = findCloser(char, index + 2);
      if (closer === -1) failed.add(char);
      else {
        flush();
        out.push({
          t: 'style',
          tag: MARKERS[char]!,
          children: parseLine(source.slice(index + 1, closer), markers.replace(char, ''), linkify),
        });
        index = closer + 1;
        continue;
      }
    }
    if (char === ':') {
      EMOJI.lastIndex = index;
      const match = EMOJI.exec(source);
      if (match !== null) {
        flush();
        out.push({ t: 'emoji', name: match[1]! });
        index += match[0].length;
        continue;
      }
    }
    if (char === '&') {
      const entity = ENTITIES.find(([name]) => source.startsWith(name, index));
      if (entity !== undefined) {
        buffer += entity[1];
        index += entity[0].length;
        continue;
      }
    }
    buffer += char;
    index++;
  }
  flush();
  return out;
}

function parseLines(source: string, linkify: boolean): Inline[] {
  const out: Inline[] = [];
  source.split('\n').forEach((line, index) => {
    if (index > 0) out.push({ t: 'br' });
    out.push(...parseLine(line, '*_~', linkify));
  });
  return out;
}

/** Paragraphs and quotes of text outside code fences. */
function parseProse(source: string, out: Block[], linkify: boolean): void {
  let plain: string[] = [];
  let quoted: string[] = [];
  const flushPlain = (): void => {
    if (plain.length > 0) out.push({ t: 'para', children: parseLines(plain.join('\n'), linkify) });
    plain = [];
  };
  const flushQuoted = (): void => {
    if (quoted.length > 0)
      out.push({
        t: 'quote',
        classes: ['cw-quote'],
        children: [{ t: 'para', children: parseLines(quoted.join('\n'), linkify) }],
      });
    quoted = [];
  };
  for (const line of source.split('\n')) {
    const quote = QUOTE_LINE.exec(line);
    if (quote === null) {
      flushQuoted();
      plain.push(line);
    } else {
      flushPlain();
      quoted.push(line.slice(quote[0].length));
    }
  }
  flushPlain();
  flushQuoted();
}

/**
 * Reads Slack mrkdwn into blocks: paragraphs (lines joined by `br`), quotes, and preformatted text
 * for each matched ``` pair (an unmatched fence is text). Bare links are links unless `verbatim`.
 */
export function parseMrkdwn(source: string, verbatim = false): Block[] {
  const parts = source.split('```');
  if (parts.length % 2 === 0) {
    const unmatched = parts.pop()!;
    parts[parts.length - 1] += `\`\`\`${unmatched}`;
  }
  const out: Block[] = [];
  parts.forEach((part, index) => {
    if (index % 2 === 1) {
      out.push({
        t: 'pre',
        classes: ['cw-pre'],
        children: [text(decodeSlackEntities(part.replace(/^\n/, '').replace(/\n$/, '')))],
      });
    } else {
      const prose = part.replace(index > 0 ? /^\n/ : /^$/, '').replace(index < parts.length - 1 ? /\n$/ : /^$/, '');
      if (prose !== '') parseProse(prose, out, !verbatim);
    }
  });
  return out;
}
