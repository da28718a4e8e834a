import { describe, expect, it } from 'vitest';
import { toHtml } from '../../src/render/index.js';

const markdown = (text: string) => toHtml({ body: '', blocks: [{ type: 'markdown', text }] });
const LINK = '<a href="https://example.com/a" rel="noopener noreferrer nofollow">';

/**
 * Emphasis nested `depth` deep, a word at each level on either side (`*level1 *level2 … deep end2*`),
 * with `later` written at the outermost level after every inner level has closed.
 */
function nested(depth: number, later: string): string {
  const levels = Array.from({ length: depth }, (_, i) => i + 1);
  const opens = levels.map((level) => `*level${level} `).join('');
  const closes = levels
    .slice(1)
    .reverse()
    .map((level) => ` end${level}*`)
    .join('');
  return `${opens}deep${closes}${later}*`;
}

/** What follows the nested levels in `html`: everything after the closing of level 2. */
const afterTheNesting = (html: string): string => html.slice(html.indexOf(' end2</em>') + ' end2</em>'.length);

// Rule: emphasis nested deeper than 8 levels keeps its text at the 8th level, and each marker past
// it still closes only what it opened: every level above the 8th closes where it was written,
// and what comes after the nesting renders exactly as it would without it.
describe('markdown nested past the inline depth limit stays balanced', () => {
  it('emphasis 10 deep, then ordinary emphasis and a link in the outermost level', () => {
    const later = ' then **bold** and [a link](https://example.com/a)';
    const html = markdown(nested(10, later));
    expect(html).toBe(
      '<div class="cw-markdown"><p><em>level1 <em>level2 <em>level3 <em>level4 <em>level5 <em>level6 <em>level7 ' +
        '<em>level8 level9 level10 deep end10 end9 end8</em> end7</em> end6</em> end5</em> end4</em> end3</em> end2</em>' +
        ` then <strong>bold</strong> and ${LINK}a link</a></em></p></div>`,
    );
    const alone = markdown(`*level1${later}*`);
    expect(alone).toBe(
      `<div class="cw-markdown"><p><em>level1 then <strong>bold</strong> and ${LINK}a link</a></em></p></div>`,
    );
    expect(afterTheNesting(html)).toBe(alone.slice(alone.indexOf(' then')));
  });

  it('emphasis 10 deep inside a link: the later parts stay inside the link, and what follows it outside', () => {
    const html = markdown(`[${nested(10, ' then **bold** and ~~struck~~')}](https://example.com/a) and _after_`);
    // The link is a level of its own, so the emphasis keeps 7.
    expect(html).toBe(
      `<div class="cw-markdown"><p>${LINK}<em>level1 <em>level2 <em>level3 <em>level4 <em>level5 <em>level6 ` +
        '<em>level7 level8 level9 level10 deep end10 end9 end8 end7</em> end6</em> end5</em> end4</em> end3</em> end2</em>' +
        ' then <strong>bold</strong> and <s>struck</s></em></a> and <em>after</em></p></div>',
    );
    const alone = markdown('[*level1 then **bold** and ~~struck~~*](https://example.com/a) and _after_');
    expect(afterTheNesting(html)).toBe(alone.slice(alone.indexOf(' then')));
  });
});
