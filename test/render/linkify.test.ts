import { describe, expect, it } from 'vitest';
import { toHtml, toPlainText } from '../../src/render/index.js';
import { htmlFindings } from './html-check.js';

// Bare URLs and email addresses are links where Slack links them: in mrkdwn (the message's text,
// section and context texts, unless `verbatim`) and in markdown blocks, never in code, plain_text or
// rich_text's text. Slack's server does this for a sender's text; a link found so passes the rule
// every link passes (http, https or mailto, no control or space, at most 3,000 characters).
const REL = 'rel="noopener noreferrer nofollow"';
const a = (href: string, label = href) => `<a href="${href}" ${REL}>${label}</a>`;
const body = (text: string) => toHtml({ body: text, blocks: [] });
const blocks = (...list: unknown[]) => toHtml({ body: '', blocks: list });
const mrkdwn = (text: string, extra: object = {}) => ({ type: 'mrkdwn', text, ...extra });
const plain = (text: string) => ({ type: 'plain_text', text });

describe('bare links, as Slack links them', () => {
  it.each([
    ['https://ci.example.com/runs/981', `<p>${a('https://ci.example.com/runs/981')}</p>`],
    ['see http://ci.example.com/42.', `<p>see ${a('http://ci.example.com/42')}.</p>`],
    ['(https://ci.example.com/a_b), next', `<p>(${a('https://ci.example.com/a_b')}), next</p>`],
    // Slack's own example: a name that starts with www. links to http.
    ['So does this one: www.example.com', `<p>So does this one: ${a('http://www.example.com', 'www.example.com')}</p>`],
    ['mail ops@example.com now', `<p>mail ${a('mailto:ops@example.com', 'ops@example.com')} now</p>`],
    ['mailto:ops@example.com', `<p>${a('mailto:ops@example.com')}</p>`],
    // mrkdwn's entities: `&amp;` is part of the URL, `&lt;` and `&gt;` never are.
    [
      'https://grafana.example.com/d/x?orgId=1&amp;from=now-1h',
      `<p>${a('https://grafana.example.com/d/x?orgId=1&amp;from=now-1h')}</p>`,
    ],
    ['&lt;https://example.com/x&gt;', `<p>&lt;${a('https://example.com/x')}&gt;</p>`],
    // Emphasis around a link is mrkdwn's; markers inside a URL are the URL's.
    [
      '*https://example.com/a_b_c* _www.example.com_',
      `<p><strong>${a('https://example.com/a_b_c')}</strong> <em>${a('http://www.example.com', 'www.example.com')}</em></p>`,
    ],
  ])('%j', (text, html) => {
    expect(body(text)).toBe(html);
  });

  it.each([
    // A bare host name would send the reader to a host the sender never named.
    ['README.md and setup.py'],
    ['example.com'],
    ['wwwexample.com'],
    ['ftp://files.example.com'],
    ['//evil.example/x'],
    ['javascript:alert(1)'],
    ['JavaScript://%0aalert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['vbscript:msgbox(1)'],
  ])('leaves %j as text', (text) => {
    const html = body(text);
    expect(html).not.toContain('<a ');
    expect(htmlFindings(html)).toEqual([]);
  });

  it('keeps quotes and angle brackets out of the markup: a URL ends where markup would begin', () => {
    expect(body('https://example.com/"><script>alert(1)</script>')).toBe(
      `<p>${a('https://example.com/')}&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>`,
    );
    expect(body("https://example.com/' onmouseover='alert(1)")).toBe(
      `<p>${a('https://example.com/')}&#39; onmouseover=&#39;alert(1)</p>`,
    );
    // A quote inside the path stays in the URL, escaped in the attribute like any other.
    expect(body('https://example.com/"a"b')).toBe(`<p>${a('https://example.com/&quot;a&quot;b')}</p>`);
    expect(
      toHtml({ body: '', blocks: [{ type: 'markdown', text: 'https://example.com/<img src=x onerror=alert(1)>' }] }),
    ).toBe(`<div class="cw-markdown"><p>${a('https://example.com/')}&lt;img src=x onerror=alert(1)&gt;</p></div>`);
  });

  it('holds a found link to the rule of every link: no control characters, at most 3,000 characters', () => {
    expect(body('https://example.com/\u202egnp.exe')).toBe('<p>https://example.com/gnp.exe</p>');
    const long = `https://example.com/${'a'.repeat(3_000)}`;
    expect(body(long)).toBe(`<p>${long}</p>`);
  });

  it('in the text kinds Slack links, and no other', () => {
    const url = 'https://status.example.com';
    const linked = `<p>${a(url)}</p>`;
    const shown = `<p>${url}</p>`;
    expect(blocks({ type: 'section', text: mrkdwn(url) })).toBe(`<div class="cw-section">${linked}</div>`);
    expect(blocks({ type: 'context', elements: [mrkdwn(url)] })).toBe(
      `<div class="cw-context"><div class="cw-context-item">${linked}</div></div>`,
    );
    expect(blocks({ type: 'markdown', text: url })).toBe(`<div class="cw-markdown">${linked}</div>`);
    expect(blocks({ type: 'section', text: mrkdwn(url, { verbatim: true }) })).toBe(
      `<div class="cw-section">${shown}</div>`,
    );
    expect(blocks({ type: 'section', text: plain(url) })).toBe(`<div class="cw-section">${shown}</div>`);
    expect(blocks({ type: 'header', text: plain(url) })).toBe(`<h2 class="cw-header">${url}</h2>`);
    expect(blocks({ type: 'context', elements: [plain(url)] })).toBe(
      `<div class="cw-context"><div class="cw-context-item">${shown}</div></div>`,
    );
    expect(
      blocks({
        type: 'rich_text',
        elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: url }] }],
      }),
    ).toBe(`<div class="cw-rich-text"><p class="cw-rich-text-section">${url}</p></div>`);
  });

  it('never inside code, a link already, or what `<…>` holds', () => {
    expect(body('`https://a.example.com` ```\nhttps://b.example.com\n```')).toBe(
      '<p><code>https://a.example.com</code> </p><pre class="cw-pre">https://b.example.com</pre>',
    );
    expect(body('<https://example.com|https://other.example.com> <!date^0^{date}|https://x.example.com>')).toBe(
      `<p>${a('https://example.com', 'https://other.example.com')} <span class="cw-date">https://x.example.com</span></p>`,
    );
    expect(
      blocks({ type: 'markdown', text: '`https://a.example.com` [https://b.example.com](https://c.example.com)' }),
    ).toBe(
      `<div class="cw-markdown"><p><code>https://a.example.com</code> ${a('https://c.example.com', 'https://b.example.com')}</p></div>`,
    );
  });

  it('read as written in the text, without the URL again beside it', () => {
    expect(
      toPlainText({ body: 'see https://ci.example.com/42, www.example.com and ops@example.com', blocks: [] }),
    ).toBe('see https://ci.example.com/42, www.example.com and ops@example.com');
    expect(toPlainText({ body: 'logs: https://ci.example.com/a?x=1&amp;y=2', blocks: [] })).toBe(
      'logs: https://ci.example.com/a?x=1&y=2',
    );
  });
});
