import { LINK_REL, type RenderClassName } from './allow-list.js';
import type { Block, Inline } from './ast.js';
import { createHtmlWriter, type HtmlWriter } from './html-writer.js';
import type { Room } from './output-limit.js';
import { resolveDate, resolveEmoji, resolveMention } from './resolve.js';
import type { RenderOptions } from './render-types.js';
import { safeImageUrl, safeLinkUrl } from './safe-url.js';

// Elements are written only through the writer, from the allow-list; every URL goes through
// safeLinkUrl or safeImageUrl first.

type Classes = readonly RenderClassName[];

/** A link when `href` is one, otherwise the content alone. */
function linked(out: HtmlWriter, href: string | undefined, classes: Classes | undefined, content: () => void): void {
  if (href === undefined) content();
  else out.element('a', { class: classes, href, rel: LINK_REL }, content);
}

/** An `img` only for a sender's http(s) URL that the app's `image` option maps to a safe one. */
function imageSource(url: string, options: RenderOptions): string | undefined {
  const remote = safeImageUrl(url, false);
  return remote === undefined || options.image === undefined ? undefined : safeImageUrl(options.image(remote), true);
}

function inline(node: Inline, options: RenderOptions, inLink: boolean, out: HtmlWriter): void {
  switch (node.t) {
    case 'text':
      out.text(node.text);
      break;
    case 'br':
      out.element('br', {});
      break;
    case 'style':
      out.element(node.tag, {}, () => inlines(node.children, options, inLink, out));
      break;
    case 'link':
      linked(out, inLink ? undefined : safeLinkUrl(node.url), undefined, () =>
        inlines(node.children, options, true, out),
      );
      break;
    case 'mention': {
      const { text, url } = resolveMention(node, options);
      const classes: Classes = ['cw-mention', `cw-mention-${node.kind}`];
      const href = inLink ? undefined : safeLinkUrl(url, true);
      if (href === undefined) out.element('span', { class: classes }, () => out.text(text));
      else linked(out, href, classes, () => out.text(text));
      break;
    }
    case 'emoji': {
      const { text, url } = resolveEmoji(node, options);
      const src = safeImageUrl(url, true) ?? (node.url === undefined ? undefined : imageSource(node.url, options));
      if (src === undefined) out.element('span', { class: ['cw-emoji'] }, () => out.text(text));
      else out.element('img', { class: ['cw-emoji'], src, alt: text });
      break;
    }
    case 'date': {
      const href = inLink ? undefined : safeLinkUrl(node.url);
      const content = () => out.text(resolveDate(node, options));
      if (href === undefined) out.element('span', { class: ['cw-date'] }, content);
      else linked(out, href, ['cw-date'], content);
      break;
    }
    case 'color':
      out.element('span', { class: ['cw-color'] }, () => out.text(node.value));
      break;
    case 'image': {
      const src = imageSource(node.url, options);
      if (src === undefined) out.element('span', { class: ['cw-image-alt'] }, () => out.text(node.alt));
      else out.element('img', { class: ['cw-image'], src, alt: node.alt });
      break;
    }
  }
}

function inlines(nodes: Inline[], options: RenderOptions, inLink: boolean, out: HtmlWriter): void {
  for (const node of nodes) inline(node, options, inLink, out);
}

function block(node: Block, options: RenderOptions, out: HtmlWriter): void {
  switch (node.t) {
    case 'heading':
      out.element(`h${node.level}`, { class: node.classes }, () => inlines(node.children, options, false, out));
      break;
    case 'para':
      out.element('p', { class: node.classes }, () => inlines(node.children, options, false, out));
      break;
    case 'bare':
      inlines(node.children, options, false, out);
      break;
    case 'div':
      out.element('div', { class: node.classes }, () => blocks(node.children, options, out));
      break;
    case 'quote':
      out.element('blockquote', { class: node.classes }, () => blocks(node.children, options, out));
      break;
    case 'pre':
      out.element('pre', { class: node.classes }, () => inlines(node.children, options, false, out));
      break;
    case 'list':
      out.element(node.ordered ? 'ol' : 'ul', { class: node.classes, start: node.start }, () => {
        for (const item of node.items) out.element('li', {}, () => blocks(item, options, out));
      });
      break;
    case 'hr':
      out.element('hr', { class: node.classes });
      break;
  }
}

function blocks(nodes: Block[], options: RenderOptions, out: HtmlWriter): void {
  for (const node of nodes) block(node, options, out);
}

/** Renders the document model as an HTML fragment within `room`, made only of allow-listed elements. */
export function emitHtml(nodes: Block[], options: RenderOptions, room: Room): string {
  const out = createHtmlWriter(room);
  blocks(nodes, options, out);
  return out.finish();
}
