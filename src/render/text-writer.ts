import { stripBidiControls } from './escape.js';
import { cutAt } from './output-limit.js';

const CUT_MARK = '…';

/** Writes plain text within a size limit; past it, nothing more is written and a mark ends the text. */
export interface TextWriter {
  /** Text; each line break in it continues at the current indentation. Cut where the limit falls. */
  text(value: string): void;
  /** Writes `separator` before the next text, if any comes before {@link drop}. */
  separate(separator: string): void;
  /** Forgets a separator not yet written. */
  drop(): void;
  /** Writes what `content` writes with `prefix` added after each of its line breaks. */
  indented(prefix: string, content: () => void): void;
  /** Characters written so far, to tell whether a part wrote anything. */
  readonly size: number;
  /** Characters that may still be written. */
  readonly left: number;
  /** The text, with the cut mark when something was left out. */
  finish(): string;
}

export function createTextWriter(limit: number): TextWriter {
  const parts: string[] = [];
  let left = limit - CUT_MARK.length;
  let size = 0;
  let cut = false;
  let indent = '';
  let separator = '';
  return {
    text(value) {
      if (cut || value === '') return;
      const lines = `${separator}${stripBidiControls(value)}`;
      separator = '';
      const written = indent === '' ? lines : lines.replaceAll('\n', `\n${indent}`);
      const kept = written.length > left ? cutAt(written, left) : written;
      cut = kept !== written;
      left -= kept.length;
      size += kept.length;
      parts.push(kept);
    },
    separate(value) {
      separator = value;
    },
    drop() {
      separator = '';
    },
    indented(prefix, content) {
      const outer = indent;
      indent += prefix;
      content();
      indent = outer;
    },
    get size() {
      return size;
    },
    get left() {
      return left;
    },
    finish: () => parts.join('') + (cut ? CUT_MARK : ''),
  };
}
