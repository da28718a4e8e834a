import { describe, expect, it, vi } from 'vitest';
import { problem, problemHeaders, setup, successHeaders, expectedMessage } from '../support/setup.js';

describe('415 unsupported media type', () => {
  const UNSUPPORTED = { status: 415, headers: problemHeaders(), body: problem(415, 'unsupported_media_type') };

  it.each([
    ['missing', undefined],
    ['text/plain', 'text/plain'],
    ['form data', 'application/x-www-form-urlencoded'],
    ['a charset other than UTF-8', 'application/json; charset=latin1'],
    ['a JSON-like type', 'application/jsonx'],
  ])('Content-Type %s answers 415 without reading the body', async (_, contentType) => {
    const s = await setup();
    const read = vi.fn(async () => '{"text":"hi"}');
    const response = await s.post(undefined, { headers: { 'content-type': contentType }, raw: read });
    expect(response).toEqual(UNSUPPORTED);
    expect(read).not.toHaveBeenCalled();
  });

  it.each([
    'application/json; charset=UTF-8',
    'Application/JSON',
    'application/json;charset="utf-8"',
    'application/json; foo=bar',
  ])('Content-Type %s is accepted', async (contentType) => {
    const s = await setup();
    const response = await s.post({ text: 'hi' }, { headers: { 'content-type': contentType } });
    expect(response).toEqual({
      status: 201,
      headers: successHeaders(59),
      body: { message: expectedMessage(s, { text: 'hi' }), duplicate: false },
    });
  });
});
