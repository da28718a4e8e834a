import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatePayload, type Block, type WebhookPayload } from '../../src/index.js';
import { setup } from '../support/setup.js';

const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'blockkit');
const corpus = readdirSync(CORPUS)
  .filter((name) => name.endsWith('.json'))
  .map((name) => [name, JSON.parse(readFileSync(join(CORPUS, name), 'utf8')) as unknown] as const);

const refused: Array<[string, unknown, string | undefined]> = [
  ['an unknown top-level field', { text: 'x', colour: 'red' }, undefined],
  ['a header with mrkdwn text', { blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'Deploy' } }] }, undefined],
  ['an unknown block type', { text: 'x', blocks: [{ type: 'actions', elements: [] }] }, undefined],
  ['blank text', { text: '   ' }, undefined],
  ['a divider alone', { blocks: [{ type: 'divider' }] }, undefined],
  [
    'markdown over the total',
    {
      blocks: [
        { type: 'markdown', text: 'a'.repeat(6_001) },
        { type: 'markdown', text: 'b'.repeat(6_000) },
      ],
    },
    undefined,
  ],
  ['a NUL in text', { text: 'a\u0000b' }, undefined],
  ['an eventId that differs from the header', { text: 'x', eventId: 'a' }, 'b'],
  ['not an object', ['text'], undefined],
];

describe('validatePayload', () => {
  it.each(refused)('refuses %s with the errors the endpoint answers', async (_, payload, key) => {
    const s = await setup();
    const answer = await s.post(payload, key === undefined ? {} : { idempotencyKey: key });
    expect(answer.status).toBe(400);
    const problem = answer.body as { code: string; detail: string; errors: unknown[] };
    expect(validatePayload(payload, key === undefined ? {} : { idempotencyKey: key })).toEqual({
      ok: false,
      code: problem.code,
      detail: problem.detail,
      errors: problem.errors,
    });
  });

  it('accepts every Block Kit payload of the corpus that the endpoint stores, and refuses the others alike', async () => {
    const s = await setup({
      rateLimiter: { hit: () => ({ allowed: true, limit: 1_000, windowMs: 60_000, remaining: 999, resetMs: 0 }) },
    });
    for (const [name, payload] of corpus) {
      const answer = await s.post(payload);
      const check = validatePayload(payload);
      if (answer.status === 201) expect(check, name).toEqual({ ok: true, payload, key: null });
      else expect(check, name).toMatchObject({ ok: false, errors: (answer.body as { errors: unknown[] }).errors });
    }
  });

  it('gives the idempotency key the endpoint would use: eventId, else the header, else null', () => {
    expect(validatePayload({ text: 'x', eventId: 'deploy-42' })).toEqual({
      ok: true,
      payload: { text: 'x', eventId: 'deploy-42' },
      key: 'deploy-42',
    });
    expect(validatePayload({ text: 'x' }, { idempotencyKey: 'k' })).toMatchObject({ ok: true, key: 'k' });
    expect(validatePayload({ text: 'x', eventId: 'k' }, { idempotencyKey: 'k' })).toMatchObject({ ok: true, key: 'k' });
    expect(validatePayload({ text: 'x' })).toMatchObject({ ok: true, key: null });
  });
});

// The payload types are the TypeBox schemas' static types: what the validator refuses for its shape
// is a compile error (tsc checks this file), and what the types accept the validator accepts.
describe('payload types', () => {
  it('type the blocks and elements a sender writes, and the validator accepts them', () => {
    const blocks: Block[] = [
      { type: 'header', text: { type: 'plain_text', text: 'Deploy 42', emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: '*api* is live' }, block_id: 's1' },
      { type: 'markdown', text: '## Changes' },
      { type: 'divider' },
      {
        type: 'context',
        elements: [
          { type: 'image', image_url: 'https://example.com/a.png', alt_text: 'a' },
          { type: 'plain_text', text: 'ci' },
        ],
      },
      {
        type: 'rich_text',
        elements: [
          {
            type: 'rich_text_section',
            elements: [
              { type: 'text', text: 'by ', style: { bold: true } },
              { type: 'user', user_id: 'U1' },
            ],
          },
          {
            type: 'rich_text_list',
            style: 'bullet',
            elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url: 'https://example.com' }] }],
          },
          { type: 'rich_text_quote', elements: [{ type: 'broadcast', range: 'here' }] },
          {
            type: 'rich_text_preformatted',
            elements: [{ type: 'date', timestamp: 0, format: '{date}' }],
            language: 'sh',
          },
        ],
      },
    ];
    const payloads: WebhookPayload[] = [
      { text: 'only text' },
      { blocks },
      { text: 'both', blocks, eventId: 'deploy-42' },
    ];
    for (const payload of payloads) expect(validatePayload(payload)).toMatchObject({ ok: true });
  });

  it('make a refused field a compile error', () => {
    const refusedAtCompileTime: unknown[] = [
      // @ts-expect-error `colour` is not a field of a payload
      { text: 'x', colour: 'red' } satisfies WebhookPayload,
      // @ts-expect-error a payload needs text or blocks
      {} satisfies WebhookPayload,
      // @ts-expect-error a header's text is plain_text
      { type: 'header', text: { type: 'mrkdwn', text: 'x' } } satisfies Block,
      // @ts-expect-error `actions` is not an allowed block
      { type: 'actions', elements: [] } satisfies Block,
      // @ts-expect-error a context element is plain_text, mrkdwn or image
      { type: 'context', elements: [{ type: 'button', text: 'x' }] } satisfies Block,
      // @ts-expect-error a list's style is bullet or ordered
      { type: 'rich_text', elements: [{ type: 'rich_text_list', style: 'dashed', elements: [] }] } satisfies Block,
    ];
    for (const payload of refusedAtCompileTime) expect(validatePayload(payload).ok).toBe(false);
  });
});
