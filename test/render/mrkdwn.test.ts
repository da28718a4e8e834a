import { describe, expect, it } from 'vitest';
import { toHtml, toPlainText } from '../../src/render/index.js';

const REL = 'rel="noopener noreferrer nofollow"';
const html = (body: string) => toHtml({ body, blocks: [] });
const plain = (body: string) => toPlainText({ body, blocks: [] });

describe('mrkdwn as Slack renders it', () => {
  it.each([
    ['*bold*', '<p><strong>bold</strong></p>', 'bold'],
    ['_italic_', '<p><em>italic</em></p>', 'italic'],
    ['~strike~', '<p><s>strike</s></p>', 'strike'],
    ['`co *de*`', '<p><code>co *de*</code></p>', 'co *de*'],
    ['*bold _and italic_*', '<p><strong>bold <em>and italic</em></strong></p>', 'bold and italic'],
    ['snake_case_name and 2*3*4', '<p>snake_case_name and 2*3*4</p>', 'snake_case_name and 2*3*4'],
    ['* not bold *', '<p>* not bold *</p>', '* not bold *'],
    ['*unclosed', '<p>*unclosed</p>', '*unclosed'],
    ['**', '<p>**</p>', '**'],
    ['a\nb', '<p>a<br>b</p>', 'a\nb'],
    ['&lt;b&gt; &amp; &amp;lt;', '<p>&lt;b&gt; &amp; &amp;lt;</p>', '<b> & &lt;'],
    [
      '<https://example.com/a?b=1&amp;c=2>',
      `<p><a href="https://example.com/a?b=1&amp;c=2" ${REL}>https://example.com/a?b=1&amp;c=2</a></p>`,
      'https://example.com/a?b=1&c=2',
    ],
    [
      '<https://example.com|the site>',
      `<p><a href="https://example.com" ${REL}>the site</a></p>`,
      'the site (https://example.com)',
    ],
    [
      '<mailto:ops@example.com|ops>',
      `<p><a href="mailto:ops@example.com" ${REL}>ops</a></p>`,
      'ops (mailto:ops@example.com)',
    ],
    [
      '*<https://example.com|bold link>*',
      `<p><strong><a href="https://example.com" ${REL}>bold link</a></strong></p>`,
      'bold link (https://example.com)',
    ],
    ['<@U123>', '<p><span class="cw-mention cw-mention-user">@U123</span></p>', '@U123'],
    ['<@U123|ana>', '<p><span class="cw-mention cw-mention-user">@ana</span></p>', '@ana'],
    ['<#C123>', '<p><span class="cw-mention cw-mention-channel">#C123</span></p>', '#C123'],
    ['<#C123|general>', '<p><span class="cw-mention cw-mention-channel">#general</span></p>', '#general'],
    ['<!subteam^S42>', '<p><span class="cw-mention cw-mention-usergroup">@S42</span></p>', '@S42'],
    ['<!subteam^S42|@oncall>', '<p><span class="cw-mention cw-mention-usergroup">@oncall</span></p>', '@oncall'],
    [
      '<!here> <!channel> <!everyone>',
      '<p><span class="cw-mention cw-mention-broadcast">@here</span> <span class="cw-mention cw-mention-broadcast">@channel</span> <span class="cw-mention cw-mention-broadcast">@everyone</span></p>',
      '@here @channel @everyone',
    ],
    [
      '<!date^1392734382^{date_num} {time_secs}|Feb 18, 2014>',
      '<p><span class="cw-date">Feb 18, 2014</span></p>',
      'Feb 18, 2014',
    ],
    [
      '<!date^1392734382^{date_long} at {time}^https://example.com/e|>',
      `<p><a class="cw-date" href="https://example.com/e" ${REL}>Tuesday, February 18, 2014 at 2:39 PM UTC</a></p>`,
      'Tuesday, February 18, 2014 at 2:39 PM UTC',
    ],
    ['<!unknown> <>', '<p>&lt;!unknown&gt; &lt;&gt;</p>', '<!unknown> <>'],
    ['if a < b and c > d', '<p>if a &lt; b and c &gt; d</p>', 'if a < b and c > d'],
    ['<example.com|x> <@ U1>', '<p>&lt;example.com|x&gt; &lt;@ U1&gt;</p>', '<example.com|x> <@ U1>'],
    [':tada: done', '<p><span class="cw-emoji">🎉</span> done</p>', '🎉 done'],
    [':+1: :-1: ok', '<p><span class="cw-emoji">👍</span> <span class="cw-emoji">👎</span> ok</p>', '👍 👎 ok'],
    [':partyparrot: done', '<p><span class="cw-emoji">:partyparrot:</span> done</p>', ':partyparrot: done'],
    [
      '<https://ci.example/1|:tada: Runbook :green_book:>',
      '<p><a href="https://ci.example/1" rel="noopener noreferrer nofollow"><span class="cw-emoji">🎉</span> Runbook <span class="cw-emoji">📗</span></a></p>',
      '🎉 Runbook 📗 (https://ci.example/1)',
    ],
    ['a :+1 b :+', '<p>a :+1 b :+</p>', 'a :+1 b :+'],
    [
      '&gt; quoted\n> more\nafter',
      '<blockquote class="cw-quote"><p>quoted<br>more</p></blockquote><p>after</p>',
      'quoted\nmore\nafter',
    ],
    [
      'before\n```\nline *1*\n<b>2</b>\n```\nafter',
      '<p>before</p><pre class="cw-pre">line *1*\n&lt;b&gt;2&lt;/b&gt;</pre><p>after</p>',
      'before\nline *1*\n<b>2</b>\nafter',
    ],
    ['```unclosed', '<p>```unclosed</p>', '```unclosed'],
  ])('%j', (body, expectedHtml, expectedText) => {
    expect(html(body)).toBe(expectedHtml);
    expect(plain(body)).toBe(expectedText);
  });

  it('renders a link to anything but http(s) or mailto as its label, never as a link', () => {
    expect(html('<javascript:alert(1)|click>')).toBe('<p>click</p>');
    expect(plain('<javascript:alert(1)|click>')).toBe('click');
    expect(html('<ftp://example.com>')).toBe('<p>ftp://example.com</p>');
  });

  it('formats a date without a fallback in UTC', () => {
    expect(plain('<!date^0^{date_num} {date} {date_short} {time}>')).toBe(
      '1970-01-01 January 1, 1970 Jan 1, 1970 12:00 AM UTC',
    );
    expect(plain('<!date^1392734382^{date_slash}; {date_long_full}; {date_long_pretty}; {time_secs}; {unknown}>')).toBe(
      '18/02/2014; February 18, 2014; Tuesday, February 18, 2014; 2:39:42 PM UTC; {unknown}',
    );
    expect(plain('<!date^1392734382^{date}^https://example.com/e>')).toBe('February 18, 2014');
    expect(plain('<!group> <!date^99999999999999^{date}>')).toBe('@channel 99999999999999');
  });
});

describe('resolvers', () => {
  it('resolves mentions to the text and link the app gives', () => {
    const mention = ({ kind, id }: { kind: string; id: string }) =>
      kind === 'user' ? { text: `@${id.toLowerCase()}`, url: `https://chat.example/u/${id}` } : undefined;
    expect(toHtml({ body: '<@U1> <!here>', blocks: [] }, { mention })).toBe(
      `<p><a class="cw-mention cw-mention-user" href="https://chat.example/u/U1" ${REL}>@u1</a> <span class="cw-mention cw-mention-broadcast">@here</span></p>`,
    );
    expect(toPlainText({ body: '<@U1> <!here>', blocks: [] }, { mention })).toBe('@u1 @here');
  });

  it('keeps a resolved mention inert when its URL is not http(s) or mailto', () => {
    expect(
      toHtml({ body: '<@U1>', blocks: [] }, { mention: () => ({ text: '<x>', url: 'javascript:alert(1)' }) }),
    ).toBe('<p><span class="cw-mention cw-mention-user">&lt;x&gt;</span></p>');
  });

  it('shows an emoji as the text or the image the app gives', () => {
    expect(toHtml({ body: ':tada:', blocks: [] }, { emoji: (name) => (name === 'tada' ? '🎉' : undefined) })).toBe(
      '<p><span class="cw-emoji">🎉</span></p>',
    );
    expect(toHtml({ body: ':tada:', blocks: [] }, { emoji: () => ({ text: '🎉' }) })).toBe(
      '<p><span class="cw-emoji">🎉</span></p>',
    );
    expect(toHtml({ body: ':party:', blocks: [] }, { emoji: (name) => ({ url: `/emoji/${name}.png` }) })).toBe(
      '<p><img class="cw-emoji" src="/emoji/party.png" alt=":party:"></p>',
    );
    expect(toPlainText({ body: ':tada:', blocks: [] }, { emoji: () => ({ text: '🎉' }) })).toBe('🎉');
    expect(toHtml({ body: ':+1:', blocks: [] }, { emoji: (name) => (name === '+1' ? '👍' : undefined) })).toBe(
      '<p><span class="cw-emoji">👍</span></p>',
    );
  });

  it('shows what a resolver returns as text even when it is not a string', () => {
    const options = {
      emoji: () => ({ text: 42 as never }),
      date: () => 7 as never,
      mention: () => ({ text: 9 as never }),
    };
    expect(toHtml({ body: ':a: <!date^0^{date}> <@U1>', blocks: [] }, options)).toBe(
      '<p><span class="cw-emoji">42</span> <span class="cw-date">7</span> <span class="cw-mention cw-mention-user">9</span></p>',
    );
  });

  it('formats dates through the app', () => {
    const date = ({ timestamp }: { timestamp: number }) => new Date(timestamp * 1000).toISOString();
    expect(toPlainText({ body: '<!date^0^{date}|then>', blocks: [] }, { date })).toBe('1970-01-01T00:00:00.000Z');
  });
});
