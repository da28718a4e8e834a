import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validatePayload } from '../../src/index.js';
import { toHtml } from '../../src/render/index.js';
import { fromSlackPayload, type SlackChange } from '../../src/send/index.js';
import { hostileString, validPayload } from '../hardening/arbitraries.js';

type Json = Record<string, unknown>;

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const plain = (text: string) => ({ type: 'plain_text', text });
const section = (text: string) => ({ type: 'section', text: mrkdwn(text) });
const changed = (pointer: string, to: string, message: string | RegExp): SlackChange =>
  ({
    pointer,
    action: 'changed',
    to,
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  }) as SlackChange;
const dropped = (pointer: string, message: string | RegExp): SlackChange =>
  ({
    pointer,
    action: 'dropped',
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  }) as SlackChange;

/** Converts `slack`, checks the result passes the endpoint's validator, and returns it. */
function convert(slack: unknown) {
  const result = fromSlackPayload(slack);
  if (result.payload !== null) expect(validatePayload(result.payload)).toMatchObject({ ok: true });
  return result;
}

describe('fromSlackPayload: sections', () => {
  it('writes fields as lines of the section text, after its own text', () => {
    expect(
      convert({
        blocks: [{ type: 'section', text: mrkdwn('*Deploy 42*'), fields: [mrkdwn('*Env*: prod'), plain('a < b & c')] }],
      }),
    ).toEqual({
      payload: { blocks: [section('*Deploy 42*\n*Env*: prod\na &lt; b &amp; c')] },
      changes: [
        changed(
          '/blocks/0/fields',
          '/blocks/0/text/text',
          "Slack's two columns of fields: each field is now a line of the section's mrkdwn text",
        ),
      ],
    });
  });

  it('puts a blank line between fields of several lines, and drops a field that is no text object', () => {
    expect(
      convert({ blocks: [{ type: 'section', fields: [mrkdwn('*Env*\nprod'), 7, mrkdwn('*Build*\n42')] }] }),
    ).toEqual({
      payload: { blocks: [section('*Env*\nprod\n\n*Build*\n42')] },
      changes: [
        dropped('/blocks/0/fields/1', 'is not a text object'),
        changed('/blocks/0/fields', '/blocks/0/text/text', /each field is now a line/),
      ],
    });
  });

  it('makes plain_text section text mrkdwn, escaped so that it reads the same', () => {
    expect(
      convert({ blocks: [{ type: 'section', text: { type: 'plain_text', text: 'if a < b && c > d', emoji: true } }] }),
    ).toEqual({
      payload: { blocks: [section('if a &lt; b &amp;&amp; c &gt; d')] },
      changes: [changed('/blocks/0/text/type', '/blocks/0/text/type', /^was plain_text: now mrkdwn/)],
    });
  });

  it('moves an image accessory into a context block after the section, keeping the block_id on the section', () => {
    const accessory = { type: 'image', image_url: 'https://example.com/logo.png', alt_text: 'logo' };
    expect(convert({ blocks: [{ type: 'section', block_id: 'b1', text: mrkdwn('Deploy'), accessory }] })).toEqual({
      payload: {
        blocks: [
          { ...section('Deploy'), block_id: 'b1' },
          {
            type: 'context',
            elements: [{ type: 'image', image_url: 'https://example.com/logo.png', alt_text: 'logo' }],
          },
        ],
      },
      changes: [
        changed(
          '/blocks/0/accessory',
          '/blocks/1/elements/0',
          'the image is now a context block after the section, shown small',
        ),
      ],
    });
  });

  it('links an image accessory whose URL cannot be a context image (a template)', () => {
    const accessory = { type: 'image', image_url: '{logo.url}', alt_text: 'logo' };
    expect(convert({ blocks: [{ type: 'section', text: mrkdwn('Deploy'), accessory }] })).toEqual({
      payload: { blocks: [section('Deploy\n<{logo.url}|logo>')] },
      changes: [
        changed('/blocks/0/accessory', '/blocks/0/text/text', /^the image is now a link in the section's text/),
      ],
    });
  });

  it('makes a button accessory a link, a button without a URL its label, and drops other accessories', () => {
    const button = (extra: Json) => ({ type: 'button', text: plain('Open <it>'), action_id: 'a', ...extra });
    expect(
      convert({
        blocks: [
          { type: 'section', text: mrkdwn('A'), accessory: button({ url: 'https://ci.example.com/42?a=1&b=2' }) },
          { type: 'section', text: mrkdwn('B'), accessory: button({ value: 'v' }) },
          { type: 'section', text: mrkdwn('C'), accessory: { type: 'datepicker' } },
        ],
      }),
    ).toEqual({
      payload: {
        blocks: [
          section('A\n<https://ci.example.com/42?a=1&amp;b=2|Open &lt;it&gt;>'),
          section('B\nOpen &lt;it&gt;'),
          section('C'),
        ],
      },
      changes: [
        changed('/blocks/0/accessory', '/blocks/0/text/text', "the button is now a link in the section's text"),
        changed('/blocks/1/accessory', '/blocks/1/text/text', /^the button has no URL/),
        dropped('/blocks/2/accessory', 'is interactive: messages here are not'),
      ],
    });
  });

  it('drops a section with nothing left, and lists fields Slack has and this endpoint does not', () => {
    expect(
      convert({ text: 'x', blocks: [{ type: 'section', accessory: { type: 'overflow' }, expand: true }] }),
    ).toEqual({
      payload: { text: 'x' },
      changes: [
        dropped('/blocks/0/accessory', 'is interactive: messages here are not'),
        dropped('/blocks/0/expand', /^is not carried/),
        dropped('/blocks/0', 'is a section with no text left: it shows nothing'),
      ],
    });
  });
});

describe('fromSlackPayload: Slack-only blocks', () => {
  it('makes an image block a context block with the image and a link reading its title', () => {
    const image = {
      type: 'image',
      title: plain('Weekly chart'),
      image_url: 'https://example.com/chart.png',
      alt_text: 'chart',
      block_id: 'img',
    };
    expect(convert({ blocks: [image] })).toEqual({
      payload: {
        blocks: [
          {
            type: 'context',
            elements: [
              { type: 'image', image_url: 'https://example.com/chart.png', alt_text: 'chart' },
              mrkdwn('<https://example.com/chart.png|Weekly chart>'),
            ],
            block_id: 'img',
          },
        ],
      },
      changes: [
        changed(
          '/blocks/0',
          '/blocks/0',
          'an image block is now a context block: the image shown small, and a link to it',
        ),
      ],
    });
  });

  it('drops an image hosted by Slack, which nothing here can show', () => {
    expect(convert({ text: 'x', blocks: [{ type: 'image', slack_file: { id: 'F1' }, alt_text: 'a' }] })).toEqual({
      payload: { text: 'x' },
      changes: [dropped('/blocks/0', /slack_file/)],
    });
  });

  it('makes an actions block a section of links, buttons without a URL their labels, and drops the rest', () => {
    const actions = {
      type: 'actions',
      elements: [
        { type: 'button', text: plain('View'), url: 'https://ci.example.com/42', style: 'primary' },
        { type: 'button', text: plain('Approve'), value: 'ok' },
        { type: 'static_select', placeholder: plain('Pick') },
      ],
    };
    expect(convert({ blocks: [actions] })).toEqual({
      payload: { blocks: [section('<https://ci.example.com/42|View> · Approve')] },
      changes: [
        changed('/blocks/0/elements/0', '/blocks/0/text/text', "the button is now a link in the section's text"),
        changed('/blocks/0/elements/1', '/blocks/0/text/text', /^the button has no URL/),
        dropped('/blocks/0/elements/2', 'is interactive: messages here are not'),
        changed('/blocks/0', '/blocks/0', /^an actions block is now a section of links/),
      ],
    });
  });

  it('keeps a button URL holding several | whole: each is percent-encoded, so none ends the link early', () => {
    const url = 'https://grafana.example.com/d/x?var-env=prod|staging|dev&from=now-1h';
    const { payload } = convert({
      blocks: [{ type: 'actions', elements: [{ type: 'button', text: plain('Dashboard'), url }] }],
    });
    expect(payload).toEqual({
      blocks: [section('<https://grafana.example.com/d/x?var-env=prod%7Cstaging%7Cdev&amp;from=now-1h|Dashboard>')],
    });
    const href = /href="([^"]*)"/.exec(toHtml({ body: '', blocks: payload!.blocks! }))![1]!.replaceAll('&amp;', '&');
    expect(new URL(href).searchParams.get('var-env')).toBe('prod|staging|dev');
  });

  it('makes a video block a section with a link and its description; drops input, file and unknown blocks', () => {
    const video = {
      type: 'video',
      title: plain('Demo'),
      video_url: 'https://video.example.com/embed/1',
      title_url: 'https://video.example.com/1',
      thumbnail_url: 'https://video.example.com/1.png',
      alt_text: 'demo',
      description: plain('Two minutes'),
    };
    expect(
      convert({
        blocks: [video, { type: 'input', element: {} }, { type: 'file', source: 'remote' }, { type: 'carousel' }],
      }),
    ).toEqual({
      payload: { blocks: [section('<https://video.example.com/1|Demo>\nTwo minutes')] },
      changes: [
        changed('/blocks/0', '/blocks/0', /^a video block is now a section/),
        dropped('/blocks/0/thumbnail_url', /^is not carried/),
        dropped('/blocks/1', /^is an input block/),
        dropped('/blocks/2', /^is a Slack file/),
        dropped('/blocks/3', 'is not a block type here'),
      ],
    });
  });

  it('makes mrkdwn header text plain_text', () => {
    expect(
      convert({ blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'Deploy 42', verbatim: true } }] }),
    ).toEqual({
      payload: { blocks: [{ type: 'header', text: plain('Deploy 42') }] },
      changes: [
        changed('/blocks/0/text/type', '/blocks/0/text/type', /^was mrkdwn: a header's text is plain_text here/),
      ],
    });
  });
});

describe('fromSlackPayload: message fields and text', () => {
  it('drops Slack message fields, each with its reason, and keeps text and eventId', () => {
    const slack = {
      channel: '#alerts',
      username: 'ci',
      icon_emoji: ':rocket:',
      text: 'Deploy 42',
      thread_ts: '1.2',
      unfurl_links: false,
      colour: 'red',
      eventId: 'deploy-42',
    };
    expect(convert(slack)).toEqual({
      payload: { text: 'Deploy 42', eventId: 'deploy-42' },
      changes: [
        dropped('/channel', /a webhook posts to its own channel/),
        dropped('/username', /the author is always the webhook/),
        dropped('/icon_emoji', /shows the webhook as the author/),
        dropped('/thread_ts', /no threads/),
        dropped('/unfurl_links', /never unfurled/),
        dropped('/colour', 'is not a field of a message here'),
      ],
    });
  });

  it('drops blank text when the blocks show text, and cuts text over 10,000 characters', () => {
    expect(convert({ text: '  ', blocks: [section('hi')] })).toEqual({
      payload: { blocks: [section('hi')] },
      changes: [dropped('/text', /^is blank/)],
    });
    const long = convert({ text: `  ${'😀'.repeat(10_001)}` });
    expect(long).toEqual({
      payload: { text: '😀'.repeat(10_000) },
      changes: [changed('/text', '/text', /^cut to 10,000 characters/)],
    });
  });

  it('adds a text made from the blocks when they show no text of their own', () => {
    const richText = {
      type: 'rich_text',
      elements: [
        {
          type: 'rich_text_section',
          elements: [
            { type: 'emoji', name: 'tada' },
            { type: 'text', text: ' ' },
            { type: 'user', user_id: 'U1' },
            { type: 'usergroup', usergroup_id: 'S1' },
            { type: 'channel', channel_id: 'C1' },
            { type: 'broadcast', range: 'here' },
            { type: 'date', timestamp: 0, format: '{date}', fallback: 'then' },
            { type: 'color', value: '#fff' },
          ],
        },
      ],
    };
    expect(convert({ blocks: [richText, { type: 'divider' }] })).toEqual({
      payload: {
        text: ':tada: <@U1><!subteam^S1><#C1><!here><!date^0^{date}|then>#fff',
        blocks: [richText, { type: 'divider' }],
      },
      changes: [
        {
          pointer: '/blocks',
          action: 'added',
          to: '/text',
          message: expect.stringMatching(/^a text made from what the blocks show/),
        },
      ],
    });
  });

  it('leaves nothing when nothing usable is left: a lone divider, a team mention, an empty object, not an object', () => {
    expect(convert({ blocks: [{ type: 'divider' }] })).toEqual({ payload: null, changes: [] });
    expect(
      convert({
        blocks: [
          { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'team', team_id: 'T1' }] }] },
        ],
      }),
    ).toEqual({
      payload: null,
      changes: [dropped('/blocks/0/elements/0/elements/0', /^a team mention is Slack-only/)],
    });
    expect(convert({})).toEqual({ payload: null, changes: [] });
    expect(convert([{ text: 'x' }])).toEqual({ payload: null, changes: [dropped('', /^is not a JSON object/)] });
  });

  it('replaces U+0000 and unpaired surrogates, which cannot be stored, and lists each', () => {
    expect(convert({ text: 'a\u0000b', blocks: [section('c\ud800')] })).toEqual({
      payload: { text: 'a\ufffdb', blocks: [section('c\ufffd')] },
      changes: expect.arrayContaining([
        { pointer: '/text', action: 'changed', message: expect.stringMatching(/^held U\+0000/) },
        { pointer: '/blocks/0/text/text', action: 'changed', message: expect.stringMatching(/^held U\+0000/) },
      ]),
    });
  });

  it('gives back a payload the endpoint already takes as it is, the same object, with no change', () => {
    const slack = { text: 'x', blocks: [{ text: mrkdwn('*ok*'), type: 'section' }], eventId: 'k' };
    const { payload, changes } = convert(slack);
    expect(payload).toBe(slack);
    expect(changes).toEqual([]);
  });
});

describe('fromSlackPayload: limits', () => {
  it('keeps at most 50 blocks, listing each one past them', () => {
    const { payload, changes } = convert({
      text: 'x',
      blocks: Array.from({ length: 52 }, () => ({ type: 'divider' })),
    });
    expect(payload?.blocks).toHaveLength(50);
    expect(changes).toEqual([dropped('/blocks/50', /50 blocks/), dropped('/blocks/51', /50 blocks/)]);
  });

  it('links an image accessory when the context block after it would pass 50 blocks', () => {
    const blocks = [
      ...Array.from({ length: 49 }, () => ({ type: 'divider' })),
      {
        type: 'section',
        text: mrkdwn('x'),
        accessory: { type: 'image', image_url: 'https://e.com/a.png', alt_text: 'a' },
      },
    ];
    const { payload } = convert({ text: 'x', blocks });
    expect(payload?.blocks?.[49]).toEqual(section('x\n<https://e.com/a.png|a>'));
  });

  it('cuts the markdown blocks to 12,000 characters together', () => {
    const { payload, changes } = convert({
      blocks: [
        { type: 'markdown', text: 'a'.repeat(11_000) },
        { type: 'markdown', text: 'b'.repeat(2_000) },
        { type: 'markdown', text: 'c' },
      ],
    });
    expect(payload?.blocks).toEqual([
      { type: 'markdown', text: 'a'.repeat(11_000) },
      { type: 'markdown', text: 'b'.repeat(1_000) },
    ]);
    expect(changes).toEqual([
      changed('/blocks/1/text', '/blocks/1/text', /^cut to 1,000 characters/),
      dropped('/blocks/2', /12,000 characters/),
    ]);
  });

  it('goes on in a second context block past 10 elements', () => {
    const elements = Array.from({ length: 12 }, (_, index) => mrkdwn(`e${index}`));
    const { payload, changes } = convert({ blocks: [{ type: 'context', elements }] });
    expect(payload?.blocks).toEqual([
      { type: 'context', elements: elements.slice(0, 10) },
      { type: 'context', elements: elements.slice(10) },
    ]);
    expect(changes).toEqual([changed('/blocks/0/elements/10', '/blocks/1', /at most 10 elements/)]);
  });
});

describe('fromSlackPayload: rich_text', () => {
  const richText = (...elements: unknown[]) => ({ blocks: [{ type: 'rich_text', elements }] });
  const sectionOf = (...inline: unknown[]) => ({ type: 'rich_text_section', elements: inline });

  it('repairs what Slack SDKs send: a timestamp as digits, a list without a style, a link to a template', () => {
    const slack = richText(
      sectionOf(
        { type: 'text', text: 'at ' },
        { type: 'date', timestamp: '1628633089', format: '{date}' },
        { type: 'link', url: '{run.url}', text: 'the run', style: { bold: true, blink: true } },
      ),
      { type: 'rich_text_list', elements: [sectionOf({ type: 'text', text: 'a' })], indent: 12 },
    );
    expect(convert(slack)).toEqual({
      payload: richText(
        sectionOf(
          { type: 'text', text: 'at ' },
          { type: 'date', timestamp: 1628633089, format: '{date}' },
          { type: 'text', text: 'the run ({run.url})', style: { bold: true } },
        ),
        { type: 'rich_text_list', elements: [sectionOf({ type: 'text', text: 'a' })], indent: 8, style: 'bullet' },
      ),
      changes: [
        changed(
          '/blocks/0/elements/0/elements/1/timestamp',
          '/blocks/0/elements/0/elements/1/timestamp',
          'was a string of digits: now the number it spells',
        ),
        changed(
          '/blocks/0/elements/0/elements/2',
          '/blocks/0/elements/0/elements/2',
          /^a link here goes to an http\(s\) or mailto URL only/,
        ),
        dropped('/blocks/0/elements/0/elements/2/style/blink', 'is not a field of a text style here'),
        changed(
          '/blocks/0/elements/1/indent',
          '/blocks/0/elements/1/indent',
          'a list is indented at most 8 levels here',
        ),
        {
          pointer: '/blocks/0/elements/1',
          action: 'added',
          to: '/blocks/0/elements/1/style',
          message: expect.stringMatching(/"bullet"/),
        },
      ],
    });
  });

  it('drops elements it cannot carry, with their own pointers, and keeps the rest in order', () => {
    const slack = richText(
      sectionOf({ type: 'team', team_id: 'T1' }, { type: 'text', text: 'kept' }, { type: 'user' }),
      { type: 'rich_text_table' },
    );
    expect(convert(slack)).toEqual({
      payload: richText(sectionOf({ type: 'text', text: 'kept' })),
      changes: [
        dropped('/blocks/0/elements/0/elements/0', /team mention/),
        dropped('/blocks/0/elements/0/elements/2', 'has no valid user_id'),
        dropped('/blocks/0/elements/1', /^is not a rich_text section, list, quote or preformatted element/),
      ],
    });
  });
});

describe('fromSlackPayload: legacy attachments', () => {
  it('makes each part a block, in the order Slack shows them, drops the colour and takes the fallback as text', () => {
    const attachment = {
      fallback: 'Deploy 42 failed',
      color: '#e01e5a',
      pretext: 'From CI',
      author_name: 'ci-bot',
      author_link: 'https://ci.example.com',
      author_icon: 'https://ci.example.com/bot.png',
      title: 'Deploy 42 <failed>',
      title_link: 'https://ci.example.com/42',
      text: 'Step 3 of 5: *tests*',
      fields: [
        { title: 'Env', value: 'prod', short: true },
        { title: 'Build', value: 42, short: true },
      ],
      image_url: 'https://ci.example.com/graph.png',
      footer: 'CI',
      ts: 1_700_000_000,
      mrkdwn_in: ['text'],
      callback_id: 'x',
      actions: [
        { type: 'button', text: 'Retry', url: 'https://ci.example.com/42/retry' },
        { type: 'select', name: 'env' },
      ],
    };
    expect(convert({ attachments: [attachment] })).toEqual({
      payload: {
        text: 'Deploy 42 failed',
        blocks: [
          section('From CI'),
          {
            type: 'context',
            elements: [
              { type: 'image', image_url: 'https://ci.example.com/bot.png', alt_text: 'ci-bot' },
              mrkdwn('<https://ci.example.com|ci-bot>'),
            ],
          },
          section(
            '*<https://ci.example.com/42|Deploy 42 &lt;failed&gt;>*\nStep 3 of 5: *tests*\n*Env*: prod\n*Build*: 42',
          ),
          {
            type: 'context',
            elements: [
              { type: 'image', image_url: 'https://ci.example.com/graph.png', alt_text: 'image' },
              mrkdwn('<https://ci.example.com/graph.png>'),
            ],
          },
          section('<https://ci.example.com/42/retry|Retry>'),
          {
            type: 'context',
            elements: [mrkdwn('CI | <!date^1700000000^{date_short_pretty} at {time}|2023-11-14 22:13 UTC>')],
          },
        ],
      },
      changes: [
        changed('/attachments/0/pretext', '/blocks/0/text/text', /pretext/),
        changed('/attachments/0/author_name', '/blocks/1', /author/),
        changed('/attachments/0/title', '/blocks/2/text/text', /title/),
        changed('/attachments/0/text', '/blocks/2/text/text', /text/),
        changed('/attachments/0/fields', '/blocks/2/text/text', /each field is now a line/),
        changed('/attachments/0/image_url', '/blocks/3', /image/),
        dropped('/attachments/0/actions/1', /interactive/),
        changed('/attachments/0/actions/0', '/blocks/4/text/text', /link/),
        changed('/attachments/0/footer', '/blocks/5', /footer/),
        changed('/attachments/0/ts', '/blocks/5', /date in the footer/),
        dropped('/attachments/0/color', /colour bar/),
        dropped('/attachments/0/mrkdwn_in', /always mrkdwn/),
        dropped('/attachments/0/callback_id', /^is not carried/),
        changed('/attachments/0/fallback', '/text', /notification fallback/),
      ],
    });
  });

  it('puts attachments after the blocks, and drops their fallback when the message has a text', () => {
    const { payload, changes } = convert({
      attachments: [{ text: 'second', fallback: 'f' }],
      text: 'message',
      blocks: [section('first')],
    });
    expect(payload).toEqual({ text: 'message', blocks: [section('first'), section('second')] });
    expect(changes).toContainEqual(
      dropped('/attachments/0/fallback', /the message's text is its notification fallback/),
    );
  });
});

// ---- Properties -------------------------------------------------------------------------------

/** Whether `pointer` names something in `value`. */
function resolves(value: unknown, pointer: string): boolean {
  if (pointer === '') return true;
  let target = value;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof target !== 'object' || target === null || !Object.hasOwn(target, key)) return false;
    target = (target as Json)[key];
  }
  return true;
}

const url = fc.oneof(
  fc.webUrl(),
  fc.constantFrom('$URL', '{person.url}', 'javascript:alert(1)', '', 'https://e.com/a|b>c'),
);
const text = fc.oneof(hostileString, fc.string({ maxLength: 20 }));
const textObject = fc.record(
  { type: fc.constantFrom('plain_text', 'mrkdwn', 'other'), text, emoji: fc.boolean(), verbatim: fc.boolean() },
  { requiredKeys: ['type'] },
);
const button = fc.record(
  { type: fc.constant('button'), text: fc.oneof(textObject, text), url, value: text },
  { requiredKeys: ['type'] },
);
const slackImage = fc.record(
  { type: fc.constant('image'), image_url: url, alt_text: text, title: textObject },
  { requiredKeys: ['type'] },
);
const inline = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom('text', 'link', 'emoji', 'user', 'team', 'date', 'color', 'broadcast'),
      text,
      url,
      name: text,
      user_id: text,
      timestamp: fc.oneof(fc.integer(), fc.constantFrom('123', '-1', 'x')),
      format: text,
      value: text,
      range: fc.constantFrom('here', 'all'),
      style: fc.dictionary(fc.constantFrom('bold', 'blink'), fc.oneof(fc.boolean(), fc.integer())),
    },
    { requiredKeys: ['type'] },
  ),
  fc.anything({ maxDepth: 1 }),
);
const container = fc.record(
  {
    type: fc.constantFrom(
      'rich_text_section',
      'rich_text_list',
      'rich_text_quote',
      'rich_text_preformatted',
      'rich_text_table',
    ),
    elements: fc.array(
      fc.oneof(
        inline,
        fc.record({ type: fc.constant('rich_text_section'), elements: fc.array(inline, { maxLength: 3 }) }),
      ),
      { maxLength: 4 },
    ),
    style: fc.constantFrom('bullet', 'dashed'),
    indent: fc.integer({ min: -1, max: 12 }),
    border: fc.integer({ min: 0, max: 2 }),
    language: text,
  },
  { requiredKeys: ['type'] },
);
const slackBlock = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom('section', 'header'),
      text: fc.oneof(textObject, text),
      fields: fc.array(fc.oneof(textObject, fc.anything({ maxDepth: 0 })), { maxLength: 4 }),
      accessory: fc.oneof(slackImage, button, fc.record({ type: fc.constant('overflow') })),
      block_id: fc.oneof(text, fc.integer()),
      expand: fc.boolean(),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    { type: fc.constant('markdown'), text: fc.oneof(text, fc.constantFrom('m'.repeat(7_000))) },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    { type: fc.constant('context'), elements: fc.array(fc.oneof(textObject, slackImage, button), { maxLength: 14 }) },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('actions'),
      elements: fc.array(fc.oneof(button, fc.record({ type: fc.constant('static_select') })), { maxLength: 4 }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    { type: fc.constant('rich_text'), elements: fc.array(container, { maxLength: 3 }) },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constantFrom('divider', 'input', 'video', 'file'),
      title: textObject,
      video_url: url,
      description: textObject,
    },
    { requiredKeys: ['type'] },
  ),
  slackImage,
  fc.anything({ maxDepth: 2 }),
);
const attachment = fc.record(
  {
    fallback: text,
    color: text,
    pretext: text,
    author_name: text,
    author_icon: url,
    title: text,
    title_link: url,
    text,
    fields: fc.array(fc.record({ title: text, value: fc.oneof(text, fc.integer()) }), { maxLength: 3 }),
    image_url: url,
    thumb_url: url,
    footer: text,
    ts: fc.oneof(fc.integer(), text),
    blocks: fc.array(slackBlock, { maxLength: 3 }),
    actions: fc.array(button, { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const slackPayload = fc.record(
  {
    text: fc.oneof(text, fc.integer()),
    blocks: fc.oneof(
      fc.array(slackBlock, { maxLength: 8 }),
      fc.constant(Array.from({ length: 60 }, () => ({ type: 'divider' }))),
    ),
    attachments: fc.array(attachment, { maxLength: 3 }),
    username: text,
    channel: text,
    eventId: text,
    extra: fc.anything({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);

describe('fromSlackPayload: properties', () => {
  // Rule: whatever Slack-like payload goes in, what comes out is null or a payload the endpoint's
  // validator accepts; every change names a part of the input, and each `to` a part of the output.
  it('the payload it gives is always one the endpoint accepts, and every change points at real parts', () => {
    fc.assert(
      // fast-check reports the payload that fails; a message built from it on every run, passing or
      // not, cost most of this test's time (its strings run to 20,000 characters).
      fc.property(slackPayload, (slack) => {
        const { payload, changes } = fromSlackPayload(slack);
        if (payload !== null) expect(validatePayload(payload)).toMatchObject({ ok: true });
        for (const change of changes) {
          expect(resolves(slack, change.pointer), change.pointer).toBe(true);
          if (payload !== null && change.to !== undefined) expect(resolves(payload, change.to), change.to).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  // Rule: a payload the endpoint already accepts comes back as it is, with no change.
  it('a payload the endpoint accepts comes back unchanged', () => {
    fc.assert(
      fc.property(validPayload, (payload) => {
        expect(fromSlackPayload(payload)).toEqual({ payload, changes: [] });
      }),
      { numRuns: 300 },
    );
  });
});
