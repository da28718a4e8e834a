import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { toHtml, toPlainText } from '../../src/render/index.js';

// docs/rendering.md shows messages (```json) each followed by the exact HTML it renders as
// (```html): render them and compare, so the page stays true.
async function examples(): Promise<{ json: string; html: string }[]> {
  const readme = await readFile(new URL('../../docs/rendering.md', import.meta.url), 'utf8');
  const start = readme.indexOf('## What each block renders as');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```json\n([\s\S]*?)```\s*```html\n([\s\S]*?)\n```/g)].map(([, json, html]) => ({
    json: json!,
    html: html!,
  }));
}

describe('docs/rendering.md examples', () => {
  it('shows every block type', async () => {
    const types = (await examples()).flatMap(({ json }) =>
      (JSON.parse(json) as { blocks: { type: string }[] }).blocks.map((block) => block.type),
    );
    expect(new Set(types)).toEqual(new Set(['header', 'section', 'markdown', 'divider', 'context', 'rich_text']));
  });

  it('shows the exact HTML each renders as', async () => {
    const found = await examples();
    expect(found.length).toBe(7);
    for (const { json, html } of found)
      expect(toHtml(JSON.parse(json) as { body: string; blocks: unknown[] })).toBe(html);
  });

  it('shows the plain text of the rich_text example', async () => {
    const last = (await examples()).at(-1)!;
    expect(toPlainText(JSON.parse(last.json) as { body: string; blocks: unknown[] })).toBe(
      'Hi @U1@here\n  1. one (https://example.com)\nFeb 18, 2014\nnpm test',
    );
  });
});
