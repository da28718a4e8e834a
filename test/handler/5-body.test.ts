import { describe, expect, it, vi } from 'vitest';
import { ChannelWebhookError } from '../../src/errors.js';
import type { WebhookResponse } from '../../src/http/http-types.js';
import { MAX_BODY_BYTES } from '../../src/limits.js';
import { expectedMessage, problem, problemHeaders, setup, successHeaders } from '../support/setup.js';

const encoder = new TextEncoder();
const TOO_LARGE = {
  status: 413,
  headers: problemHeaders({ remaining: 59, seconds: 60 }),
  body: problem(413, 'payload_too_large'),
};

/**
 * A 400 about the body as a whole: there is no field to point at, so a list of field errors is
 * optional, but if present it is well formed.
 */
/** A 400 about the body as a whole: its one error points at the document root (`""`). */
function expectBodyRefused(response: WebhookResponse, code: string): void {
  expect(response).toEqual({
    status: 400,
    headers: problemHeaders({ remaining: 59, seconds: 60 }),
    body: problem(400, code, { errors: [{ pointer: '', message: expect.any(String) }] }),
  });
}

/** `{"text":"hi"}` followed by spaces up to exactly `bytes` bytes. */
function paddedBody(bytes: number): string {
  const json = JSON.stringify({ text: 'hi' });
  return json + ' '.repeat(bytes - json.length);
}

describe('413 payload too large', () => {
  it('a Content-Length over 65,536 answers 413 without reading the body', async () => {
    const s = await setup();
    const read = vi.fn(async () => '{"text":"hi"}');
    const response = await s.post(undefined, { raw: read, headers: { 'content-length': String(MAX_BODY_BYTES + 1) } });
    expect(response).toEqual(TOO_LARGE);
    expect(read).not.toHaveBeenCalled();
  });

  it('a body of more than 65,536 bytes read answers 413', async () => {
    const s = await setup();
    const read = vi.fn(async () => encoder.encode(paddedBody(MAX_BODY_BYTES + 1)));
    expect(await s.post(undefined, { raw: read })).toEqual(TOO_LARGE);
    expect(read).toHaveBeenCalledTimes(1);
    expect(await s.store.listMessages('general')).toEqual([]);
  });

  it('a body of exactly 65,536 bytes is accepted', async () => {
    const s = await setup();
    const response = await s.post(undefined, { raw: encoder.encode(paddedBody(MAX_BODY_BYTES)) });
    expect(response).toEqual({
      status: 201,
      headers: successHeaders(59),
      body: { message: expectedMessage(s, { text: 'hi' }), duplicate: false },
    });
  });

  it('the limit is in UTF-8 bytes, not string length', async () => {
    const s = await setup();
    // 3 bytes per character: 22,000 characters are 66,000 bytes, well within the field limits.
    const payload = JSON.stringify({
      text: '€'.repeat(10_000),
      blocks: [{ type: 'markdown', text: '€'.repeat(12_000) }],
    });
    expect(payload.length).toBeLessThan(MAX_BODY_BYTES);
    expect(await s.post(undefined, { raw: payload })).toEqual(TOO_LARGE);
  });

  it('a reader that stops at the limit and rejects with payload_too_large answers 413', async () => {
    const s = await setup();
    const read = async () => {
      throw new ChannelWebhookError('payload_too_large', 'body over the limit');
    };
    expect(await s.post(undefined, { raw: read })).toEqual(TOO_LARGE);
  });

  it('with Transfer-Encoding, Content-Length is not trusted and the bytes decide', async () => {
    const s = await setup();
    const response = await s.post(undefined, {
      raw: async () => '{"text":"chunked"}',
      headers: { 'content-length': '100000', 'transfer-encoding': 'chunked' },
    });
    expect(response.status).toBe(201);
  });

  it('the reader is asked for at most 65,536 bytes', async () => {
    const s = await setup();
    const read = vi.fn(async () => '{"text":"hi"}');
    await s.post(undefined, { raw: read });
    expect(read).toHaveBeenCalledTimes(1);
    expect(read).toHaveBeenCalledWith(MAX_BODY_BYTES, null);
  });
});

describe('body forms', () => {
  it.each([
    ['a string', '{"text":"hi"}'],
    ['bytes', encoder.encode('{"text":"hi"}')],
    ['bytes with a UTF-8 BOM', new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode('{"text":"hi"}')])],
    ['a string with a BOM', '\uFEFF{"text":"hi"}'],
    ['a reader returning bytes', async () => encoder.encode('{"text":"hi"}')],
  ])('accepts the body as %s', async (_, raw) => {
    const s = await setup();
    expect(await s.post(undefined, { raw })).toEqual({
      status: 201,
      headers: successHeaders(59),
      body: { message: expectedMessage(s, { text: 'hi' }), duplicate: false },
    });
  });

  it('keeps multi-byte text exactly as sent', async () => {
    const s = await setup();
    const text = 'Déploiement terminé ✅ 😀 中文';
    const response = await s.post(undefined, { raw: encoder.encode(JSON.stringify({ text })) });
    expect(response.body).toEqual({ message: expectedMessage(s, { text }), duplicate: false });
  });

  it('a reader that rejects because the client went away answers 400 body_read_failed', async () => {
    const s = await setup();
    const read = async () => {
      throw new ChannelWebhookError('body_read_failed', 'client disconnected');
    };
    expectBodyRefused(await s.post(undefined, { raw: read }), 'body_read_failed');
    expect(await s.store.listMessages('general')).toEqual([]);
  });

  it('a reader that gives up waiting answers 400 body_read_failed saying so, and reports it to onError', async () => {
    const s = await setup();
    const timeout = new ChannelWebhookError('body_read_timeout', 'the request body did not arrive within 300 ms');
    const response = await s.post(undefined, {
      raw: async () => {
        throw timeout;
      },
    });
    expect(response).toEqual({
      status: 400,
      headers: problemHeaders({ remaining: 59, seconds: 60 }),
      body: problem(400, 'body_read_failed', {
        detail: 'The request body did not arrive in time. Send the whole body promptly.',
        errors: [{ pointer: '', message: 'did not arrive in time' }],
      }),
    });
    expect(s.errors).toEqual([{ error: timeout, context: { stage: 'body', webhookId: s.webhookId } }]);
    expect(await s.store.listMessages('general')).toEqual([]);
  });

  it('bytes that are not UTF-8 answer 400 invalid_json', async () => {
    const s = await setup();
    const bytes = new Uint8Array([...encoder.encode('{"text":"'), 0xff, 0xfe, ...encoder.encode('"}')]);
    expectBodyRefused(await s.post(undefined, { raw: bytes }), 'invalid_json');
  });

  it.each([
    ['an empty body', ''],
    ['no body', undefined],
    ['truncated JSON', '{"text":"hi"'],
    ['two JSON values', '{"text":"a"}{"text":"b"}'],
  ])('%s answers 400 invalid_json', async (_, raw) => {
    const s = await setup();
    const response = await s.handle({
      method: 'POST',
      url: s.url,
      headers: { 'content-type': 'application/json' },
      body: raw,
    });
    expectBodyRefused(response, 'invalid_json');
  });
});
