import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toHtml, toPlainText } from '../../src/render/index.js';
import { setup } from '../support/setup.js';
import { htmlFindings } from './html-check.js';

// Real Block Kit payloads written outside this project (sources in its SOURCES.md); those the
// contract accepts are rendered.
const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'blockkit');
const files = readdirSync(CORPUS)
  .filter((name) => name.endsWith('.json'))
  .sort();
const rendered = new Set<string>();

describe('Block Kit corpus payloads the contract accepts', () => {
  it.each(files)('%s renders allow-listed HTML and its words as text', async (name) => {
    const payload = JSON.parse(readFileSync(join(CORPUS, name), 'utf8')) as { text?: string; blocks?: unknown[] };
    const world = await setup();
    const response = await world.post(payload);
    if (response.status !== 201) {
      expect(response.status).toBe(400);
      return;
    }
    rendered.add(name);
    const message = world.delivered[0]!;
    const html = toHtml(message, { image: (url) => `/image-proxy?url=${encodeURIComponent(url)}` });
    expect(htmlFindings(html), html).toEqual([]);
    expect(html).not.toBe('');
    const text = toPlainText(message);
    expect(text.trim()).not.toBe('');
    // Every header and plain_text word reaches the text read from the blocks.
    const fromBlocks = toPlainText({ body: '', blocks: message.blocks });
    for (const block of message.blocks as { type: string; text?: { text?: string } }[]) {
      if (block.type !== 'header') continue;
      for (const word of block.text?.text?.match(/[\p{L}\p{N}]+/gu) ?? []) expect(fromBlocks).toContain(word);
    }
  });

  // Runs after the payloads above (tests in a file run in order): 21 of the 60 are accepted today.
  it('rendered at least 20 accepted payloads', () => {
    expect(rendered.size).toBeGreaterThanOrEqual(20);
  });
});
