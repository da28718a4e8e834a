import markdownIt, { type MarkdownIt, type StateBlock, type Token } from 'markdown-it';
import type { Block, Inline, StyleTag } from './ast.js';
import { findBareLinks } from './linkify.js';
import { safeLinkUrl } from './safe-url.js';

let parser: MarkdownIt | undefined;

/** Quotes and lists nest this deep (markdown-it counts a list and its item as a level each); deeper lines read as text. */
const MAX_BLOCK_LEVEL = 12;
/** Emphasis, strike and links nest this deep; deeper markers are dropped and their text kept. */
const MAX_INLINE_DEPTH = 8;

/**
 * At the deepest level, each run of lines becomes one paragraph of their text (a deeper `>` or `-`
 * shows as written). markdown-it itself would drop everything past its nesting limit.
 */
function deepLinesAsText(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.level < MAX_BLOCK_LEVEL || silent) return false;
  let next = startLine + 1;
  while (next < endLine && !state.isEmpty(next) && state.sCount[next]! >= state.blkIndent) next++;
  state.push('paragraph_open', 'p', 1).map = [startLine, next];
  const inline = state.push('inline', '', 0);
  inline.content = state.getLines(startLine, next, state.blkIndent, false).trim();
  inline.map = [startLine, next];
  inline.children = [];
  state.push('paragraph_close', 'p', -1);
  state.line = next;
  return true;
}

// CommonMark plus `~~strike~~`; `html: false` makes any HTML in the source plain text, and
// `validateLink` leaves a link whose URL is not http(s)/mailto as the text it was written as.
function markdownParser(): MarkdownIt {
  if (parser === undefined) {
    parser = new markdownIt('commonmark', { html: false, linkify: false });
    parser.enable('strikethrough');
    parser.validateLink = (url: string) => safeLinkUrl(url.trim()) !== undefined;
    parser.block.ruler.before('table', 'deep_lines_as_text', deepLinesAsText);
  }
  return parser;
}

const INLINE_TAGS: Record<string, StyleTag> = { em_open: 'em', strong_open: 'strong', s_open: 's' };

/** Text with its bare links as links, found as in mrkdwn (linkify.ts), so that both read links alike. */
function linkified(value: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const link of findBareLinks(value)) {
    if (link.start > last) out.push({ t: 'text', text: value.slice(last, link.start) });
    out.push({ t: 'link', url: link.url, children: [{ t: 'text', text: link.text }] });
    last = link.end;
  }
  if (last < value.length) out.push({ t: 'text', text: value.slice(last) });
  return out;
}

function inlineChildren(tokens: Token[]): Inline[] {
  const root: Inline[] = [];
  const stack: Inline[][] = [root];
  const top = (): Inline[] => stack[stack.length - 1]!;
  // Links open around this token: text inside one is its label, never a link of its own.
  let links = 0;
  // Past the deepest level an opener adds no node: its content joins the level above.
  const open = (node: (children: Inline[]) => Inline): void => {
    if (stack.length > MAX_INLINE_DEPTH) {
      stack.push(top());
      return;
    }
    const children: Inline[] = [];
    top().push(node(children));
    stack.push(children);
  };
  for (const token of tokens) {
    const tag = INLINE_TAGS[token.type];
    if (tag !== undefined) {
      open((children) => ({ t: 'style', tag, children }));
    } else if (token.type === 'link_open') {
      links++;
      open((children) => ({ t: 'link', url: String(token.attrGet('href') ?? ''), children }));
    } else if (token.nesting === -1) {
      if (token.type === 'link_close') links--;
      if (stack.length > 1) stack.pop();
    } else if (token.type === 'code_inline') {
      top().push({ t: 'style', tag: 'code', children: [{ t: 'text', text: token.content }] });
    } else if (token.type === 'hardbreak') {
      top().push({ t: 'br' });
    } else if (token.type === 'softbreak') {
      top().push({ t: 'text', text: '\n' });
    } else if (token.type === 'image') {
      const alt = (token.children ?? []).map((child) => child.content).join('');
      top().push({ t: 'image', url: String(token.attrGet('src') ?? ''), alt });
    } else if (token.type === 'text' && links === 0) {
      top().push(...linkified(token.content));
    } else if (token.content !== '') {
      top().push({ t: 'text', text: token.content });
    }
  }
  return root;
}

type Frame = { blocks: Block[]; items?: Block[][] };

/**
 * Reads CommonMark (with `~~strike~~`) into blocks; no HTML in the source survives as HTML. Bare
 * URLs and email addresses are links, as in mrkdwn.
 */
export function parseMarkdown(source: string): Block[] {
  const root: Block[] = [];
  const stack: Frame[] = [{ blocks: root }];
  const top = (): Frame => stack[stack.length - 1]!;
  let hiddenParagraph = false;
  let heading: (Block & { t: 'heading' }) | undefined;
  for (const token of markdownParser().parse(source, {})) {
    switch (token.type) {
      case 'heading_open':
        heading = { t: 'heading', level: Number(token.tag.slice(1)) as 1 | 2 | 3 | 4 | 5 | 6, children: [] };
        top().blocks.push(heading);
        break;
      case 'heading_close':
        heading = undefined;
        break;
      case 'paragraph_open':
        hiddenParagraph = token.hidden;
        break;
      case 'inline': {
        const children = inlineChildren(token.children ?? []);
        if (heading !== undefined) heading.children.push(...children);
        else top().blocks.push(hiddenParagraph ? { t: 'bare', children } : { t: 'para', children });
        break;
      }
      case 'blockquote_open': {
        const blocks: Block[] = [];
        top().blocks.push({ t: 'quote', classes: ['cw-quote'], children: blocks });
        stack.push({ blocks });
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const items: Block[][] = [];
        const start = Number(token.attrGet('start') ?? 1);
        const ordered = token.type === 'ordered_list_open';
        top().blocks.push({ t: 'list', ordered, start: ordered && start !== 1 ? start : undefined, items });
        stack.push({ blocks: [], items });
        break;
      }
      case 'list_item_open': {
        const blocks: Block[] = [];
        top().items?.push(blocks);
        stack.push({ blocks });
        break;
      }
      case 'blockquote_close':
      case 'bullet_list_close':
      case 'ordered_list_close':
      case 'list_item_close':
        if (stack.length > 1) stack.pop();
        break;
      case 'fence':
      case 'code_block':
        top().blocks.push({
          t: 'pre',
          classes: ['cw-pre'],
          children: [{ t: 'text', text: token.content.replace(/\n$/, '') }],
        });
        break;
      case 'hr':
        top().blocks.push({ t: 'hr' });
        break;
    }
  }
  return root;
}
