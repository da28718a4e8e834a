import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// render.css, the stylesheet shipped for what toHtml writes: it styles every class of the set
// toHtml may write (RenderClassName, read from its declaration), in light and dark, and reads only
// the custom properties its opening comment names. How it looks is render-stylesheet.browser.test.ts.
const CSS = readFileSync(new URL('../../src/render/render.css', import.meta.url), 'utf8');
const ALLOW_LIST = readFileSync(new URL('../../src/render/allow-list.ts', import.meta.url), 'utf8');

/** The classes of the RenderClassName union, its template literals spelled out. */
function renderClassNames(): string[] {
  const union = /export type RenderClassName =([\s\S]*?);/.exec(ALLOW_LIST)![1]!;
  const kinds = /type MentionKind = ([^;]+);/
    .exec(ALLOW_LIST)![1]!
    .match(/'[^']+'/g)!
    .map((kind) => kind.slice(1, -1));
  const names = [...union.matchAll(/'(cw-[a-z-]+)'/g)].map(([, name]) => name!);
  const indents = /`cw-list-indent-\$\{([\d |]+)\}`/
    .exec(union)![1]!
    .split('|')
    .map((digit) => digit.trim());
  expect(union).toMatch(/`cw-mention-\$\{MentionKind\}`/);
  return [...names, ...indents.map((digit) => `cw-list-indent-${digit}`), ...kinds.map((kind) => `cw-mention-${kind}`)];
}

const comment = /^\/\*([\s\S]*?)\*\//.exec(CSS)![1]!;
const rules = CSS.slice(CSS.indexOf('*/') + 2);
const privateDefaults = (block: string) => new Set([...block.matchAll(/(--_cw-[a-z]+):/g)].map(([, name]) => name!));

describe('render.css', () => {
  it('styles every class toHtml may write, and names no other', () => {
    const names = renderClassNames();
    expect(names.length).toBeGreaterThan(30);
    const styled = new Set([...rules.matchAll(/\.(cw-[a-z0-9-]+)/g)].map(([, name]) => name!));
    // A person, a channel and a group are shown alike, by .cw-mention; only a broadcast differs.
    const alike = ['cw-mention-user', 'cw-mention-channel', 'cw-mention-usergroup'];
    expect(names.filter((name) => !styled.has(name) && !alike.includes(name))).toEqual([]);
    expect([...styled].filter((name) => !names.includes(name))).toEqual([]);
  });

  it('reads only the custom properties it names, and has a light and a dark default for each colour', () => {
    const read = new Set([...rules.matchAll(/var\((--cw-[a-z-]+)/g)].map(([, name]) => name!));
    const named = new Set([...comment.matchAll(/^\s*\*\s+(--cw-[a-z-]+)\s/gm)].map(([, name]) => name!));
    expect([...read].sort()).toEqual([...named].sort());
    const dark = /@media \(prefers-color-scheme: dark\) \{\s*:root \{([^}]*)\}/.exec(rules)![1]!;
    const light = /^\s*:root \{([^}]*)\}/.exec(rules)![1]!;
    const used = new Set([...rules.matchAll(/var\(--cw-[a-z-]+, var\((--_cw-[a-z]+)\)\)/g)].map(([, name]) => name!));
    expect([...privateDefaults(light)].sort()).toEqual([...used].sort());
    expect([...privateDefaults(dark)].sort()).toEqual([...used].sort());
  });

  it('loads nothing and styles nothing outside the cw-* classes', () => {
    expect(rules).not.toMatch(/url\(|@import/);
    // Every selector is a :root for the defaults, or starts inside a :where() of cw-* classes.
    const selectors = rules
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/@media[^{]+\{\s*(:root \{[^}]*\})\s*\}/g, '$1')
      .replace(/\{[^}]*\}/g, '\n')
      .split(/\n|,(?![^(]*\))/)
      .map((selector) => selector.trim())
      .filter((selector) => selector !== '');
    expect(selectors.filter((selector) => selector !== ':root' && !/^:where\([a-z]*\.cw-/.test(selector))).toEqual([]);
  });
});
