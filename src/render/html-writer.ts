import { attributesOf, type RenderAttributes, type RenderTag } from './allow-list.js';
import { escapeHtml, stripBidiControls } from './escape.js';
import { cutAt } from './output-limit.js';

const VOID_TAGS: ReadonlySet<RenderTag> = new Set(['br', 'hr', 'img']);
const CUT_MARK = '<p class="cw-truncated">…</p>';

/** Writes an HTML fragment within a size limit; past it, nothing more is written and a mark ends the fragment. */
export interface HtmlWriter {
  /** An allow-listed element, with `content` written inside it; left out whole when its tags do not fit. */
  element<T extends RenderTag>(tag: T, attributes: RenderAttributes<T>, content?: () => void): void;
  /** Text, escaped; cut where the limit falls. */
  text(value: string): void;
  /** The fragment, every element closed, with the cut mark when something was left out. */
  finish(): string;
}

// Every string from a message or a resolver is written here and only here: escaped, and without the
// direction controls that could make a label read as another.
const clean = (value: string): string => escapeHtml(stripBidiControls(value));

export function createHtmlWriter(limit: number): HtmlWriter {
  const parts: string[] = [];
  // A closing tag is paid for when its element opens, and the cut mark up front, so what was
  // opened can always be closed and marked without passing `limit`.
  let left = limit - CUT_MARK.length;
  let cut = false;
  return {
    element(tag, attributes, content) {
      if (cut) return;
      let open = `<${tag}`;
      for (const [name, value] of attributesOf(tag, attributes)) open += ` ${name}="${clean(value)}"`;
      open += '>';
      const close = VOID_TAGS.has(tag) ? '' : `</${tag}>`;
      if (open.length + close.length > left) {
        cut = true;
        return;
      }
      left -= open.length + close.length;
      parts.push(open);
      content?.();
      parts.push(close);
    },
    text(value) {
      if (cut) return;
      const escaped = clean(value);
      if (escaped.length > left) {
        cut = true;
        // An entity is never split: the cut falls before its `&`.
        const kept = cutAt(escaped, left);
        const amp = kept.lastIndexOf('&');
        parts.push(amp !== -1 && !kept.includes(';', amp) ? kept.slice(0, amp) : kept);
        return;
      }
      left -= escaped.length;
      parts.push(escaped);
    },
    finish: () => parts.join('') + (cut ? CUT_MARK : ''),
  };
}
