import type { Block, Inline } from './ast.js';
import { resolveDate, resolveEmoji, resolveMention } from './resolve.js';
import type { RenderOptions } from './render-types.js';
import { safeLinkUrl } from './safe-url.js';
import { createInnerRoom, type Room } from './output-limit.js';
import { createTextWriter, type TextWriter } from './text-writer.js';

/** How a link reads: its label (alone when it is the URL as written), its URL when the label is blank, or `label (url)`. */
function linkText(node: Inline & { t: 'link' }, options: RenderOptions, room: Room): string {
  // The label is read first, within what is left, to decide how the URL shows beside it.
  const labelWriter = createTextWriter(createInnerRoom(room));
  inlines(node.children, options, labelWriter);
  const label = labelWriter.finish();
  const url = safeLinkUrl(node.url);
  if (url === undefined || label === url || `mailto:${label}` === url || `http://${label}` === url) return label;
  return label.trim() === '' ? url : `${label} (${url})`;
}

/** The text an inline node without parts of its own reads as. */
function leafText(node: Exclude<Inline, { t: 'style' | 'link' }>, options: RenderOptions): string {
  switch (node.t) {
    case 'text':
      return node.text;
    case 'br':
      return '\n';
    case 'mention':
      return resolveMention(node, options).text;
    case 'emoji':
      return resolveEmoji(node, options).text;
    case 'date':
      return resolveDate(node, options);
    case 'color':
      return node.value;
    case 'image':
      return node.alt;
  }
}

function inlines(nodes: Inline[], options: RenderOptions, out: TextWriter): void {
  for (const node of nodes) {
    if (node.t === 'style') inlines(node.children, options, out);
    else if (node.t === 'link') out.text(linkText(node, options, out.room));
    else out.text(leafText(node, options));
  }
}

function block(node: Block, options: RenderOptions, out: TextWriter): void {
  switch (node.t) {
    case 'heading':
    case 'para':
    case 'bare':
    case 'pre':
      inlines(node.children, options, out);
      break;
    case 'div':
      blocks(node.children, options, out, node.row === true ? ' ' : '\n');
      break;
    case 'quote':
      blocks(node.children, options, out, '\n');
      break;
    case 'list': {
      const padding = '  '.repeat(node.indent ?? 0);
      node.items.forEach((item, index) => {
        const marker = node.ordered ? `${(node.start ?? 1) + index}. ` : '• ';
        if (index > 0) out.separate('\n');
        out.text(`${padding}${marker}`);
        out.indented(`${padding}${' '.repeat(marker.length)}`, () => blocks(item, options, out, '\n'));
      });
      break;
    }
    case 'hr':
      break;
  }
}

/** Writes blocks one after another, `separator` between those that wrote something. */
function blocks(nodes: Block[], options: RenderOptions, out: TextWriter, separator: string): void {
  let wrote = false;
  for (const node of nodes) {
    const before = out.size;
    if (wrote) out.separate(separator);
    block(node, options, out);
    // Only the separator set here is dropped: one set further out is still due.
    if (out.size !== before) wrote = true;
    else if (wrote) out.drop();
  }
}

/** Renders the document model as text within `room`: blocks on their own lines, syntax reduced to words. */
export function emitText(nodes: Block[], options: RenderOptions, room: Room): string {
  const out = createTextWriter(room);
  blocks(nodes, options, out, '\n');
  return out.finish();
}
