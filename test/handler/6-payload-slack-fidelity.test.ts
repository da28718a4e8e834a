import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatePayload } from '../../src/validation/validate-payload.js';
import { expectedMessage, setup, successHeaders } from '../support/setup.js';

const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'blockkit');
const corpus = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(CORPUS, name), 'utf8'));
const richText = (...inline: unknown[]) => ({
  blocks: [
    {
      type: 'rich_text',
      elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'see ' }, ...inline] }],
    },
  ],
});
const richTextWith = (element: unknown) => ({ blocks: [{ type: 'rich_text', elements: [element] }] });
const errorsOf = (payload: unknown) => {
  const result = validatePayload(payload, undefined, false);
  return result.ok ? [] : result.errors;
};

async function expectStored(payload: Record<string, unknown>) {
  const s = await setup();
  const response = await s.post(payload);
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

const style = {
  bold: true,
  italic: true,
  strike: true,
  code: true,
  underline: true,
  highlight: true,
  client_highlight: true,
  unlink: true,
};

describe('rich_text fields that Slack documents are accepted', () => {
  it.each([
    [
      'emoji with style and url',
      { type: 'emoji', name: 'party', url: 'https://emoji.example.com/party.png', style: { bold: true } },
    ],
    ['emoji with unicode and skin_tone', { type: 'emoji', name: '+1', unicode: '1f44d-1f3fb', skin_tone: 2 }],
    [
      'date with style, timezone, url and fallback',
      {
        type: 'date',
        timestamp: 1_720_710_212,
        format: '{date_num} at {time}',
        timezone: 'Europe/Paris',
        url: 'https://example.com',
        fallback: 'July 11',
        style: { italic: true },
      },
    ],
    ['color with style', { type: 'color', value: '#F405B3', style: { highlight: true } }],
    ['text with every style flag', { type: 'text', text: 'styled', style }],
    ['link with every style flag', { type: 'link', url: 'https://example.com', text: 'site', unsafe: false, style }],
    [
      'link with from_llm, is_slack_url and truncated',
      {
        type: 'link',
        url: 'https://example.slack.com/archives/C1',
        from_llm: false,
        is_slack_url: true,
        truncated: false,
      },
    ],
    [
      'user with style and from_llm',
      { type: 'user', user_id: 'U123', from_llm: false, style: { client_highlight: true } },
    ],
    ['channel with style', { type: 'channel', channel_id: 'C123', style: { unlink: true } }],
    ['usergroup with style', { type: 'usergroup', usergroup_id: 'S123', style: { strike: true } }],
    ['broadcast with style', { type: 'broadcast', range: 'here', style: { bold: true } }],
  ])('%s', async (_, inline) => {
    await expectStored(richText(inline));
  });

  it.each([
    [
      'a preformatted block with language and border',
      { type: 'rich_text_preformatted', language: 'python', border: 1, elements: [{ type: 'text', text: 'print(1)' }] },
    ],
    ['a quote with border', { type: 'rich_text_quote', border: 1, elements: [{ type: 'text', text: 'quoted' }] }],
    [
      'a list with indent, offset and border',
      {
        type: 'rich_text_list',
        style: 'ordered',
        indent: 2,
        offset: 4,
        border: 1,
        elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'fifth' }] }],
      },
    ],
  ])('%s', async (_, element) => {
    await expectStored(richTextWith(element));
  });
});

describe('what Slack refuses stays refused, with the pointer at the field', () => {
  it.each([
    [
      'a style flag Slack does not document',
      richText({ type: 'text', text: 'x', style: { blink: true } }),
      '/blocks/0/elements/0/elements/1/style/blink',
    ],
    [
      'a style flag that is not a boolean',
      richText({ type: 'user', user_id: 'U1', style: { bold: 'yes' } }),
      '/blocks/0/elements/0/elements/1/style/bold',
    ],
    [
      'a date timestamp sent as a string',
      richText({ type: 'date', timestamp: '1628633089', format: '{ago}' }),
      '/blocks/0/elements/0/elements/1/timestamp',
    ],
    [
      'a date timezone that is not a string',
      richText({ type: 'date', timestamp: 1, format: '{ago}', timezone: 2 }),
      '/blocks/0/elements/0/elements/1/timezone',
    ],
    [
      'an emoji url that is not http(s)',
      richText({ type: 'emoji', name: 'x', url: 'javascript:alert(1)' }),
      '/blocks/0/elements/0/elements/1/url',
    ],
    [
      'a preformatted language that is not a string',
      richTextWith({ type: 'rich_text_preformatted', language: 7, elements: [{ type: 'text', text: 'x' }] }),
      '/blocks/0/elements/0/language',
    ],
    [
      'a list border of 2',
      richTextWith({
        type: 'rich_text_list',
        style: 'bullet',
        border: 2,
        elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'x' }] }],
      }),
      '/blocks/0/elements/0/border',
    ],
    [
      'a list without style',
      richTextWith({
        type: 'rich_text_list',
        elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'x' }] }],
      }),
      '/blocks/0/elements/0/style',
    ],
    [
      'an inline element Slack has but the contract leaves out (team)',
      richText({ type: 'team', team_id: 'T1' }),
      '/blocks/0/elements/0/elements/1/type',
    ],
  ])('%s', (_, payload, pointer) => {
    expect(errorsOf(payload).map((error) => error.pointer)).toEqual([pointer]);
  });
});

describe('one error per pointer', () => {
  it('a section without text gets one error at /text, not two', () => {
    expect(errorsOf({ blocks: [{ type: 'section' }] })).toEqual([
      { pointer: '/blocks/0/text', message: 'is required' },
    ]);
  });

  it('a list without style gets one error at /style', () => {
    const errors = errorsOf(
      richTextWith({
        type: 'rich_text_list',
        elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'x' }] }],
      }),
    );
    expect(errors).toEqual([{ pointer: '/blocks/0/elements/0/style', message: 'is required' }]);
  });

  it('every corpus payload names each pointer at most once', () => {
    for (const name of readdirSync(CORPUS).filter((file) => file.endsWith('.json'))) {
      const pointers = errorsOf(corpus(name)).map((error) => error.pointer ?? error.header);
      expect(new Set(pointers).size, name).toBe(pointers.length);
    }
  });
});

describe('block_id counts code points', () => {
  it('a block_id of 200 emoji (400 UTF-16 units) is accepted', async () => {
    await expectStored({ text: 'hi', blocks: [{ type: 'divider', block_id: '😀'.repeat(200) }] });
  });

  it('a block_id of 255 emoji is accepted and 256 is refused', () => {
    expect(errorsOf({ text: 'hi', blocks: [{ type: 'divider', block_id: '😀'.repeat(255) }] })).toEqual([]);
    expect(errorsOf({ text: 'hi', blocks: [{ type: 'divider', block_id: '😀'.repeat(256) }] })).toEqual([
      { pointer: '/blocks/0/block_id', message: 'must have 1 to 255 characters' },
    ]);
  });
});

// Payloads of the corpus that the field rules of docs/design.md allow, as written by their authors.
const CONTRACT_VALID = [
  'slackdocs-richtext-1.json',
  'slackdocs-richtext-2.json',
  'slackdocs-richtext-3.json',
  'slackdocs-richtext-4.json',
  'slackdocs-richtext-5.json',
  'slackdocs-richtext-11.json',
  'slackdocs-context-1.json',
  'slackdocs-header-1.json',
  'slackdocs-markdown-1.json',
  'slackdocs-section-1.json',
  'pysdk-context.json',
  'pysdk-header.json',
  'pysdk-markdown.json',
  'pysdk-docs-webhook.json',
  'javasdk-chat-update-verbatim.json',
  'slackgo-richtext-channel.json',
  'slackgo-event-thread-broadcast.json',
  'circleci-sample-custom-template.json',
  'circleci-sample-custom-template-with-link.json',
  'circleci-sample-custom-template-with-special-chars.json',
  'circleci-sample-custom-template-with-text.json',
];

// Refused payloads and the exact fields they are refused at: blocks and fields outside the contract.
const REFUSED: [string, string[]][] = [
  ['slackdocs-section-2.json', ['/blocks/0/fields']],
  ['slackdocs-section-3.json', ['/blocks/0/accessory']],
  ['slackdocs-team-1.json', ['/blocks/0/elements/0/elements/0/type']],
  ['slackdocs-divider-1.json', ['/blocks']],
  ['slackdocs-richtext-10.json', ['/blocks']],
  ['pysdk-section-fields.json', ['/blocks/0/fields']],
  ['pysdk-richtext-parsed.json', ['/blocks/0/elements/3/style']],
  ['pysdk-richtext-complex.json', [5, 6, 7, 8].map((index) => `/blocks/0/elements/10/elements/${index}/timestamp`)],
  ['pysdk-webhook-send-blocks.json', ['/response_type', '/blocks/2/accessory']],
  // One cause, one error: the fields stood for the section's text, so `/blocks/3/text` is not listed too.
  ['athenz-group-membership-approval.json', ['/blocks/3/fields']],
  ['posthog-slack-default.json', ['/blocks/1/type']],
  ['linea-e2e-runtime-report.json', ['/channel', '/blocks/4/elements/0/elements/1/url']],
];

describe('the Block Kit corpus', () => {
  it.each(CONTRACT_VALID)('%s is accepted', async (name) => {
    await expectStored(corpus(name));
  });

  it.each(REFUSED)('%s is refused at exactly its offending fields', (name, pointers) => {
    expect(errorsOf(corpus(name)).map((error) => error.pointer)).toEqual(pointers);
  });
});

describe('what the error list reflects is bounded', () => {
  it('a 60 KB property name comes back cut to 64 units and marked', async () => {
    const s = await setup();
    const key = 'k'.repeat(60_000);
    const response = await s.post({ text: 'hi', [key]: 1 });
    expect(response.status).toBe(400);
    expect((response.body as { errors: unknown[] }).errors).toEqual([
      { pointer: `/${'k'.repeat(64)}…`, message: 'is not an allowed property' },
    ]);
    expect(JSON.stringify(response.body).length).toBeLessThan(1_000);
  });

  it('a cut never splits a surrogate pair or a ~ escape', () => {
    expect(errorsOf({ text: 'hi', [`${'a'.repeat(63)}😀tail`]: 1 })[0]?.pointer).toBe(`/${'a'.repeat(63)}…`);
    expect(errorsOf({ text: 'hi', [`${'a'.repeat(63)}/tail`]: 1 })[0]?.pointer).toBe(`/${'a'.repeat(63)}…`);
  });

  it('many unknown properties yield at most 20 errors', () => {
    const payload = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`extra${index}`, index]));
    expect(errorsOf({ text: 'hi', ...payload })).toHaveLength(20);
  });
});

describe('messages', () => {
  it('an empty text gets the whole rule, once', () => {
    expect(errorsOf({ text: '' })).toEqual([
      { pointer: '/text', message: 'must have 1 to 10,000 characters after trimming' },
    ]);
  });
});
