import { describe, expect, it } from 'vitest';
import { expectRefused, expectedMessage, problem, problemHeaders, setup, successHeaders } from '../support/setup.js';

async function expectAccepted(payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  const s = await setup();
  const response = await s.post(payload, { headers });
  expect(response).toEqual({
    status: 201,
    headers: successHeaders(59),
    body: {
      message: expectedMessage(s, {
        text: payload.text as string | undefined,
        blocks: payload.blocks as unknown[] | undefined,
      }),
      duplicate: false,
    },
  });
}

async function refusal(payload: unknown, headers: Record<string, string> = {}) {
  const s = await setup();
  const response = await s.post(payload, { headers });
  expect(await s.store.listMessages('general')).toEqual([]);
  return response;
}

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const astral = '😀';

describe('400 invalid JSON and document shape', () => {
  it.each([
    ['an array', []],
    ['a string', 'hello'],
    ['null', null],
    ['a number', 42],
  ])('a body that is %s is refused with a pointer to the document', async (_, payload) => {
    expectRefused(await refusal(payload), '');
  });

  it('an unknown property is refused with a pointer to it', async () => {
    expectRefused(await refusal({ text: 'hi', channel: '#general' }), '/channel', { within: '' });
  });

  it('text missing with no blocks is refused', async () => {
    expectRefused(await refusal({ eventId: 'e' }), '/text', { within: '' });
  });

  it.each([
    ['a number', 5],
    ['null', null],
    ['an object', { text: 'hi' }],
  ])('text that is %s is refused', async (_, text) => {
    expectRefused(await refusal({ text }), '/text');
  });
});

describe('text', () => {
  it.each([
    ['empty', ''],
    ['blank', ' \n\t '],
    ['10,001 code points', 'a'.repeat(10_001)],
    ['10,001 astral code points', astral.repeat(10_001)],
  ])('text that is %s is refused', async (_, text) => {
    expectRefused(await refusal({ text }), '/text');
  });

  it.each([
    ['one code point', 'a'],
    ['10,000 code points', 'a'.repeat(10_000)],
    ['10,000 astral code points (20,000 UTF-16 units)', astral.repeat(10_000)],
    ['10,000 code points with whitespace around', `  ${'a'.repeat(10_000)}  `],
  ])('text of %s is accepted', async (_, text) => {
    await expectAccepted({ text });
  });

  it.each([
    ['U+0000', 'a\u0000b'],
    ['a lone high surrogate', 'a\uD800b'],
    ['a lone low surrogate', 'a\uDC00b'],
  ])('text holding %s is refused', async (_, text) => {
    expectRefused(await refusal({ text }), '/text');
  });

  it('a string body with a raw lone surrogate is refused', async () => {
    const s = await setup();
    expectRefused(await s.post(undefined, { raw: '{"text":"a\uD800b"}' }), '/text');
  });

  it('U+0000 deep inside blocks is refused with a pointer to it', async () => {
    const blocks = [
      { type: 'divider' },
      {
        type: 'context',
        elements: [
          { type: 'plain_text', text: 'x' },
          { type: 'mrkdwn', text: 'a\u0000' },
        ],
      },
    ];
    expectRefused(await refusal({ text: 'hi', blocks }), '/blocks/1/elements/1/text');
  });
});

describe('blocks count and visible text', () => {
  it('an empty blocks array is refused', async () => {
    expectRefused(await refusal({ text: 'hi', blocks: [] }), '/blocks');
  });

  it('51 blocks are refused and 50 accepted', async () => {
    expectRefused(
      await refusal({ text: 'hi', blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })) }),
      '/blocks',
    );
    await expectAccepted({ text: 'hi', blocks: Array.from({ length: 50 }, () => ({ type: 'divider' })) });
  });

  it('blocks that are not an array are refused', async () => {
    expectRefused(await refusal({ text: 'hi', blocks: { type: 'divider' } }), '/blocks');
  });

  it('a divider-only message without text is refused', async () => {
    expectRefused(await refusal({ blocks: [{ type: 'divider' }] }), '/blocks', { within: '' });
  });

  it('a blank header without text is refused', async () => {
    expectRefused(
      await refusal({ blocks: [{ type: 'header', text: { type: 'plain_text', text: '   ' } }] }),
      '/blocks',
      { within: '' },
    );
  });

  it('a divider-only message with text is accepted', async () => {
    await expectAccepted({ text: 'fallback', blocks: [{ type: 'divider' }] });
  });

  it.each([
    ['a header', { type: 'header', text: { type: 'plain_text', text: 'Title' } }],
    ['a section', section('body')],
    ['a markdown block', { type: 'markdown', text: '**bold**' }],
    ['a context text element', { type: 'context', elements: [{ type: 'mrkdwn', text: 'note' }] }],
    [
      'a rich_text text',
      { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'hi' }] }] },
    ],
    [
      'a rich_text link',
      {
        type: 'rich_text',
        elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url: 'https://example.com' }] }],
      },
    ],
  ])('%s is visible text without text', async (_, block) => {
    await expectAccepted({ blocks: [{ type: 'divider' }, block] });
  });

  it('an image-only context is not visible text', async () => {
    const block = {
      type: 'context',
      elements: [{ type: 'image', image_url: 'https://example.com/a.png', alt_text: 'a' }],
    };
    expectRefused(await refusal({ blocks: [block] }), '/blocks', { within: '' });
  });
});

describe('block shapes', () => {
  it.each([
    ['header', { type: 'header', text: { type: 'plain_text', text: 'Title', emoji: true } }],
    ['section', { type: 'section', text: { type: 'mrkdwn', text: '*hi*', verbatim: false } }],
    ['markdown', { type: 'markdown', text: '# Title' }],
    ['divider', { type: 'divider' }],
    [
      'context',
      {
        type: 'context',
        elements: [
          { type: 'plain_text', text: 'plain', emoji: false },
          { type: 'mrkdwn', text: '_m_', verbatim: true },
          { type: 'image', image_url: 'http://example.com/i.png', alt_text: 'icon' },
        ],
      },
    ],
    [
      'rich_text',
      {
        type: 'rich_text',
        elements: [
          {
            type: 'rich_text_section',
            elements: [
              { type: 'text', text: 'bold', style: { bold: true, italic: false } },
              { type: 'link', url: 'mailto:ops@example.com', text: 'mail us' },
              { type: 'emoji', name: 'tada' },
              { type: 'user', user_id: 'U123' },
              { type: 'channel', channel_id: 'C123' },
              { type: 'usergroup', usergroup_id: 'S123' },
              { type: 'broadcast', range: 'here' },
              { type: 'date', timestamp: 1767225600, format: '{date_short}', fallback: 'Jan 1' },
              { type: 'color', value: '#ff0000' },
            ],
          },
          {
            type: 'rich_text_list',
            style: 'bullet',
            elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'item' }] }],
          },
          { type: 'rich_text_quote', elements: [{ type: 'text', text: 'quoted' }] },
          { type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'code' }] },
        ],
      },
    ],
  ])('a valid %s block is accepted and stored as sent', async (_, block) => {
    await expectAccepted({ text: 'fallback', blocks: [block] });
  });

  it.each([
    ['1 character', 'a'],
    ['255 characters', 'b'.repeat(255)],
  ])('a block_id of %s is accepted on every block type', async (_, blockId) => {
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'T' }, block_id: blockId },
      { type: 'divider', block_id: blockId },
      { type: 'markdown', text: 'm', block_id: blockId },
    ];
    await expectAccepted({ text: 'hi', blocks });
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'c'.repeat(256)],
    ['a number', 7],
  ])('a block_id that is %s is refused', async (_, blockId) => {
    expectRefused(
      await refusal({ text: 'hi', blocks: [{ type: 'divider' }, { type: 'divider', block_id: blockId }] }),
      '/blocks/1/block_id',
      {
        within: '/blocks/1',
      },
    );
  });

  const invalid: [string, unknown, string][] = [
    [
      'an unknown block type',
      { type: 'image', image_url: 'https://example.com/a.png', alt_text: 'a' },
      '/blocks/0/type',
    ],
    ['a block without type', { text: 'x' }, '/blocks/0/type'],
    ['a block that is not an object', 'divider', '/blocks/0'],
    ['a header with mrkdwn text', { type: 'header', text: { type: 'mrkdwn', text: 'x' } }, '/blocks/0/text/type'],
    ['a header with string text', { type: 'header', text: 'x' }, '/blocks/0/text'],
    ['a header without text', { type: 'header' }, '/blocks/0/text'],
    [
      'a header with a non-boolean emoji flag',
      { type: 'header', text: { type: 'plain_text', text: 'x', emoji: 'yes' } },
      '/blocks/0/text/emoji',
    ],
    [
      'a header with a verbatim flag',
      { type: 'header', text: { type: 'plain_text', text: 'x', verbatim: true } },
      '/blocks/0/text/verbatim',
    ],
    ['a section with plain_text', { type: 'section', text: { type: 'plain_text', text: 'x' } }, '/blocks/0/text/type'],
    [
      'a section with a non-boolean verbatim flag',
      { type: 'section', text: { type: 'mrkdwn', text: 'x', verbatim: 1 } },
      '/blocks/0/text/verbatim',
    ],
    [
      'a section with an emoji flag',
      { type: 'section', text: { type: 'mrkdwn', text: 'x', emoji: true } },
      '/blocks/0/text/emoji',
    ],
    ['a section with fields', { type: 'section', text: { type: 'mrkdwn', text: 'x' }, fields: [] }, '/blocks/0/fields'],
    ['a markdown block with object text', { type: 'markdown', text: { type: 'mrkdwn', text: 'x' } }, '/blocks/0/text'],
    ['a divider with text', { type: 'divider', text: 'x' }, '/blocks/0/text'],
    ['a context without elements', { type: 'context' }, '/blocks/0/elements'],
    ['a context with 0 elements', { type: 'context', elements: [] }, '/blocks/0/elements'],
    [
      'a context with 11 elements',
      { type: 'context', elements: Array.from({ length: 11 }, () => ({ type: 'plain_text', text: 'x' })) },
      '/blocks/0/elements',
    ],
    [
      'a context with a button',
      { type: 'context', elements: [{ type: 'button', text: 'x' }] },
      '/blocks/0/elements/0/type',
    ],
    [
      'a context image without alt_text',
      { type: 'context', elements: [{ type: 'image', image_url: 'https://example.com/a.png' }] },
      '/blocks/0/elements/0/alt_text',
    ],
    [
      'a context image with a javascript: URL',
      { type: 'context', elements: [{ type: 'image', image_url: 'javascript:alert(1)', alt_text: 'a' }] },
      '/blocks/0/elements/0/image_url',
    ],
    [
      'a context image with a mailto: URL',
      { type: 'context', elements: [{ type: 'image', image_url: 'mailto:a@example.com', alt_text: 'a' }] },
      '/blocks/0/elements/0/image_url',
    ],
    ['a rich_text without elements', { type: 'rich_text' }, '/blocks/0/elements'],
    [
      'a rich_text with an unknown element',
      { type: 'rich_text', elements: [{ type: 'rich_text_table', elements: [] }] },
      '/blocks/0/elements/0/type',
    ],
    [
      'a rich_text with an unknown inline element',
      { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'button', text: 'x' }] }] },
      '/blocks/0/elements/0/elements/0/type',
    ],
    [
      'a rich_text link with a javascript: URL',
      {
        type: 'rich_text',
        elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url: 'javascript:alert(1)' }] }],
      },
      '/blocks/0/elements/0/elements/0/url',
    ],
    [
      'a rich_text link with a data: URL',
      {
        type: 'rich_text',
        elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url: 'data:text/html,x' }] }],
      },
      '/blocks/0/elements/0/elements/0/url',
    ],
    [
      'a rich_text text without text',
      { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text' }] }] },
      '/blocks/0/elements/0/elements/0/text',
    ],
    [
      'a rich_text list with an unknown style',
      {
        type: 'rich_text',
        elements: [
          { type: 'rich_text_list', style: 'dashed', elements: [{ type: 'rich_text_section', elements: [] }] },
        ],
      },
      '/blocks/0/elements/0/style',
    ],
    [
      'a rich_text broadcast to an unknown range',
      {
        type: 'rich_text',
        elements: [{ type: 'rich_text_section', elements: [{ type: 'broadcast', range: 'world' }] }],
      },
      '/blocks/0/elements/0/elements/0/range',
    ],
  ];

  it.each(invalid)('%s is refused with a pointer to it', async (_, block, pointer) => {
    expectRefused(await refusal({ text: 'fallback', blocks: [block] }), pointer, { within: '/blocks/0' });
  });

  it('an error in the third block points at that block', async () => {
    const blocks = [{ type: 'divider' }, section('ok'), { type: 'header', text: { type: 'plain_text', text: 5 } }];
    expectRefused(await refusal({ text: 'hi', blocks }), '/blocks/2/text/text', { within: '/blocks/2' });
  });

  it.each([
    ['1 element', 1],
    ['10 elements', 10],
  ])('a context with %s is accepted', async (_, count) => {
    await expectAccepted({
      text: 'hi',
      blocks: [{ type: 'context', elements: Array.from({ length: count }, () => ({ type: 'plain_text', text: 'x' })) }],
    });
  });
});

describe('markdown total', () => {
  it('12,000 characters of markdown across blocks are accepted', async () => {
    await expectAccepted({
      blocks: [
        { type: 'markdown', text: 'a'.repeat(6_000) },
        { type: 'markdown', text: 'b'.repeat(6_000) },
      ],
    });
  });

  it('12,001 characters of markdown across blocks are refused', async () => {
    const blocks = [
      { type: 'markdown', text: 'a'.repeat(6_000) },
      { type: 'divider' },
      { type: 'markdown', text: 'b'.repeat(6_001) },
    ];
    expectRefused(await refusal({ blocks }), '/blocks/2/text', { within: '/blocks' });
  });

  it('markdown counts code points: 12,000 astral characters are accepted', async () => {
    await expectAccepted({ blocks: [{ type: 'markdown', text: astral.repeat(12_000) }] });
  });
});

describe('eventId and Idempotency-Key', () => {
  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['201 characters', 'e'.repeat(201)],
    ['a number', 42],
  ])('an eventId that is %s is refused', async (_, eventId) => {
    expectRefused(await refusal({ text: 'hi', eventId }), '/eventId');
  });

  it.each([
    ['1 character', 'e'],
    ['200 characters', 'e'.repeat(200)],
    ['200 characters with whitespace around', ` ${'e'.repeat(200)} `],
  ])('an eventId of %s is accepted', async (_, eventId) => {
    await expectAccepted({ text: 'hi', eventId });
  });

  it.each([
    ['empty', ''],
    ['blank', '  '],
    ['201 characters', 'k'.repeat(201)],
  ])('an Idempotency-Key that is %s is refused with a header error', async (_, key) => {
    const response = await refusal({ text: 'hi' }, { 'idempotency-key': key });
    expect(response).toEqual({
      status: 400,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: problem(400, 'invalid_payload', { errors: [{ header: 'idempotency-key', message: expect.any(String) }] }),
    });
  });

  it.each([
    ['1 character', 'k'],
    ['200 characters', 'k'.repeat(200)],
  ])('an Idempotency-Key of %s is accepted', async (_, key) => {
    await expectAccepted({ text: 'hi' }, { 'idempotency-key': key });
  });

  it('an eventId that differs from the Idempotency-Key is refused with key_mismatch', async () => {
    const response = await refusal({ text: 'hi', eventId: 'evt-1' }, { 'idempotency-key': 'evt-2' });
    expectRefused(response, '/eventId', { code: 'key_mismatch' });
  });

  it('keys that differ only by whitespace do not match', async () => {
    const response = await refusal({ text: 'hi', eventId: 'evt-1 ' }, { 'idempotency-key': 'evt-1' });
    expectRefused(response, '/eventId', { code: 'key_mismatch' });
  });

  it('an eventId equal to the Idempotency-Key is accepted', async () => {
    await expectAccepted({ text: 'hi', eventId: 'evt-1' }, { 'idempotency-key': 'evt-1' });
  });
});
