import { describe, expect, it } from 'vitest';
import { type RenderableMessage, type RenderOptions, toHtml, toPlainText } from '../../src/render/index.js';
import { setup } from '../support/setup.js';
import { htmlFindings } from './html-check.js';
import { XSS_VECTORS } from './xss-vectors.js';

const hostileResolvers: RenderOptions = {
  // An app that passes sender URLs straight through still gets no unsafe src.
  image: (url) => url,
  mention: ({ id }) => ({ text: `<img src=x onerror=alert(1)>${id}`, url: `javascript:alert('${id}')` }),
  emoji: (name) => ({ text: `"><script>${name}</script>`, url: `javascript:${name}` }),
  date: () => '<script>alert(1)</script>',
};
const proxy: RenderOptions = { image: (url) => `/image-proxy?url=${encodeURIComponent(url)}` };

describe('known XSS vectors posted through a webhook, then rendered', () => {
  it.each(XSS_VECTORS.map((vector) => [vector.name, vector] as const))(
    '%s renders escaped and allow-listed',
    async (_, vector) => {
      const world = await setup();
      const response = await world.post(vector.body);
      // The contract refuses some vectors (a link or image URL that is not http(s)); a store may still
      // hold such a message from elsewhere, so the refused body is rendered too.
      expect([201, 400]).toContain(response.status);
      const message: RenderableMessage =
        response.status === 201
          ? world.delivered[0]!
          : { body: vector.body.text ?? '', blocks: vector.body.blocks ?? [] };
      if (response.status === 201) expect(world.delivered).toHaveLength(1);
      for (const options of [{}, proxy, hostileResolvers]) {
        const html = toHtml(message, options);
        expect(htmlFindings(html), html).toEqual([]);
        expect(html).not.toMatch(/<\/?(?:script|svg|math|iframe|style|meta|base|form|details)\b/i);
        expect(typeof toPlainText(message, options)).toBe('string');
      }
    },
  );

  it('shows a disguised link label without its direction override', () => {
    const html = toHtml({ body: '<https://example.com/x|\u202egnp.exe>', blocks: [] });
    expect(html).toBe('<p><a href="https://example.com/x" rel="noopener noreferrer nofollow">gnp.exe</a></p>');
    expect(toPlainText({ body: '<https://example.com/x|\u202egnp.exe>', blocks: [] })).toBe(
      'gnp.exe (https://example.com/x)',
    );
  });

  it('never loads a sender image without the image option', () => {
    const html = toHtml({
      body: '',
      blocks: [{ type: 'markdown', text: '![tracking pixel](https://evil.example/t.png)' }],
    });
    expect(html).toBe('<div class="cw-markdown"><p><span class="cw-image-alt">tracking pixel</span></p></div>');
  });
});

describe('the HTML checker these tests rely on', () => {
  it.each([
    ['<script>alert(1)</script>', 'element not allowed: script'],
    ['<p onclick="x">a</p>', 'event handler attribute onclick on p'],
    [
      '<a href="jav&#x09;ascript:alert(1)" rel="noopener noreferrer nofollow">x</a>',
      'a[href] URL not allowed: jav\tascript:alert(1)',
    ],
    [
      '<img class="cw-image" src="data:image/png;base64,AA" alt="">',
      'img[src] URL not allowed: data:image/png;base64,AA',
    ],
    ['<p>a < b</p>', 'stray <: "< b</p>"'],
    ['<p style="x">a</p>', 'attribute not allowed: p[style]'],
    ['<p>a', 'unclosed: p'],
  ])('finds %s', (html, finding) => {
    expect(htmlFindings(html)).toContain(finding);
  });
});
