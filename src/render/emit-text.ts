import type { Block, Inline } from './ast.js';
import { stripBidiControls } from './escape.js';
import { resolveDate, resolveEmoji, resolveMention } from './resolve.js';
import type { RenderOptions } from './render-types.js';
import { safeLinkUrl } from './safe-url.js';

function inline(node: Inline, options: RenderOptions): string {
  switch (node.t) {
    case 'text':
      return node.text;
    case 'br':
      return '\n';
    case 'style':
      return inlines(node.children, options);
    case 'link': {
      const label = stripBidiControls(inlines(node.children, options));
      const url = safeLinkUrl(node.url);
      if (url === undefined || label === url || `mailto:${label}` === url) return label;
      return label.trim() === '' ? url : `${label} (${url})`;
    }
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

function inlines(nodes: Inline[], options: RenderOptions): string {
  return nodes.map((node) => inline(node, options)).join('');
}

const indent = (value: string, prefix: string): string => value.replace(/\n/g, `\n${prefix}`);

function block(node: Block, options: RenderOptions): string {
  switch (node.t) {
    case 'heading':
    case 'para':
    case 'bare':
    case 'pre':
      return inlines(node.children, options);
    case 'div':
      return node.row === true
        ? node.children
            .map((child) => block(child, options))
            .filter((part) => part !== '')
            .join(' ')
        : blocks(node.children, options);
    case 'quote':
      return blocks(node.children, options);
    case 'list': {
      const padding = '  '.repeat(node.indent ?? 0);
      return node.items
        .map((item, index) => {
          const marker = node.ordered ? `${(node.start ?? 1) + index}. ` : '• ';
          return `${padding}${marker}${indent(blocks(item, options), `${padding}${' '.repeat(marker.length)}`)}`;
        })
        .join('\n');
    }
    case 'hr':
      return '';
  }
}

/** Renders the document model as text: blocks on their own lines, syntax reduced to words. */
export function blocks(nodes: Block[], options: RenderOptions): string {
  return nodes
    .map((node) => block(node, options))
    .filter((part) => part !== '')
    .join('\n');
}
