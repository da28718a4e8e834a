import { describe, expect, it, vi } from 'vitest';
import { problem, problemHeaders, setup, successHeaders, expectedMessage } from '../support/setup.js';

const WELL_FORMED_ID = `wh_${'A'.repeat(22)}`;
const WELL_FORMED_SECRET = 'B'.repeat(43);

describe('405 method not allowed', () => {
  it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'])('%s answers 405 with allow: POST', async (method) => {
    const s = await setup();
    const read = vi.fn(async () => '{"text":"hi"}');
    const response = await s.post(undefined, { method, raw: read });
    expect(response).toEqual({
      status: 405,
      headers: problemHeaders(undefined, { allow: 'POST' }),
      body: problem(405, 'method_not_allowed'),
    });
    expect(read).not.toHaveBeenCalled();
  });

  it('answers 405 whatever the URL, even one that is not a webhook URL', async () => {
    const s = await setup();
    for (const url of ['/nope', `/hooks/channels/${WELL_FORMED_ID}/${WELL_FORMED_SECRET}`, '/hooks/channels/x/y']) {
      const response = await s.post({ text: 'hi' }, { method: 'GET', url });
      expect(response).toEqual({
        status: 405,
        headers: problemHeaders(undefined, { allow: 'POST' }),
        body: problem(405, 'method_not_allowed'),
      });
    }
  });

  it('accepts the method name in any case', async () => {
    const s = await setup();
    const response = await s.post({ text: 'hi' }, { method: 'post' });
    expect(response).toEqual({
      status: 201,
      headers: successHeaders(59),
      body: { message: expectedMessage(s, { text: 'hi' }), duplicate: false },
    });
  });
});
