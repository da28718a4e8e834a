import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatePayload, type FieldError } from '../../src/index.js';
import { anchorsOf, root } from '../docs/doc-files.js';
import { problem, problemHeaders, setup } from '../support/setup.js';

// A refusal of a Slack construct the contract does not take says what to send instead, in the 400
// answer, in validatePayload's result (the same entries) and so in the command's output; one cause
// is one error. Anything else is refused as before, without a hint.
const GUIDE = 'https://github.com/channel-webhooks/channel-webhooks/blob/main/docs/slack-differences.md';
const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'blockkit');

const hinted = (pointer: string, message: string, anchor: string) => ({
  pointer,
  message,
  hint: expect.stringMatching(new RegExp(`\\. See ${GUIDE.replace(/\./g, '\\.')}#${anchor}$`)),
});

/** Posts `payload` and checks that the 400 lists `errors` exactly, as validatePayload does. */
async function expectErrors(payload: unknown, errors: unknown[]) {
  const s = await setup();
  const response = await s.post(payload);
  expect(response).toEqual({
    status: 400,
    headers: problemHeaders({ remaining: 59, seconds: 60 }),
    body: problem(400, 'invalid_payload', { errors }),
  });
  expect(validatePayload(payload)).toEqual({
    ok: false,
    code: 'invalid_payload',
    detail: expect.any(String),
    errors: (response.body as { errors: FieldError[] }).errors,
  });
  expect(await s.store.listMessages('general')).toEqual([]);
}

const section = (fields: Record<string, unknown>) => ({ blocks: [{ type: 'section', ...fields }] });
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const button = { type: 'button', text: { type: 'plain_text', text: 'Open' }, url: 'https://ci.example.com/42' };
const image = { type: 'image', image_url: 'https://example.com/a.png', alt_text: 'chart' };

describe('one cause, one error, with a hint', () => {
  it('a section whose fields stand for its text: one error at /fields, not also "text is required"', async () => {
    await expectErrors(section({ fields: [mrkdwn('*Env*'), mrkdwn('prod')] }), [
      hinted('/blocks/0/fields', 'is not an allowed property', 'section-fields'),
    ]);
  });

  it('a section with text and fields: the error at /fields carries the hint', async () => {
    await expectErrors(section({ text: mrkdwn('Deploy'), fields: [mrkdwn('prod')] }), [
      hinted('/blocks/0/fields', 'is not an allowed property', 'section-fields'),
    ]);
  });

  it('a section with fields and an accessory and no text: two causes, two errors, each with its hint', async () => {
    await expectErrors(section({ fields: [mrkdwn('prod')], accessory: image }), [
      hinted('/blocks/0/fields', 'is not an allowed property', 'section-fields'),
      hinted('/blocks/0/accessory', 'is not an allowed property', 'section-accessory'),
    ]);
  });

  it.each([
    ['an image', image, /put the image in a `context` block/],
    ['a button', button, /put the button's URL as a link/],
    ['a select menu', { type: 'static_select', options: [] }, /leave it out/],
  ])('a section accessory that is %s gets the hint for it', async (_, accessory, words) => {
    await expectErrors(section({ text: mrkdwn('Deploy'), accessory }), [
      hinted('/blocks/0/accessory', 'is not an allowed property', 'section-accessory'),
    ]);
    expect(
      (validatePayload(section({ text: mrkdwn('Deploy'), accessory })) as { errors: FieldError[] }).errors[0]!.hint,
    ).toMatch(words);
  });

  it('a section with plain_text text and its emoji flag: one error at /text/type, not also /text/emoji', async () => {
    await expectErrors(section({ text: { type: 'plain_text', text: 'Deploy', emoji: true } }), [
      hinted('/blocks/0/text/type', 'must be "mrkdwn"', 'section-text'),
    ]);
  });

  it('a header with mrkdwn text and its verbatim flag: one error at /text/type, not also /text/verbatim', async () => {
    await expectErrors({ blocks: [{ type: 'header', text: { type: 'mrkdwn', text: '*Deploy*', verbatim: true } }] }, [
      hinted('/blocks/0/text/type', 'must be "plain_text"', 'header-text'),
    ]);
  });

  it.each([
    ['image', image, 'image-blocks'],
    ['actions', { type: 'actions', elements: [button] }, 'actions-blocks'],
    [
      'input',
      { type: 'input', element: { type: 'plain_text_input' }, label: { type: 'plain_text', text: 'x' } },
      'other-blocks',
    ],
    [
      'video',
      { type: 'video', video_url: 'https://example.com/v', title: { type: 'plain_text', text: 'demo' } },
      'other-blocks',
    ],
    ['file', { type: 'file', external_id: 'x', source: 'remote' }, 'other-blocks'],
  ])('the %s block type gets its hint at /type', async (_, block, anchor) => {
    await expectErrors({ text: 'x', blocks: [block] }, [
      hinted(
        '/blocks/0/type',
        'must be one of "header", "section", "markdown", "divider", "context", "rich_text"',
        anchor,
      ),
    ]);
  });

  it.each([
    ['attachments', [{ color: '#e01e5a', text: 'step 3' }], 'attachments'],
    ['username', 'deploy-bot', 'message-fields'],
    ['icon_emoji', ':rocket:', 'message-fields'],
    ['icon_url', 'https://example.com/bot.png', 'message-fields'],
    ['channel', '#alerts', 'message-fields'],
    ['thread_ts', '1700000000.000100', 'message-fields'],
    ['mrkdwn', false, 'message-fields'],
    ['unfurl_links', false, 'message-fields'],
    ['link_names', 1, 'message-fields'],
    ['response_type', 'in_channel', 'message-fields'],
  ])('the Slack message field %s gets its hint', async (field, value, anchor) => {
    await expectErrors({ text: 'hi', [field]: value }, [hinted(`/${field}`, 'is not an allowed property', anchor)]);
  });

  it('blocks that show no text without a text get the hint to add one', async () => {
    await expectErrors(
      {
        blocks: [
          { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'user', user_id: 'U1' }] }] },
        ],
      },
      [hinted('/blocks', 'must contain visible text when text is omitted', 'blocks-without-text')],
    );
  });

  it('a rich_text team element gets its hint', async () => {
    const payload = {
      blocks: [
        { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'team', team_id: 'T1' }] }] },
      ],
    };
    await expectErrors(payload, [
      hinted(
        '/blocks/0/elements/0/elements/0/type',
        'must be one of "text", "link", "emoji", "user", "channel", "usergroup", "broadcast", "date", "color"',
        'rich-text-elements',
      ),
    ]);
  });
});

describe('what is not a Slack construct is refused as before, without a hint', () => {
  it.each([
    [
      'an unknown property',
      { text: 'hi', colour: 'red' },
      [{ pointer: '/colour', message: 'is not an allowed property' }],
    ],
    [
      'a property named like a Slack field inside a block',
      { blocks: [{ type: 'divider', channel: '#a' }], text: 'x' },
      [{ pointer: '/blocks/0/channel', message: 'is not an allowed property' }],
    ],
    ['a section without text', section({}), [{ pointer: '/blocks/0/text', message: 'is required' }]],
    [
      'a block type Slack does not have',
      { text: 'x', blocks: [{ type: 'carousel' }] },
      [
        {
          pointer: '/blocks/0/type',
          message: 'must be one of "header", "section", "markdown", "divider", "context", "rich_text"',
        },
      ],
    ],
    ['blank text', { text: '  ' }, [{ pointer: '/text', message: 'must have 1 to 10,000 characters after trimming' }]],
  ])('%s', async (_, payload, errors) => {
    await expectErrors(payload, errors);
  });

  it('a section with fields whose text is also invalid keeps the text error: it is a cause of its own', async () => {
    await expectErrors(section({ text: { type: 'mrkdwn' }, fields: [mrkdwn('prod')] }), [
      hinted('/blocks/0/fields', 'is not an allowed property', 'section-fields'),
      { pointer: '/blocks/0/text/text', message: 'is required' },
    ]);
  });

  it('a payload full of Slack fields still lists at most 20 errors', () => {
    const payload = {
      text: 'hi',
      ...Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`field${index}`, 1])),
      username: 'x',
      channel: '#a',
    };
    const check = validatePayload(payload);
    expect(check.ok).toBe(false);
    expect((check as { errors: unknown[] }).errors).toHaveLength(20);
  });
});

describe('hints over the Block Kit corpus', () => {
  const refused = readdirSync(CORPUS)
    .filter((name) => name.endsWith('.json'))
    .map((name) => [name, validatePayload(JSON.parse(readFileSync(join(CORPUS, name), 'utf8')))] as const)
    .filter(([, check]) => !check.ok) as unknown as [string, { errors: FieldError[] }][];

  it('39 payloads are refused, and every refusal of fields, accessory, image and actions blocks and channel carries a hint', () => {
    expect(refused).toHaveLength(39);
    const slack = refused.flatMap(([name, check]) =>
      check.errors
        .filter(
          (error) =>
            /\/(fields|accessory)$|^\/channel$|^\/response_type$/.test(error.pointer ?? '') ||
            /^\/blocks\/\d+\/type$/.test(error.pointer ?? ''),
        )
        .map((error) => [name, error] as const),
    );
    expect(slack.length).toBeGreaterThan(40);
    expect(slack.filter(([, error]) => error.hint === undefined)).toEqual([]);
  });

  it('no section refused for its fields is also told that its text is required', () => {
    for (const [name, { errors }] of refused) {
      const fields = errors
        .filter((error) => error.pointer?.endsWith('/fields'))
        .map((error) => error.pointer!.replace(/\/fields$/, '/text'));
      expect(
        errors.filter((error) => fields.includes(error.pointer!)),
        name,
      ).toEqual([]);
    }
  });
});

describe('every hint links to a section of docs/slack-differences.md', () => {
  const anchors = anchorsOf(readFileSync(join(root, 'docs', 'slack-differences.md'), 'utf8'));
  const payloads = [
    section({ fields: [mrkdwn('x')], accessory: image, text: { type: 'plain_text', text: 'x' } }),
    section({ text: mrkdwn('x'), accessory: button }),
    section({ text: mrkdwn('x'), accessory: { type: 'overflow' } }),
    { blocks: [{ type: 'header', text: mrkdwn('x') }] },
    { blocks: ['image', 'actions', 'input', 'video', 'file', 'call'].map((type) => ({ type })) },
    { blocks: [{ type: 'divider' }] },
    {
      blocks: [
        { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'team', team_id: 'T1' }] }] },
      ],
    },
    {
      text: 'x',
      ...Object.fromEntries(
        [
          'attachments',
          'username',
          'icon_emoji',
          'icon_url',
          'channel',
          'thread_ts',
          'reply_broadcast',
          'mrkdwn',
          'unfurl_links',
          'unfurl_media',
        ].map((field) => [field, 1]),
      ),
    },
    {
      text: 'x',
      ...Object.fromEntries(
        ['link_names', 'parse', 'response_type', 'replace_original', 'delete_original', 'metadata'].map((field) => [
          field,
          1,
        ]),
      ),
    },
  ];
  const hints = payloads.flatMap((payload) =>
    ((validatePayload(payload) as { errors?: FieldError[] }).errors ?? []).flatMap((error) => error.hint ?? []),
  );

  it('each hint names the guide and an anchor that is a heading there', () => {
    expect(new Set(hints).size).toBeGreaterThanOrEqual(30);
    for (const hint of hints) {
      const anchor = hint.split(` See ${GUIDE}#`)[1];
      expect(anchor, hint).toMatch(/^[\w-]+$/);
      expect(anchors.has(anchor!), `${hint}: no heading #${anchor}`).toBe(true);
    }
  });
});
