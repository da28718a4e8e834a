import { describe, expect, it } from 'vitest';
import { type RenderOptions, toHtml, toPlainText } from '../../src/render/index.js';

// An astral character: two UTF-16 units, a high and a low surrogate.
const EMOJI = '😀';
/** Whether `text` holds half a surrogate pair: it would not survive a trip through UTF-8. */
const hasLoneSurrogate = (text: string): boolean => /\p{Cs}/u.test(text);

// The message is one mention, 7 units as stored (`<@U1>` and `[]`), that the app resolves to far
// more text than the output bound lets through: 8 × 7 + 8,192 = 8,248 units for toPlainText and
// 16 × 7 + 8,192 = 8,304 for toHtml, cut mark included.
const message = { body: '<@U1>', blocks: [] };
const resolvingTo = (text: string): RenderOptions => ({ mention: () => ({ text }) });
const SPAN = '<span class="cw-mention cw-mention-user">';
const HTML_CUT = '<p class="cw-truncated">…</p>';

// Rule: where the output bound cuts a text, it cuts between characters, never between the two
// halves of a surrogate pair: the output is well-formed UTF-16, the last whole character before
// the bound is kept, and the cut mark follows.
describe('the renderer’s cut keeps surrogate pairs whole', () => {
  it('toPlainText: a cut that falls inside an emoji drops the whole emoji', () => {
    // 8,247 units are left before the mark: 4,123 emoji and the high half of the next.
    const text = toPlainText(message, resolvingTo(EMOJI.repeat(5_000)));
    expect(text).toBe(`${EMOJI.repeat(4_123)}…`);
    expect(hasLoneSurrogate(text)).toBe(false);
  });

  it('toPlainText: a cut that falls between emoji keeps the last one', () => {
    const text = toPlainText(message, resolvingTo(`a${EMOJI.repeat(5_000)}`));
    expect(text).toBe(`a${EMOJI.repeat(4_123)}…`);
  });

  it('toHtml: a cut that falls inside an emoji drops the whole emoji', () => {
    // 8,304 less the paragraph, the span and the cut mark leaves 8,220 units: `a`, 4,109 emoji and
    // the high half of the next.
    const html = toHtml(message, resolvingTo(`a${EMOJI.repeat(5_000)}`));
    expect(html).toBe(`<p>${SPAN}a${EMOJI.repeat(4_109)}</span></p>${HTML_CUT}`);
    expect(hasLoneSurrogate(html)).toBe(false);
  });

  it('toHtml: a cut that falls between emoji keeps the last one', () => {
    const html = toHtml(message, resolvingTo(EMOJI.repeat(5_000)));
    expect(html).toBe(`<p>${SPAN}${EMOJI.repeat(4_110)}</span></p>${HTML_CUT}`);
  });

  it.each([0, 1, 2, 3])(
    'both outputs are well-formed whatever the cut point (%i units of text before the emoji)',
    (lead) => {
      const options = resolvingTo(`${'a'.repeat(lead)}${EMOJI.repeat(5_000)}`);
      const text = toPlainText(message, options);
      const html = toHtml(message, options);
      expect(text.endsWith('…')).toBe(true);
      expect(html.endsWith(HTML_CUT)).toBe(true);
      expect(hasLoneSurrogate(text), 'toPlainText wrote half a surrogate pair').toBe(false);
      expect(hasLoneSurrogate(html), 'toHtml wrote half a surrogate pair').toBe(false);
    },
  );
});
