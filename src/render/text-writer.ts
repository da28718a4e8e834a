import { stripBidiControls } from './escape.js';
import { cutAt, type Room } from './output-limit.js';

/** Ends a text that was cut; its room is kept free from the start. */
export const TEXT_CUT_MARK = '…';

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
  /** What is left to write in. */
  readonly room: Room;
  /** The text, with the cut mark when something was left out. */
  finish(): string;
}

/** Text within `room` (which must keep {@link TEXT_CUT_MARK}'s length free), without direction controls, indented where the renderer asks. */
export function createTextWriter(room: Room): TextWriter {
  const parts: string[] = [];
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
      const kept = room.take(written.length) ? written : cutAt(written, room.left);
      cut = kept !== written;
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
    room,
    finish: () => parts.join('') + (cut ? TEXT_CUT_MARK : ''),
  };
}
