import { attributesOf, type RenderAttributes, type RenderTag } from './allow-list.js';
import { escapeHtml } from './escape.js';
import { cutAt, type Room } from './output-limit.js';

const VOID_TAGS: ReadonlySet<RenderTag> = new Set(['br', 'hr', 'img']);
/** Ends a fragment that was cut; its room is kept free from the start. */
export const HTML_CUT_MARK = '<p class="cw-truncated">…</p>';

/** Writes an HTML fragment within a size limit; past it, nothing more is written and a mark ends the fragment. */
export interface HtmlWriter {
  /** An allow-listed element, with `content` written inside it; left out whole when its tags do not fit. */
  element<T extends RenderTag>(tag: T, attributes: RenderAttributes<T>, content?: () => void): void;
  /** Text, escaped; cut where the limit falls. */
  text(value: string): void;
  /** The fragment, every element closed, with the cut mark when something was left out. */
  finish(): string;
}

/**
 * The one place strings from a message or a resolver reach the HTML: each is escaped and loses its
 * direction controls, and the fragment never takes more than `room` (which must keep
 * {@link HTML_CUT_MARK}'s length free).
 */
export function createHtmlWriter(room: Room): HtmlWriter {
  const parts: string[] = [];
  // A closing tag is paid for when its element opens, so what was opened can always be closed.
  let cut = false;
  return {
    element(tag, attributes, content) {
      if (cut) return;
      let open = `<${tag}`;
      for (const [name, value] of attributesOf(tag, attributes)) open += ` ${name}="${escapeHtml(value)}"`;
      open += '>';
      const close = VOID_TAGS.has(tag) ? '' : `</${tag}>`;
      if (!room.take(open.length + close.length)) {
        cut = true;
        return;
      }
      parts.push(open);
      content?.();
      parts.push(close);
    },
    text(value) {
      if (cut) return;
      const escaped = escapeHtml(value);
      if (room.take(escaped.length)) {
        parts.push(escaped);
        return;
      }
      cut = true;
      // An entity is never split: the cut falls before its `&`.
      const kept = cutAt(escaped, room.left);
      const amp = kept.lastIndexOf('&');
      parts.push(amp !== -1 && !kept.includes(';', amp) ? kept.slice(0, amp) : kept);
    },
    finish: () => parts.join('') + (cut ? HTML_CUT_MARK : ''),
  };
}
