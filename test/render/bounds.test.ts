import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/ports.js';
import { type RenderOptions, toHtml, toPlainText } from '../../src/render/index.js';
import { bodyBytes, createAcceptor, MAX_BODY_BYTES, type Payload } from './accepted.js';
import { htmlFindings } from './html-check.js';

// The render guarantees SECURITY.md states: for every message the handler accepts, both functions
// return a string of at most PER_CHARACTER × the message's size (body plus blocks as JSON) + FLOOR
// characters. Their time is not held to a figure here: on a loaded machine a wall-clock bound fails
// for want of a core, not of a bound, and a render that blows up still fails, at the test's time-out.
const HTML_PER_CHARACTER = 16;
const TEXT_PER_CHARACTER = 8;
const FLOOR = 8_192;
const SEED = 20_261_125;

const sizeOf = (message: Pick<Message, 'body' | 'blocks'>): number =>
  message.body.length + JSON.stringify(message.blocks).length;
const proxy: RenderOptions = { image: (url) => `/image-proxy?url=${encodeURIComponent(url)}` };
// An app whose resolvers return far more than the message holds: the bound holds all the same.
const generous: RenderOptions = {
  ...proxy,
  mention: ({ id }) => ({
    text: `@${'n'.repeat(200)}`,
    url: `https://chat.example.com/people/${id}?${'q'.repeat(1_000)}`,
  }),
  emoji: () => 'e'.repeat(200),
  date: () => 'd'.repeat(200),
};

interface Rendered {
  html: string;
  text: string;
}

function render(message: Pick<Message, 'body' | 'blocks'>, options: RenderOptions = {}): Rendered {
  return { html: toHtml(message, options), text: toPlainText(message, options) };
}

function expectBounded(message: Pick<Message, 'body' | 'blocks'>, { html, text }: Rendered): void {
  const size = sizeOf(message);
  expect(html.length).toBeLessThanOrEqual(HTML_PER_CHARACTER * size + FLOOR);
  expect(text.length).toBeLessThanOrEqual(TEXT_PER_CHARACTER * size + FLOOR);
  expect(htmlFindings(html)).toEqual([]);
}

const markdown = (text: string): Payload => ({ blocks: [{ type: 'markdown', text }] });
const section = (text: string): Payload => ({ blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
const lines = (count: number, line: (index: number) => string): string =>
  Array.from({ length: count }, (_, index) => line(index)).join('\n');

let accept: Awaited<ReturnType<typeof createAcceptor>>;
beforeAll(async () => {
  accept = await createAcceptor();
});

describe('a message nested as deep as the limits allow', () => {
  it.each([
    ['emphasis', markdown(`${'*'.repeat(5_000)}a${'*'.repeat(5_000)}`)],
    ['blockquotes', markdown(`${'>'.repeat(11_000)} a`)],
    ['lists', markdown(`${'- '.repeat(5_000)}a`)],
  ])('of markdown %s is stored, then renders (it overflowed the stack)', async (_, payload) => {
    const message = await accept(payload);
    expect(message).toBeDefined();
    const rendered = render(message!);
    expectBounded(message!, rendered);
    expect(rendered.text).toContain('a');
  });

  // Rule: nesting of every kind (markdown emphasis, strike, links, quotes, lists, mrkdwn markers,
  // rich_text styles and lists), up to the body and field limits, renders within the bounds, and
  // the word at the deepest level is still read.
  const shapes: Record<string, { max: number; build: (word: string, depth: number) => Payload }> = {
    'markdown emphasis': { max: 5_990, build: (w, n) => markdown(`${'*'.repeat(n)}${w}${'*'.repeat(n)}`) },
    'markdown strong and em': { max: 1_990, build: (w, n) => markdown(`${'**_'.repeat(n)}${w}${'_**'.repeat(n)}`) },
    // After a word, so that the tildes never open a code fence.
    'markdown strike': { max: 2_990, build: (w, n) => markdown(`x ${'~~'.repeat(n)}${w}${'~~'.repeat(n)}`) },
    'markdown links': {
      max: 520,
      build: (w, n) => markdown(`${'['.repeat(n)}${w}${'](https://example.com)'.repeat(n)}`),
    },
    'markdown images in links': {
      max: 220,
      build: (w, n) =>
        markdown(`${'[!['.repeat(n)}${w}${'](https://example.com/i.png)](https://example.com)'.repeat(n)}`),
    },
    'markdown blockquotes': { max: 11_990, build: (w, n) => markdown(`${'>'.repeat(n)} ${w}`) },
    'markdown blockquote lines': { max: 140, build: (w, n) => markdown(lines(n, (i) => `${'>'.repeat(i + 1)} ${w}`)) },
    'markdown lists': { max: 5_990, build: (w, n) => markdown(`${'- '.repeat(n)}${w}`) },
    'markdown ordered lists': { max: 3_990, build: (w, n) => markdown(`${'1. '.repeat(n)}${w}`) },
    'markdown indented lists': { max: 100, build: (w, n) => markdown(lines(n, (i) => `${' '.repeat(2 * i)}- ${w}`)) },
    'markdown quotes in lists': { max: 2_990, build: (w, n) => markdown(`${'- > '.repeat(n)}${w}`) },
    'mrkdwn markers in a section': {
      max: 10_500,
      build: (w, n) => section(`${'*_~'.repeat(n)}${w}${'~_*'.repeat(n)}`),
    },
    'mrkdwn markers in the text': {
      max: 1_660,
      build: (w, n) => ({ text: `${'*_~'.repeat(n)}${w}${'~_*'.repeat(n)}` }),
    },
    'mrkdwn quotes': { max: 12_900, build: (w, n) => section(`${'&gt; '.repeat(n)}${w}`) },
    'rich_text styles': {
      max: 200,
      build: (w, n) => ({
        blocks: [
          {
            type: 'rich_text',
            elements: Array.from({ length: n }, () => ({
              type: 'rich_text_quote',
              elements: [
                {
                  type: 'text',
                  text: w,
                  style: { bold: true, italic: true, strike: true, code: true, underline: true, highlight: true },
                },
                {
                  type: 'link',
                  url: 'https://example.com',
                  text: w,
                  style: { bold: true, italic: true, strike: true, code: true },
                },
              ],
            })),
          },
        ],
      }),
    },
    'rich_text lists': {
      max: 50,
      build: (w, n) => ({
        blocks: Array.from({ length: n }, () => ({
          type: 'rich_text',
          elements: Array.from({ length: 9 }, (_, indent) => ({
            type: 'rich_text_list',
            style: indent % 2 === 0 ? 'bullet' : 'ordered',
            indent,
            elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: `${w}\n${w}` }] }],
          })),
        })),
      }),
    },
  };
  it('of every kind renders within the bounds, the deepest word kept', async () => {
    const shape = fc
      .constantFrom(...Object.keys(shapes))
      .chain((name) =>
        fc.tuple(
          fc.constant(name),
          fc.oneof(fc.integer({ min: 1, max: shapes[name]!.max }), fc.constant(shapes[name]!.max)),
        ),
      );
    await fc.assert(
      fc.asyncProperty(shape, fc.stringMatching(/^[a-z]{3,8}$/), async ([name, depth], word) => {
        const payload = shapes[name]!.build(word, depth);
        expect(bodyBytes(payload)).toBeLessThanOrEqual(MAX_BODY_BYTES);
        const message = await accept(payload);
        expect(message, name).toBeDefined();
        const rendered = render(message!);
        expectBounded(message!, rendered);
        expect(rendered.text).toContain(word);
      }),
      { seed: SEED, numRuns: 100 },
    );
  }, 120_000);
});

describe('output stays a small multiple of the message', () => {
  const url = (length: number): string => `https://example.com/${'a'.repeat(Math.max(length - 20, 1))}`;
  // The message: a ~3,000-character reference used ~2,250 times (12 KB) rendered to 6.9 MB.
  it('for a reference link repeated through a markdown block (it rendered 570×)', async () => {
    const message = await accept(markdown(`[a]: ${url(2_900)}\n\n${'[a] '.repeat(2_250)}`));
    expect(message).toBeDefined();
    const rendered = render(message!);
    expectBounded(message!, rendered);
    expect(rendered.html.endsWith('<p class="cw-truncated">…</p>')).toBe(true);
    expect(rendered.text.endsWith('…')).toBe(true);
  });

  // Rule: every amplifying shape (references, long URLs, emoji, mentions, escapes, dates, breaks,
  // styles), filled up to the 64 KiB body, renders within the bound, with any resolvers.
  const fill = (unit: string, room: number): string => unit.repeat(Math.max(1, Math.floor(room / unit.length)));
  const shapes: Record<string, (room: number, length: number) => Payload> = {
    'reference links': (room, length) =>
      markdown(`[a]: ${url(length)}\n\n${fill('[a] ', Math.min(room, 11_900) - length)}`),
    'reference images': (room, length) =>
      markdown(`[a]: ${url(length)}\n\n${fill('![a]', Math.min(room, 11_900) - length)}`),
    'markdown autolinks': (room, length) => markdown(fill(`<${url(length)}> `, Math.min(room, 11_900))),
    'mrkdwn links': (room, length) => section(fill(`<${url(length)}> `, room)),
    'bare links': (room, length) => section(fill(`${url(length)} `, room)),
    'bare links in the text': (room, length) => ({ text: fill(`${url(length)}?a=1&b=2 `, Math.min(room, 9_990)) }),
    'bare links in markdown': (room, length) => markdown(fill(`${url(length)} `, Math.min(room, 11_900))),
    'bare www names and emails': (room) => section(fill('www.a.io a@b.io mailto:c@d.io ', room)),
    'rich_text links': (room, length) => ({
      blocks: [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: Array.from({ length: Math.max(1, Math.floor(room / (length + 30))) }, () => ({
                type: 'link',
                url: url(length),
              })),
            },
          ],
        },
      ],
    }),
    emoji: (room) => section(fill(':a:', room)),
    'rich_text emoji': (room) => ({
      blocks: [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: Array.from({ length: Math.floor(room / 30) }, () => ({ type: 'emoji', name: 'a' })),
            },
          ],
        },
      ],
    }),
    mentions: (room) => section(fill('<@U1><!here>', room)),
    'mentions in the text': (room) => ({ text: fill('<@U1>', Math.min(room, 9_990)) }),
    'rich_text mentions': (room) => ({
      blocks: [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: Array.from({ length: Math.floor(room / 32) }, () => ({ type: 'user', user_id: 'U1' })),
            },
          ],
        },
      ],
    }),
    escapes: (room) => section(fill(`"'<>&amp;`, room)),
    'escapes in the text': (room) => ({ text: fill(`"'&`, Math.min(room, 9_990)) }),
    dates: (room) => section(fill(`<!date^0^${'{ago}'.repeat(20)}>`, room)),
    'line breaks': (room) => section(`a${fill('\n', room / 2)}a`),
    'empty list items': (room) => markdown(fill('-\n', Math.min(room, 11_900))),
    'rich_text styles': (room) => ({
      blocks: [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_list',
              style: 'ordered',
              indent: 8,
              elements: Array.from({ length: Math.floor(room / 160) }, () => ({
                type: 'rich_text_section',
                elements: [
                  {
                    type: 'text',
                    text: 'a\na',
                    style: { bold: true, italic: true, strike: true, code: true, underline: true, highlight: true },
                  },
                ],
              })),
            },
          ],
        },
      ],
    }),
  };
  it('for every amplifying shape up to the body limit, with any resolvers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(shapes)),
        fc.oneof(fc.integer({ min: 100, max: 60_000 }), fc.constant(60_000)),
        fc.integer({ min: 25, max: 2_990 }),
        async (name, room, length) => {
          const payload = shapes[name]!(room, length);
          const message = await accept(payload);
          // Shapes that overshoot a field limit are refused; the rest must all stay within the bound.
          fc.pre(message !== undefined);
          for (const options of [{}, generous]) expectBounded(message!, render(message!, options));
        },
      ),
      { seed: SEED, numRuns: 80 },
    );
  }, 120_000);

  it('still links every URL of a text full of bare links', async () => {
    const href = (n: number) => `https://grafana.example.com/d/disk-${n}?orgId=1&from=now-1h`;
    // A text near its 10,000 characters, a link a line, and sections of them up to the 64 KiB body.
    const lines = (from: number, length: number) =>
      Array.from({ length }, (_, n) => `Panel ${from + n}: ${href(from + n)}`).join('\n');
    const blocks = Array.from({ length: 18 }, (_, b) => ({
      type: 'section',
      text: { type: 'mrkdwn', text: lines(200 + b * 40, 40) },
    }));
    const message = await accept({ text: lines(0, 140), blocks });
    expect(message).toBeDefined();
    expect(bodyBytes({ text: message!.body, blocks })).toBeGreaterThan(58_000);
    for (const options of [{}, generous]) {
      const rendered = render(message!, options);
      expectBounded(message!, rendered);
      expect(rendered.html).not.toContain('cw-truncated');
      expect(rendered.html.match(/<a href="https:\/\/grafana/g)).toHaveLength(720);
      expect(toHtml({ body: message!.body, blocks: [] }, options).match(/<a href=/g)).toHaveLength(140);
      expect(rendered.text).toBe(message!.body);
    }
  });

  it('still renders every label of a 50-block message full of ordinary links', async () => {
    const LINKS = 15;
    const label = (block: number, link: number) => `label${block}x${link}`;
    const href = (block: number, link: number) =>
      `https://docs.example.com/guides/${block}/section-${link}?ref=webhook`;
    const blocks = Array.from({ length: 50 }, (_, b) => {
      if (b % 10 === 0)
        return {
          type: 'markdown',
          text: Array.from({ length: LINKS }, (_, l) => `[${label(b, l)}](${href(b, l)})`).join(' '),
        };
      if (b % 5 === 1) {
        return {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: Array.from({ length: LINKS }, (_, l) => ({ type: 'link', url: href(b, l), text: label(b, l) })),
            },
          ],
        };
      }
      return {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: Array.from({ length: LINKS }, (_, l) => `<${href(b, l)}|${label(b, l)}>`).join(' · '),
        },
      };
    });
    expect(bodyBytes({ blocks })).toBeGreaterThan(60_000);
    const message = await accept({ blocks });
    expect(message).toBeDefined();
    for (const options of [{}, generous]) {
      const rendered = render(message!, options);
      expectBounded(message!, rendered);
      expect(rendered.html).not.toContain('cw-truncated');
      for (let b = 0; b < 50; b++) {
        for (let l = 0; l < LINKS; l++) {
          expect(rendered.html).toContain(`href="${href(b, l)}" rel="noopener noreferrer nofollow">${label(b, l)}</a>`);
          expect(rendered.text).toContain(`${label(b, l)} (${href(b, l)})`);
        }
      }
    }
  });
});
