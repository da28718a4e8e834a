import { LINK_REL } from './allow-list.js';
import type { Block, Inline } from './ast.js';
import { escapeHtml, stripBidiControls } from './escape.js';
import { resolveDate, resolveEmoji, resolveMention } from './resolve.js';
import type { RenderOptions } from './render-types.js';
import { safeImageUrl, safeLinkUrl } from './safe-url.js';

// Every tag and attribute name below is a literal; every value that came from a message or a
// resolver goes through escapeHtml, and every URL through safeLinkUrl or safeImageUrl first.

const anchor = (href: string, className: string | undefined, content: string): string =>
  `<a${className === undefined ? '' : ` class="${className}"`} href="${escapeHtml(href)}" rel="${LINK_REL}">${content}</a>`;

/** An `img` only for a sender's http(s) URL that the app's `image` option maps to a safe one. */
function imageTag(url: string, className: string, alt: string, options: RenderOptions): string | undefined {
  const remote = safeImageUrl(url, false);
  const src = remote === undefined || options.image === undefined ? undefined : safeImageUrl(options.image(remote), true);
  return src === undefined ? undefined : `<img class="${className}" src="${escapeHtml(src)}" alt="${escapeHtml(alt)}">`;
}

function inline(node: Inline, options: RenderOptions, inLink: boolean): string {
  switch (node.t) {
    case 'text':
      return escapeHtml(node.text);
    case 'br':
      return '<br>';
    case 'style':
      return `<${node.tag}>${inlines(node.children, options, inLink)}</${node.tag}>`;
    case 'link': {
      const href = safeLinkUrl(node.url);
      const content = inlines(node.children, options, true);
      return href === undefined || inLink ? content : anchor(href, undefined, content);
    }
    case 'mention': {
      const { text, url } = resolveMention(node, options);
      const className = `cw-mention cw-mention-${node.kind}`;
      const href = inLink ? undefined : safeLinkUrl(url);
      return href === undefined ? `<span class="${className}">${escapeHtml(text)}</span>` : anchor(href, className, escapeHtml(text));
    }
    case 'emoji': {
      const { text, url } = resolveEmoji(node, options);
      const own = safeImageUrl(url, true);
      if (own !== undefined) return `<img class="cw-emoji" src="${escapeHtml(own)}" alt="${escapeHtml(text)}">`;
      const proxied = node.url === undefined ? undefined : imageTag(node.url, 'cw-emoji', text, options);
      return proxied ?? `<span class="cw-emoji">${escapeHtml(text)}</span>`;
    }
    case 'date': {
      const text = escapeHtml(resolveDate(node, options));
      const href = inLink ? undefined : safeLinkUrl(node.url);
      return href === undefined ? `<span class="cw-date">${text}</span>` : anchor(href, 'cw-date', text);
    }
    case 'color':
      return `<span class="cw-color">${escapeHtml(node.value)}</span>`;
    case 'image':
      return imageTag(node.url, 'cw-image', node.alt, options) ?? `<span class="cw-image-alt">${escapeHtml(node.alt)}</span>`;
  }
}

function inlines(nodes: Inline[], options: RenderOptions, inLink: boolean): string {
  return nodes.map((node) => inline(node, options, inLink)).join('');
}

/** A link label loses its bidi controls; other text keeps them. */
function labelSafe(nodes: Inline[]): Inline[] {
  return nodes.map((node): Inline => {
    if (node.t === 'link') return { ...node, children: node.children.map(stripLabel) };
    if (node.t === 'style') return { ...node, children: labelSafe(node.children) };
    return node;
  });
}

function stripLabel(node: Inline): Inline {
  if (node.t === 'text') return { t: 'text', text: stripBidiControls(node.text) };
  if (node.t === 'style') return { ...node, children: node.children.map(stripLabel) };
  return node;
}

const classAttribute = (className: string | undefined): string => (className === undefined ? '' : ` class="${className}"`);

function block(node: Block, options: RenderOptions): string {
  switch (node.t) {
    case 'heading':
      return `<h${node.level}${classAttribute(node.className)}>${inlines(labelSafe(node.children), options, false)}</h${node.level}>`;
    case 'para':
      return `<p${classAttribute(node.className)}>${inlines(labelSafe(node.children), options, false)}</p>`;
    case 'bare':
      return inlines(labelSafe(node.children), options, false);
    case 'div':
      return `<div class="${node.className}">${blocks(node.children, options)}</div>`;
    case 'quote':
      return `<blockquote class="${node.className}">${blocks(node.children, options)}</blockquote>`;
    case 'pre':
      return `<pre class="${node.className}">${inlines(labelSafe(node.children), options, false)}</pre>`;
    case 'list': {
      const tag = node.ordered ? 'ol' : 'ul';
      const start = node.start === undefined ? '' : ` start="${node.start}"`;
      const items = node.items.map((item) => `<li>${blocks(item, options)}</li>`).join('');
      return `<${tag}${classAttribute(node.className)}${start}>${items}</${tag}>`;
    }
    case 'hr':
      return `<hr${classAttribute(node.className)}>`;
  }
}

/** Renders the document model as an HTML fragment made only of allow-listed tags and attributes. */
export function blocks(nodes: Block[], options: RenderOptions): string {
  return nodes.map((node) => block(node, options)).join('');
}
