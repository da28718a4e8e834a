import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { type RenderOptions, toHtml, toPlainText } from '../../src/render/index.js';
import { emojiByName } from '../../src/render/emoji-names.js';
import { EMOJI_TABLE } from '../../src/render/emoji-table.js';

// Emoji names show as Slack shows them by default: the names and code points of emoji-datasource
// (iamcal/emoji-data, the data set Slack's names come from), at the version package.json pins. The
// table is generated from it (scripts/write-emoji-table.mjs); these tests hold it to the data set,
// name by name, skin tone by skin tone.
interface DatasetEmoji {
  unified: string;
  short_names: string[];
  skin_variations?: Record<string, { unified: string }>;
}
const dataset = createRequire(import.meta.url)('emoji-datasource/emoji.json') as DatasetEmoji[];
const TONES = ['1F3FB', '1F3FC', '1F3FD', '1F3FE', '1F3FF'];

const chars = (unified: string) => String.fromCodePoint(...unified.split('-').map((hex) => Number.parseInt(hex, 16)));
const text = (body: string, options?: RenderOptions) => toPlainText({ body, blocks: [] }, options);

describe('emoji names, by default', () => {
  it('show every name of the data set as its emoji, through mrkdwn', () => {
    const wrong = dataset.flatMap((emoji) =>
      emoji.short_names.flatMap((name) => (text(`:${name}:`) === chars(emoji.unified) ? [] : [name])),
    );
    expect(wrong).toEqual([]);
    expect(dataset.flatMap((emoji) => emoji.short_names).length).toBeGreaterThan(1_900);
  });

  it("show each skin tone of the data set, by Slack's `::skin-tone-2` … `6`, with one tone for every person", () => {
    const wrong: string[] = [];
    let toned = 0;
    for (const emoji of dataset) {
      if (emoji.skin_variations === undefined) continue;
      for (const [index, tone] of TONES.entries()) {
        const expected = emoji.skin_variations[tone] ?? emoji.skin_variations[`${tone}-${tone}`];
        for (const name of emoji.short_names) {
          toned++;
          if (emojiByName(`${name}::skin-tone-${index + 2}`) !== chars(expected!.unified)) wrong.push(name);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(toned).toBeGreaterThan(1_500);
  });

  it('come from the data set alone: the table holds no name it does not have', () => {
    const names = new Set(dataset.flatMap((emoji) => emoji.short_names));
    const tabled = EMOJI_TABLE.trim()
      .split('\n')
      .flatMap((line) => line.slice(0, line.lastIndexOf(':')).split(','))
      .map((name) => name.replace(/::skin-tone-[2-6]$/, ''));
    expect(tabled.filter((name) => !names.has(name))).toEqual([]);
    expect(new Set(tabled).size).toBe(names.size);
  });

  it.each([
    [':tada: shipped', '<p><span class="cw-emoji">🎉</span> shipped</p>'],
    [':green_book: Runbook', '<p><span class="cw-emoji">📗</span> Runbook</p>'],
    [
      ':white_check_mark: :heavy_check_mark:',
      '<p><span class="cw-emoji">✅</span> <span class="cw-emoji">✔️</span></p>',
    ],
    [':+1: :thumbsup:', '<p><span class="cw-emoji">👍</span> <span class="cw-emoji">👍</span></p>'],
    [
      ':+1::skin-tone-2: :wave::skin-tone-6:',
      '<p><span class="cw-emoji">👍🏻</span> <span class="cw-emoji">👋🏿</span></p>',
    ],
    // A tone on an emoji that takes none leaves it as it is; a workspace's own emoji keeps its name.
    [
      ':tada::skin-tone-3: :partyparrot:',
      '<p><span class="cw-emoji">🎉</span> <span class="cw-emoji">:partyparrot:</span></p>',
    ],
    [':TADA: :tada', '<p><span class="cw-emoji">:TADA:</span> :tada</p>'],
  ])('%s renders as Slack shows it', (body, html) => {
    expect(toHtml({ body, blocks: [] })).toBe(html);
  });

  it('in every kind of text that shows emoji: plain_text, mrkdwn and rich_text names', () => {
    const message = {
      body: '',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Deploy :rocket:' } },
        { type: 'section', text: { type: 'plain_text', text: 'off :rocket:', emoji: false } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: ':fire: hot' }] },
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'emoji', name: 'tada' },
                // The code points the sender gives win over the name's.
                { type: 'emoji', name: 'thumbsup', unicode: '1f44d-1f3fd' },
              ],
            },
          ],
        },
      ],
    };
    expect(toPlainText(message)).toBe('Deploy 🚀\noff :rocket:\n🔥 hot\n🎉👍🏽');
  });
});

describe('the emoji option', () => {
  it('still decides, and hands back to the default with undefined', () => {
    const emoji: RenderOptions['emoji'] = (name) => (name === 'tada' ? { url: '/emoji/tada.gif' } : undefined);
    expect(toHtml({ body: ':tada: :fire:', blocks: [] }, { emoji })).toBe(
      '<p><img class="cw-emoji" src="/emoji/tada.gif" alt="🎉"> <span class="cw-emoji">🔥</span></p>',
    );
    expect(text(':tada: :fire:', { emoji: (name) => (name === 'fire' ? ':hot:' : undefined) })).toBe('🎉 :hot:');
  });
});
