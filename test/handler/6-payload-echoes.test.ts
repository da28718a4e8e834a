import { describe, expect, it } from 'vitest';
import { problemHeaders, setup } from '../support/setup.js';

// Rule: an answer never quotes the request body back; what it says about the input is bounded.
describe('what a refusal repeats of the body', () => {
  it.each([
    ['an unterminated string', '{"text":"hunter2-secret-token'],
    ['trailing text', '{"text":"hi"} hunter2-secret-token'],
    ['a bare word', 'hunter2-secret-token'],
    ['a broken member', '{"text":"hi", hunter2-secret-token: 1}'],
  ])('invalid JSON (%s) gets a fixed detail that quotes nothing', async (_, raw) => {
    const s = await setup();
    const response = await s.post(undefined, { raw });
    expect(response).toEqual({
      status: 400,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: {
        type: 'tag:channel-webhooks,2026:problem:invalid_json',
        title: 'Invalid JSON',
        status: 400,
        detail: 'The body is not valid JSON.',
        code: 'invalid_json',
        errors: [{ pointer: '', message: 'must be valid JSON' }],
      },
    });
    expect(JSON.stringify(response)).not.toContain('hunter2');
  });

  it('a member name too long to repeat is cut after 64 characters, marked, and the whole answer stays small', async () => {
    const s = await setup();
    const name = 'n'.repeat(10_000);
    const top = await s.post(undefined, { raw: `{"text":"hi","${name}":1}` });
    expect(top.status).toBe(400);
    expect(top.body).toMatchObject({
      code: 'invalid_payload',
      errors: [{ pointer: `/${'n'.repeat(64)}…`, message: 'is not an allowed property' }],
    });
    const nested = await s.post(undefined, {
      raw: `{"blocks":[{"type":"section","text":{"type":"mrkdwn","text":"x"},"${name}":1}]}`,
    });
    expect(nested.status).toBe(400);
    expect((nested.body as { errors: { pointer: string }[] }).errors.map((error) => error.pointer)).toContain(
      `/blocks/0/${'n'.repeat(64)}…`,
    );
    for (const response of [top, nested]) expect(JSON.stringify(response).length).toBeLessThan(2_000);
  });

  it('a member name of up to 64 characters is pointed at exactly', async () => {
    const s = await setup();
    const name = 'm'.repeat(64);
    const response = await s.post(undefined, { raw: `{"text":"hi","${name}":1}` });
    expect(response.body).toMatchObject({ errors: [{ pointer: `/${name}`, message: 'is not an allowed property' }] });
  });
});
