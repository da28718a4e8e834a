import { describe, expect, it } from 'vitest';
import { RENDER_ALLOW_LIST } from '../../src/render/index.js';
import { createHtmlWriter, HTML_CUT_MARK, type HtmlWriter } from '../../src/render/html-writer.js';
import { createRoom, OUTPUT_FLOOR } from '../../src/render/output-limit.js';

/** A writer whose whole output, cut mark included, is at most `limit` characters. */
const writer = (limit: number): HtmlWriter =>
  createHtmlWriter(createRoom({ body: '', blocks: [] }, 0, OUTPUT_FLOOR - limit + HTML_CUT_MARK.length));

describe('the HTML writer is driven by RENDER_ALLOW_LIST', () => {
  it('writes the listed attributes, in the list’s order, escaped', () => {
    const out = writer(1_000);
    out.element(
      'a',
      {
        href: 'https://example.com/?a="b"&c',
        rel: 'noopener noreferrer nofollow',
        class: ['cw-mention', 'cw-mention-user'],
      },
      () => out.text('<x>'),
    );
    expect(out.finish()).toBe(
      '<a class="cw-mention cw-mention-user" href="https://example.com/?a=&quot;b&quot;&amp;c" rel="noopener noreferrer nofollow">&lt;x&gt;</a>',
    );
  });

  it('leaves out at run time what the list does not allow, whatever the caller passes', () => {
    const out = writer(1_000);
    out.element('ul', { class: ['cw-list'], start: 3, onclick: 'alert(1)' } as never);
    out.element('br', { class: ['cw-list'] } as never);
    expect(out.finish()).toBe('<ul class="cw-list"></ul><br>');
  });

  it('refuses at compile time an element, attribute or class outside the list', () => {
    // Never run: the type check (`tsc`, part of `npm test`) fails if any of these compiles.
    const misuses = (out: HtmlWriter) => {
      // @ts-expect-error: script is not an allowed element
      out.element('script', {});
      // @ts-expect-error: p carries no href
      out.element('p', { href: 'https://example.com' });
      // @ts-expect-error: every class is one of the cw- set
      out.element('span', { class: ['evil'] });
      // @ts-expect-error: img carries no onerror
      out.element('img', { src: '/x.png', onerror: 'alert(1)' });
    };
    expect(misuses).toBeTypeOf('function');
    expect(
      Object.isFrozen(RENDER_ALLOW_LIST) &&
        Object.values(RENDER_ALLOW_LIST).every((attributes) => Object.isFrozen(attributes)),
    ).toBe(true);
  });

  it('closes every element it opened and marks the cut when the limit is reached', () => {
    const out = writer(80);
    out.element('div', { class: ['cw-section'] }, () => {
      out.element('p', {}, () => out.text('&'.repeat(40)));
      out.element('p', {}, () => out.text('never written'));
    });
    const html = out.finish();
    // 80 less the mark (29), the div (30) and the p (7) leaves 14: two whole entities, never a part of one.
    expect(html).toBe('<div class="cw-section"><p>&amp;&amp;</p></div><p class="cw-truncated">…</p>');
    expect(html.length).toBeLessThanOrEqual(80);
  });
});
