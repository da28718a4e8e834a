import type { RenderClassName } from './allow-list.js';

// The one document model every input (mrkdwn, CommonMark, rich_text, plain_text) is read into. Both
// renderers walk only this model, so no input string ever reaches the output except through them.

export type StyleTag = 'strong' | 'em' | 's' | 'code' | 'u' | 'mark';

export type MentionKind = 'user' | 'channel' | 'usergroup' | 'broadcast';
type Classes = readonly RenderClassName[];

export type Inline =
  | { t: 'text'; text: string }
  | { t: 'br' }
  | { t: 'style'; tag: StyleTag; children: Inline[] }
  | { t: 'link'; url: string; children: Inline[] }
  | { t: 'mention'; kind: MentionKind; id: string; label?: string }
  | { t: 'emoji'; name: string; unicode?: string; url?: string }
  | { t: 'date'; timestamp: number; format: string; fallback?: string; url?: string; timezone?: string }
  | { t: 'color'; value: string }
  | { t: 'image'; url: string; alt: string };

export type Block =
  | { t: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; classes?: Classes; children: Inline[] }
  | { t: 'para'; classes?: Classes; children: Inline[] }
  /** Inline content without a paragraph of its own (a tight list item's text). */
  | { t: 'bare'; children: Inline[] }
  | { t: 'div'; classes: Classes; children: Block[]; row?: boolean }
  | { t: 'quote'; classes: Classes; children: Block[] }
  | { t: 'pre'; classes: Classes; children: Inline[] }
  | { t: 'list'; ordered: boolean; start?: number; indent?: number; classes?: Classes; items: Block[][] }
  | { t: 'hr'; classes?: Classes };

export const text = (value: string): Inline => ({ t: 'text', text: value });

/** Splits text at line breaks into text and `br` nodes. */
export function lines(value: string): Inline[] {
  const out: Inline[] = [];
  value.split('\n').forEach((part, index) => {
    if (index > 0) out.push({ t: 'br' });
    if (part !== '') out.push(text(part));
  });
  return out;
}
