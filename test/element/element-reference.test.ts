import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PART_NAMES } from '../../src/element/part-names.js';
import { SETTINGS_EVENTS } from '../../src/element/settings-events.js';
import { SETTINGS_CSS } from '../../src/element/settings-styles.js';

// Rule: the element's class comment (what an editor shows of it, and the API reference) lists its
// parts, custom properties and events, and the guide lists the same: exactly the part names the
// markup may give (`h()` takes no other), the `--cw-*` properties its stylesheet reads, and the
// events it dispatches and declares on HTMLElementEventMap. None can be added, renamed or dropped
// in one place only.
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

function classComment(): string {
  const source = read('src/element/settings-element.ts');
  const at = source.indexOf('export class ChannelWebhooksSettings');
  const start = source.lastIndexOf('/**', at);
  expect(source.slice(source.indexOf('*/', start) + 2, at).trim()).toBe('');
  return source.slice(start, at);
}

/** The first group of every match of `pattern` in `text`. */
const names = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((match) => match[1] ?? '');

/** The names of the class comment's list that follows the line starting with `lead`, up to a blank line after it. */
function listed(comment: string, lead: string): string[] {
  const start = comment.indexOf(`\n * ${lead}`);
  expect(start).toBeGreaterThan(-1);
  const list = comment.slice(comment.indexOf('\n * - ', start));
  return names(list.slice(0, list.indexOf('\n *\n')), /^ \* - `([^`]+)`: \S/gm);
}

/** The lines of the guide's section `heading`, up to the next section. */
function guideSection(heading: string): string {
  const guide = read('docs/settings-element.md');
  const start = guide.indexOf(`\n## ${heading}\n`);
  expect(start).toBeGreaterThan(-1);
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end === -1 ? undefined : end);
}

const sorted = (names: Iterable<string>) => [...names].sort();

describe("the element's reference lists", () => {
  const comment = classComment();

  it('parts: the class comment and the guide list every part name the markup may give', () => {
    const theming = guideSection('Theming');
    const shapes = theming.slice(
      theming.indexOf('Shapes come from `::part()`:') + 'Shapes come from `::part()`:'.length,
    );
    const paragraph = shapes.slice(0, shapes.indexOf('\n\n'));
    const inGuide = names(paragraph, /`([\w-]+)`/g);

    expect(new Set(PART_NAMES).size).toBe(PART_NAMES.length);
    expect(listed(comment, 'Its parts')).toEqual([...PART_NAMES]);
    expect(sorted(inGuide)).toEqual(sorted(PART_NAMES));
  });

  it('custom properties: the class comment and the guide list every --cw-* property the stylesheet reads', () => {
    const used = new Set(names(SETTINGS_CSS, /var\((--cw-[\w-]+)/g));
    const table = guideSection('Theming')
      .split('\n')
      .filter((line) => line.startsWith('| `--cw-'))
      .map((line) => line.split('|')[1]);
    const inGuide = table.flatMap((cell) => names(cell ?? '', /`(--cw-[\w-]+)`/g));

    expect(used.size).toBeGreaterThan(0);
    expect(sorted(listed(comment, 'Its custom properties'))).toEqual(sorted(used));
    expect(sorted(inGuide)).toEqual(sorted(used));
  });

  it('events: the class comment, the guide and HTMLElementEventMap name the events the element dispatches', () => {
    const table = guideSection('Events')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => /^\| `([\w-]+)`/.exec(line)?.[1]);
    const index = read('src/element/index.ts');
    const eventMap = index.slice(index.indexOf('interface HTMLElementEventMap'));
    const declared = names(eventMap.slice(0, eventMap.indexOf('}')), /'([\w-]+)': CustomEvent<WebhookEventDetail>/g);

    expect(listed(comment, 'Its events')).toEqual([...SETTINGS_EVENTS]);
    expect(table).toEqual([...SETTINGS_EVENTS]);
    expect(declared).toEqual([...SETTINGS_EVENTS]);
  });
});
