import { describe, expect, it } from 'vitest';
import { toHtml, toPlainText } from '../../src/render/index.js';

const REL = 'rel="noopener noreferrer nofollow"';
const html = (...blocks: unknown[]) => toHtml({ body: '', blocks });
const plain = (...blocks: unknown[]) => toPlainText({ body: '', blocks });
const rich = (...elements: unknown[]) => ({ type: 'rich_text', elements });
const section = (...elements: unknown[]) => ({ type: 'rich_text_section', elements });

describe('each block type', () => {
  it('header: plain text, emoji codes as emoji', () => {
    const header = { type: 'header', text: { type: 'plain_text', text: 'Deploy *v2* :rocket: <b>', emoji: true } };
    expect(html(header)).toBe('<h2 class="cw-header">Deploy *v2* <span class="cw-emoji">🚀</span> &lt;b&gt;</h2>');
    expect(plain(header)).toBe('Deploy *v2* 🚀 <b>');
    expect(html({ type: 'header', text: { type: 'plain_text', text: ':rocket:', emoji: false } })).toBe(
      '<h2 class="cw-header">:rocket:</h2>',
    );
  });

  it('section: mrkdwn, or plain text', () => {
    expect(html({ type: 'section', text: { type: 'mrkdwn', text: '*Build* <https://ci.example/1|#1> passed' } })).toBe(
      `<div class="cw-section"><p><strong>Build</strong> <a href="https://ci.example/1" ${REL}>#1</a> passed</p></div>`,
    );
    expect(plain({ type: 'section', text: { type: 'mrkdwn', text: '*Build* <https://ci.example/1|#1> passed' } })).toBe(
      'Build #1 (https://ci.example/1) passed',
    );
    expect(html({ type: 'section', text: { type: 'plain_text', text: '*not bold*' } })).toBe(
      '<div class="cw-section"><p>*not bold*</p></div>',
    );
  });

  it('markdown: CommonMark, HTML in it shown as text', () => {
    const markdown = {
      type: 'markdown',
      text: '## Release\n\n**bold** _em_ ~~gone~~ `code` [site](https://example.com) <b>raw</b>\n\n> quote\n\n- one\n- two\n\n3. three\n\n```\nx < y\n```\n\n---\n\n![logo](https://example.com/logo.png)',
    };
    expect(html(markdown)).toBe(
      '<div class="cw-markdown"><h2>Release</h2>' +
        `<p><strong>bold</strong> <em>em</em> <s>gone</s> <code>code</code> <a href="https://example.com" ${REL}>site</a> &lt;b&gt;raw&lt;/b&gt;</p>` +
        '<blockquote class="cw-quote"><p>quote</p></blockquote>' +
        '<ul><li>one</li><li>two</li></ul><ol start="3"><li>three</li></ol>' +
        '<pre class="cw-pre">x &lt; y</pre><hr><p><span class="cw-image-alt">logo</span></p></div>',
    );
    expect(plain(markdown)).toBe(
      'Release\nbold em gone code site (https://example.com) <b>raw</b>\nquote\n• one\n• two\n3. three\nx < y\nlogo',
    );
  });

  it('divider', () => {
    expect(html({ type: 'divider' })).toBe('<hr class="cw-divider">');
    expect(
      plain(
        { type: 'section', text: { type: 'mrkdwn', text: 'a' } },
        { type: 'divider' },
        { type: 'section', text: { type: 'mrkdwn', text: 'b' } },
      ),
    ).toBe('a\nb');
  });

  it('context: texts and images side by side', () => {
    const context = {
      type: 'context',
      elements: [
        { type: 'image', image_url: 'https://example.com/a.png', alt_text: 'avatar' },
        { type: 'mrkdwn', text: '*ana* posted' },
        { type: 'plain_text', text: 'today' },
      ],
    };
    expect(html(context)).toBe(
      '<div class="cw-context"><span class="cw-image-alt">avatar</span><div class="cw-context-item"><p><strong>ana</strong> posted</p></div><div class="cw-context-item"><p>today</p></div></div>',
    );
    expect(
      toHtml({ body: '', blocks: [context] }, { image: (url) => `/proxy?u=${encodeURIComponent(url)}` }),
    ).toContain('<img class="cw-image" src="/proxy?u=https%3A%2F%2Fexample.com%2Fa.png" alt="avatar">');
    expect(plain(context)).toBe('avatar ana posted today');
  });

  it('rich_text section: every inline element and style', () => {
    const block = rich(
      section(
        { type: 'text', text: 'b', style: { bold: true } },
        { type: 'text', text: 'i', style: { italic: true } },
        { type: 'text', text: 's', style: { strike: true } },
        { type: 'text', text: 'c', style: { code: true } },
        { type: 'text', text: 'u', style: { underline: true } },
        { type: 'text', text: 'h', style: { highlight: true } },
        { type: 'text', text: 'all', style: { bold: true, italic: true } },
        { type: 'link', url: 'https://example.com', text: 'site', style: { bold: true } },
        { type: 'link', url: 'https://example.com/plain' },
        { type: 'link', url: 'https://example.com', text: 'unlinked', style: { unlink: true } },
        { type: 'emoji', name: 'thumbsup', unicode: '1f44d' },
        { type: 'emoji', name: 'custom' },
        { type: 'user', user_id: 'U1' },
        { type: 'channel', channel_id: 'C1' },
        { type: 'usergroup', usergroup_id: 'S1' },
        { type: 'broadcast', range: 'channel' },
        { type: 'date', timestamp: 1392734382, format: '{date_short}' },
        {
          type: 'date',
          timestamp: 1392734382,
          format: '{date_short}',
          fallback: 'Feb 18',
          url: 'https://example.com/d',
        },
        { type: 'color', value: '#ff0000' },
        { type: 'text', text: '\nnext line' },
      ),
    );
    expect(html(block)).toBe(
      '<div class="cw-rich-text"><p class="cw-rich-text-section">' +
        '<strong>b</strong><em>i</em><s>s</s><code>c</code><u>u</u><mark>h</mark><strong><em>all</em></strong>' +
        `<a href="https://example.com" ${REL}><strong>site</strong></a>` +
        `<a href="https://example.com/plain" ${REL}>https://example.com/plain</a>` +
        'unlinked<span class="cw-emoji">👍</span><span class="cw-emoji">:custom:</span>' +
        '<span class="cw-mention cw-mention-user">@U1</span><span class="cw-mention cw-mention-channel">#C1</span>' +
        '<span class="cw-mention cw-mention-usergroup">@S1</span><span class="cw-mention cw-mention-broadcast">@channel</span>' +
        `<span class="cw-date">Feb 18, 2014</span><a class="cw-date" href="https://example.com/d" ${REL}>Feb 18</a>` +
        '<span class="cw-color">#ff0000</span><br>next line</p></div>',
    );
    expect(plain(block)).toBe(
      'biscuhallsite (https://example.com)https://example.com/plainunlinked👍:custom:@U1#C1@S1@channelFeb 18, 2014Feb 18#ff0000\nnext line',
    );
  });

  it('rich_text lists, quotes and preformatted text', () => {
    const block = rich(
      { type: 'rich_text_list', style: 'bullet', elements: [section({ type: 'text', text: 'top' })] },
      {
        type: 'rich_text_list',
        style: 'ordered',
        indent: 1,
        offset: 2,
        border: 1,
        elements: [section({ type: 'text', text: 'third' }), section({ type: 'text', text: 'fourth' })],
      },
      { type: 'rich_text_quote', border: 1, elements: [{ type: 'text', text: 'quoted' }] },
      {
        type: 'rich_text_preformatted',
        language: 'js',
        border: 0,
        elements: [
          { type: 'text', text: 'a <\n  b' },
          { type: 'link', url: 'https://example.com' },
        ],
      },
    );
    expect(html(block)).toBe(
      '<div class="cw-rich-text"><ul class="cw-list cw-list-indent-0"><li>top</li></ul>' +
        '<ol class="cw-list cw-list-indent-1 cw-border" start="3"><li>third</li><li>fourth</li></ol>' +
        '<blockquote class="cw-quote cw-border">quoted</blockquote>' +
        `<pre class="cw-pre">a &lt;\n  b<a href="https://example.com" ${REL}>https://example.com</a></pre></div>`,
    );
    expect(plain(block)).toBe('• top\n  3. third\n  4. fourth\nquoted\na <\n  bhttps://example.com');
  });

  it('ignores fields and element types it does not know', () => {
    const block = rich(section({ type: 'text', text: 'kept', extra: '<b>' }, { type: 'unknown', text: 'dropped' }), {
      type: 'rich_text_future',
    });
    expect(html(block, { type: 'future_block', text: 'x' })).toBe(
      '<div class="cw-rich-text"><p class="cw-rich-text-section">kept</p></div>',
    );
  });

  it('renders the extended rich_text fields gracefully', () => {
    const block = rich(
      section(
        { type: 'emoji', name: 'party', url: 'https://emoji.example/party.png', style: { bold: true } },
        { type: 'date', timestamp: 0, format: '{date_num}', style: { italic: true }, timezone: 'Europe/Paris' },
        { type: 'color', value: '#00ff00', style: { bold: true } },
      ),
    );
    expect(html(block)).toBe(
      '<div class="cw-rich-text"><p class="cw-rich-text-section"><strong><span class="cw-emoji">:party:</span></strong><em><span class="cw-date">1970-01-01</span></em><strong><span class="cw-color">#00ff00</span></strong></p></div>',
    );
    const seen: unknown[] = [];
    toPlainText({ body: '', blocks: [block] }, { date: (date) => (seen.push(date), undefined) });
    expect(seen).toEqual([{ timestamp: 0, format: '{date_num}', timezone: 'Europe/Paris' }]);
    expect(toHtml({ body: '', blocks: [block] }, { image: (url) => `/p?u=${encodeURIComponent(url)}` })).toContain(
      '<img class="cw-emoji" src="/p?u=https%3A%2F%2Femoji.example%2Fparty.png" alt=":party:">',
    );
  });
});

describe('which text is used', () => {
  it('plain text prefers the body; HTML prefers the blocks', () => {
    const message = { body: 'Fallback *text*', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Block' } }] };
    expect(toPlainText(message)).toBe('Fallback text');
    expect(toHtml(message)).toBe('<div class="cw-section"><p>Block</p></div>');
  });

  it('falls back to the blocks when the body is blank, and to the body when no block shows', () => {
    expect(toPlainText({ body: '  ', blocks: [{ type: 'markdown', text: 'from *blocks*' }] })).toBe('from blocks');
    expect(toHtml({ body: 'only text', blocks: [] })).toBe('<p>only text</p>');
    expect(toHtml({ body: '', blocks: [] })).toBe('');
  });

  it('refuses what is not a message, with invalid_argument', () => {
    for (const bad of [null, 'text', { body: 1, blocks: [] }, { body: '', blocks: {} }]) {
      expect(() => toHtml(bad as never)).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
      expect(() => toPlainText(bad as never)).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    }
    expect(() => toHtml({ body: '', blocks: [] }, { image: 'https://proxy' as never })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});
