import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RenderOptions, toHtml, toPlainText } from '../../src/render/index.js';
import { hostileString, node, render, validPayload } from '../hardening/arbitraries.js';
import { htmlFindings } from './html-check.js';
import { XSS_STRINGS, XSS_URLS } from './xss-vectors.js';

const SEED = 20_260_101;
const asMessage = (payload: { text?: string; blocks?: unknown[] }) => ({
  body: payload.text ?? '',
  blocks: payload.blocks ?? [],
});
const proxy: RenderOptions = { image: (url) => `/image-proxy?url=${encodeURIComponent(url)}` };

// ---- Hostile content in every position the blocks have -------------------------------------

const hostile = fc.oneof(hostileString, fc.constantFrom(...XSS_STRINGS), fc.constantFrom(...XSS_URLS));
const hostileInline = fc.oneof(
  fc.record({
    type: fc.constant('text'),
    text: hostile,
    style: fc.record({ bold: fc.boolean(), code: fc.boolean(), unlink: fc.boolean() }),
  }),
  fc.record({ type: fc.constant('link'), url: hostile, text: hostile }),
  fc.record({ type: fc.constant('emoji'), name: hostile, unicode: hostile, url: hostile }),
  fc.record({ type: fc.constant('user'), user_id: hostile }),
  fc.record({
    type: fc.constant('date'),
    timestamp: fc.integer({ min: 0, max: 2 ** 40 }),
    format: hostile,
    url: hostile,
    fallback: hostile,
  }),
  fc.record({ type: fc.constant('color'), value: hostile }),
);
const hostileBlock = fc.oneof(
  fc.record({ type: fc.constant('header'), text: fc.record({ type: fc.constant('plain_text'), text: hostile }) }),
  fc.record({
    type: fc.constant('section'),
    text: fc.record({ type: fc.constantFrom('mrkdwn', 'plain_text'), text: hostile }),
  }),
  fc.record({ type: fc.constant('markdown'), text: hostile }),
  fc.record({
    type: fc.constant('context'),
    elements: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('mrkdwn'), text: hostile }),
        fc.record({ type: fc.constant('image'), image_url: hostile, alt_text: hostile }),
      ),
      { maxLength: 3 },
    ),
  }),
  fc.record({
    type: fc.constant('rich_text'),
    elements: fc.array(
      fc.record({
        type: fc.constantFrom('rich_text_section', 'rich_text_quote', 'rich_text_preformatted'),
        elements: fc.array(hostileInline, { maxLength: 4 }),
        border: fc.constantFrom(0, 1),
      }),
      { maxLength: 3 },
    ),
  }),
  fc.record({
    type: fc.constant('rich_text'),
    elements: fc.tuple(
      fc.record({
        type: fc.constant('rich_text_list'),
        style: fc.constantFrom('bullet', 'ordered'),
        indent: fc.integer({ min: -2, max: 20 }),
        offset: fc.integer({ min: -2, max: 1e9 }),
        elements: fc.array(
          fc.record({ type: fc.constant('rich_text_section'), elements: fc.array(hostileInline, { maxLength: 3 }) }),
          { maxLength: 3 },
        ),
      }),
    ),
  }),
);

describe('toHtml is safe for any input', () => {
  // Rule: for every body the library accepts, the HTML holds only allow-listed elements and
  // attributes, no event handler, and no URL other than http(s), mailto or a same-origin path.
  it('for accepted bodies', () => {
    fc.assert(
      fc.property(validPayload, (payload) => {
        for (const options of [{}, proxy]) expect(htmlFindings(toHtml(asMessage(payload), options))).toEqual([]);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  // Rule: the same holds with hostile strings and URLs in every field (what a store written by
  // something else could hold), with an app that passes every image URL through unchanged.
  it('for hostile blocks and text', () => {
    fc.assert(
      fc.property(fc.array(hostileBlock, { maxLength: 4 }), hostile, (blocks, body) => {
        for (const options of [{}, proxy, { image: (url: string) => url }]) {
          expect(htmlFindings(toHtml({ body, blocks }, options))).toEqual([]);
          expect(htmlFindings(toHtml({ body, blocks: [] }, options))).toEqual([]);
        }
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  // Rule: any JSON at all as blocks renders without throwing, and safely.
  it('for arbitrary JSON blocks', () => {
    fc.assert(
      fc.property(fc.array(node, { maxLength: 4 }), (trees) => {
        const blocks = trees.flatMap((tree) => {
          try {
            return [JSON.parse(render(tree)) as unknown];
          } catch {
            return [];
          }
        });
        expect(htmlFindings(toHtml({ body: '', blocks }, proxy))).toEqual([]);
        expect(typeof toPlainText({ body: '', blocks })).toBe('string');
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

// ---- Visible words ---------------------------------------------------------------------------

const word = fc.stringMatching(/^[a-z]{1,8}$/);
const mrkdwnWord = fc
  .tuple(
    word,
    fc.constantFrom('plain', 'bold', 'italic', 'strike', 'code', 'link', 'channel', 'quote', 'fence', 'entity'),
  )
  .map(([w, how]) => {
    const text = {
      plain: w,
      bold: `*${w}*`,
      italic: `_${w}_`,
      strike: `~${w}~`,
      code: `\`${w}\``,
      link: `<https://example.com|${w}>`,
      channel: `<#C1|${w}>`,
      quote: `\n> ${w}\n`,
      fence: `\n\`\`\`${w}\`\`\`\n`,
      entity: `&lt;${w}&gt;`,
    }[how];
    return { text, word: w };
  });
const markdownWord = fc
  .tuple(word, fc.constantFrom('plain', 'strong', 'em', 'strike', 'code', 'link', 'heading', 'item', 'quote'))
  .map(([w, how]) => {
    const text = {
      plain: w,
      strong: `**${w}**`,
      em: `_${w}_`,
      strike: `~~${w}~~`,
      code: `\`${w}\``,
      link: `[${w}](https://example.com)`,
      heading: `\n\n# ${w}\n\n`,
      item: `\n\n- ${w}\n\n`,
      quote: `\n\n> ${w}\n\n`,
    }[how];
    return { text, word: w };
  });
const richWord = fc.tuple(word, fc.constantFrom('text', 'bold', 'link')).map(([w, how]) => ({
  element:
    how === 'link'
      ? { type: 'link', url: 'https://example.com', text: w }
      : { type: 'text', text: `${w} `, style: { bold: how === 'bold' } },
  word: w,
}));

type Worded = { block: unknown; words: string[] };
const wordedBlock: fc.Arbitrary<Worded> = fc.oneof(
  fc.array(mrkdwnWord, { minLength: 1, maxLength: 6 }).map((parts) => ({
    block: { type: 'section', text: { type: 'mrkdwn', text: parts.map((p) => p.text).join(' ') } },
    words: parts.map((p) => p.word),
  })),
  fc.array(markdownWord, { minLength: 1, maxLength: 6 }).map((parts) => ({
    block: { type: 'markdown', text: parts.map((p) => p.text).join(' ') },
    words: parts.map((p) => p.word),
  })),
  fc
    .array(word, { minLength: 1, maxLength: 4 })
    .map((words) => ({ block: { type: 'header', text: { type: 'plain_text', text: words.join(' ') } }, words })),
  fc.array(mrkdwnWord, { minLength: 1, maxLength: 3 }).map((parts) => ({
    block: { type: 'context', elements: parts.map((p) => ({ type: 'mrkdwn', text: p.text })) },
    words: parts.map((p) => p.word),
  })),
  fc
    .tuple(
      fc.constantFrom('rich_text_section', 'rich_text_quote', 'rich_text_preformatted', 'rich_text_list'),
      fc.array(richWord, { minLength: 1, maxLength: 4 }),
    )
    .map(([type, parts]) => {
      const elements = parts.map((p) => p.element);
      const element =
        type === 'rich_text_list'
          ? { type, style: 'ordered', elements: [{ type: 'rich_text_section', elements }] }
          : { type, elements };
      return { block: { type: 'rich_text', elements: [element] }, words: parts.map((p) => p.word) };
    }),
);

const wordsOf = (text: string): Set<string> => new Set(text.match(/[a-z]+/g) ?? []);

describe('toPlainText keeps every visible word', () => {
  // Rule: every word a reader sees in the blocks is a word of the plain text, whatever syntax
  // (mrkdwn, markdown or rich_text styling) surrounds it.
  it('of the blocks', () => {
    fc.assert(
      fc.property(fc.array(wordedBlock, { minLength: 1, maxLength: 5 }), (worded) => {
        const text = toPlainText({ body: '', blocks: worded.map((w) => w.block) });
        const seen = wordsOf(text);
        for (const w of worded.flatMap((b) => b.words)) expect(seen, text).toContain(w);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  // Rule: the body, when there is one, is what is read, its mrkdwn reduced to its words.
  it('of the body', () => {
    fc.assert(
      fc.property(fc.array(mrkdwnWord, { minLength: 1, maxLength: 8 }), (parts) => {
        const text = toPlainText({
          body: parts.map((p) => p.text).join(' '),
          blocks: [{ type: 'markdown', text: 'ignored' }],
        });
        const seen = wordsOf(text);
        for (const p of parts) expect(seen, text).toContain(p.word);
        expect(seen.has('ignored') && !parts.some((p) => p.word === 'ignored')).toBe(false);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe('output is deterministic and bounded', () => {
  // Rule: the same message renders the same way twice, and the output grows at most linearly with
  // the message.
  it('for accepted bodies', () => {
    fc.assert(
      fc.property(validPayload, (payload) => {
        const message = asMessage(payload);
        const size = JSON.stringify(message).length;
        const html = toHtml(message);
        const text = toPlainText(message);
        expect(toHtml(message)).toBe(html);
        expect(toPlainText(message)).toBe(text);
        expect(html.length).toBeLessThanOrEqual(40 * size + 100);
        expect(text.length).toBeLessThanOrEqual(8 * size + 100);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it.each([
    ['emphasis markers', '*_~'.repeat(3_400)],
    ['unclosed openers', '*a _b ~c '.repeat(1_100)],
    ['angle brackets', '<'.repeat(10_000)],
    ['backticks', '`a'.repeat(5_000)],
    ['fences', '```\n'.repeat(2_500)],
    ['quotes', '&gt; *a*\n'.repeat(1_100)],
    ['emoji colons', ':a'.repeat(5_000)],
  ])('renders 10,000 characters of %s in linear time', (_, body) => {
    const started = performance.now();
    const html = toHtml({ body, blocks: [] });
    toPlainText({ body, blocks: [] });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(htmlFindings(html)).toEqual([]);
  });

  // markdown-it's own worst cases, at the contract's 12,000-character markdown limit.
  it.each([
    ['emphasis', '*_'.repeat(6_000)],
    ['link openers', '[a]('.repeat(3_000)],
    ['nested lists', Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i % 40)}- x`).join('\n')],
    ['brackets', '['.repeat(12_000)],
    ['reference definitions', '[a]: <'.repeat(2_000)],
  ])('renders a 12,000-character markdown block of %s in bounded time', (_, text) => {
    const started = performance.now();
    const html = toHtml({ body: '', blocks: [{ type: 'markdown', text }] });
    toPlainText({ body: '', blocks: [{ type: 'markdown', text }] });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(htmlFindings(html)).toEqual([]);
  });
});
