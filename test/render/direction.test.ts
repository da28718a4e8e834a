import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RenderOptions, toHtml, toPlainText } from '../../src/render/index.js';
import { createAcceptor, type Payload } from './accepted.js';

// Embedding, override and isolate controls: any of them can make a label read as another.
const DIRECTION_CONTROLS = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const ANY_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
const REL = 'rel="noopener noreferrer nofollow"';

describe('direction overrides never reach the output', () => {
  it('an image alt inside a markdown link loses its override', () => {
    const message = {
      body: '',
      blocks: [
        { type: 'markdown', text: '[![\u202efdp.exe](https://example.com/i.png)](https://example.com/invoice.exe)' },
      ],
    };
    expect(toHtml(message)).toBe(
      `<div class="cw-markdown"><p><a href="https://example.com/invoice.exe" ${REL}><span class="cw-image-alt">fdp.exe</span></a></p></div>`,
    );
    expect(toHtml(message, { image: (url) => `/p?u=${encodeURIComponent(url)}` })).toBe(
      `<div class="cw-markdown"><p><a href="https://example.com/invoice.exe" ${REL}><img class="cw-image" src="/p?u=https%3A%2F%2Fexample.com%2Fi.png" alt="fdp.exe"></a></p></div>`,
    );
    expect(toPlainText(message)).toBe('fdp.exe (https://example.com/invoice.exe)');
  });

  it('an override just before a mrkdwn link cannot flip it', () => {
    const message = { body: 'see \u202e<https://example.com/invoice.exe|fdp.exe>', blocks: [] };
    expect(toHtml(message)).toBe(`<p>see <a href="https://example.com/invoice.exe" ${REL}>fdp.exe</a></p>`);
    expect(toPlainText(message)).toBe('see fdp.exe (https://example.com/invoice.exe)');
  });

  // Rule: wherever a sender (or a resolver) puts a direction control, in any accepted message,
  // neither function writes one.
  it('wherever they are put', async () => {
    const accept = await createAcceptor();
    const sprinkled = fc
      .array(fc.oneof(fc.constantFrom(...DIRECTION_CONTROLS), fc.stringMatching(/^[a-z .]{1,6}$/)), {
        minLength: 1,
        maxLength: 8,
      })
      .map((parts) => `a${parts.join('')}`);
    const placed = sprinkled.chain((t) =>
      fc.constantFrom<Payload>(
        { text: `${t} <https://example.com|${t}> <@U1|${t}> *${t}* \`${t}\`` },
        {
          blocks: [
            {
              type: 'markdown',
              text: `${t} [${t}](https://example.com) ![${t}](https://example.com/i.png) **${t}**\n\n> ${t}\n\n- ${t}`,
            },
          ],
        },
        { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `${t}<https://example.com|${t}>` } }] },
        { blocks: [{ type: 'header', text: { type: 'plain_text', text: t } }] },
        {
          blocks: [
            {
              type: 'context',
              elements: [
                { type: 'image', image_url: 'https://example.com/i.png', alt_text: t },
                { type: 'mrkdwn', text: t },
              ],
            },
          ],
        },
        {
          blocks: [
            {
              type: 'rich_text',
              elements: [
                {
                  type: 'rich_text_section',
                  elements: [
                    { type: 'text', text: t },
                    { type: 'link', url: 'https://example.com', text: t },
                    { type: 'date', timestamp: 0, format: '{date}', fallback: t },
                  ],
                },
                { type: 'rich_text_preformatted', elements: [{ type: 'text', text: t }] },
              ],
            },
          ],
        },
      ),
    );
    const resolvers: RenderOptions = {
      image: (url) => `/p?u=${encodeURIComponent(url)}`,
      mention: ({ label }) => ({ text: `\u202e${label ?? ''}`, url: 'https://example.com/u' }),
      emoji: (name) => `\u2067${name}`,
    };
    await fc.assert(
      fc.asyncProperty(placed, async (payload) => {
        const message = await accept(payload);
        expect(message).toBeDefined();
        for (const options of [{}, resolvers]) {
          expect(toHtml(message!, options)).not.toMatch(ANY_CONTROL);
          expect(toPlainText(message!, options)).not.toMatch(ANY_CONTROL);
        }
      }),
      { seed: 20_261_125, numRuns: 200 },
    );
  });
});
