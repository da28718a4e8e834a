import { describe, expect, it } from 'vitest';
import { expectedMessage, problem, problemHeaders, setup, successHeaders } from '../support/setup.js';

const divider = { type: 'divider' };
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const markdown = (text: string) => ({ type: 'markdown', text });

// Rule: 50 blocks is the most a payload may have, and a payload of exactly 50 gets every check a
// shorter one gets: each block's own rules, the 12,000-character total of its markdown blocks,
// and visible text when `text` is left out.
describe('a payload of exactly 50 blocks is checked block by block', () => {
  it('50 blocks whose markdown totals 12,001 characters are refused with a pointer to the blocks', async () => {
    const s = await setup();
    const blocks = [...Array.from({ length: 49 }, () => markdown('a'.repeat(240))), markdown('b'.repeat(241))];
    expect(blocks).toHaveLength(50);
    const response = await s.post({ blocks });
    expect(response).toEqual({
      status: 400,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: problem(400, 'invalid_payload', {
        detail: 'One field is invalid; see errors.',
        errors: [
          {
            pointer: '/blocks',
            message: 'markdown blocks together must have at most 12,000 characters; these have 12,001',
          },
        ],
      }),
    });
    expect(await s.store.listMessages('general')).toEqual([]);
  });

  it('50 dividers without text are refused: nothing in them is visible', async () => {
    const s = await setup();
    const response = await s.post({ blocks: Array.from({ length: 50 }, () => divider) });
    expect(response).toEqual({
      status: 400,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: problem(400, 'invalid_payload', {
        detail: 'One field is invalid; see errors.',
        // Slack takes blocks without text: the refusal says what to add.
        errors: [
          {
            pointer: '/blocks',
            message: 'must contain visible text when text is omitted',
            hint: expect.stringMatching(/#blocks-without-text$/),
          },
        ],
      }),
    });
    expect(await s.store.listMessages('general')).toEqual([]);
  });

  it('50 blocks, the last of a type that does not exist, are refused with a pointer to its type', async () => {
    const s = await setup();
    const response = await s.post({
      text: 'Deploy finished',
      blocks: [...Array.from({ length: 49 }, () => section('ok')), { type: 'button', text: 'Retry' }],
    });
    expect(response).toEqual({
      status: 400,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: problem(400, 'invalid_payload', {
        detail: 'One field is invalid; see errors.',
        errors: [
          {
            pointer: '/blocks/49/type',
            message: 'must be one of "header", "section", "markdown", "divider", "context", "rich_text"',
          },
        ],
      }),
    });
    expect(await s.store.listMessages('general')).toEqual([]);
  });

  it('50 valid blocks, 12,000 characters of markdown among them, are stored: 201', async () => {
    const s = await setup();
    const blocks = [
      ...Array.from({ length: 48 }, () => markdown('a'.repeat(250))),
      section('Deploy *42* finished'),
      divider,
    ];
    expect(blocks).toHaveLength(50);
    const response = await s.post({ blocks });
    expect(response).toEqual({
      status: 201,
      headers: successHeaders(59),
      body: { message: expectedMessage(s, { blocks }), duplicate: false },
    });
    expect(await s.store.listMessages('general')).toEqual([(response.body as { message: unknown }).message]);
  });

  it('51 blocks are refused as too many', async () => {
    const s = await setup();
    const response = await s.post({ blocks: Array.from({ length: 51 }, () => section('ok')) });
    expect(response).toEqual({
      status: 400,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: problem(400, 'invalid_payload', {
        detail: 'One field is invalid; see errors.',
        errors: [{ pointer: '/blocks', message: 'must have at most 50 items' }],
      }),
    });
  });
});
