import { expect } from 'vitest';
import { send, type Answer } from './http.js';

/**
 * What every example app must do at its webhook URL: store a post and hand it to `onMessage`
 * (`delivered`), refuse an unknown field with 400 and a body over the limit with 413. Returns the
 * 201 answer.
 */
export async function expectExamplePosts(webhookUrl: string, delivered: unknown[]): Promise<Answer> {
  const created = await send(webhookUrl, { body: { text: 'Deploy finished' } });
  expect(created.status).toBe(201);
  expect(created.json).toMatchObject({
    message: {
      channelId: 'general',
      body: 'Deploy finished',
      blocks: [],
      author: { type: 'webhook', name: 'Deploys' },
    },
    duplicate: false,
  });
  expect(delivered).toEqual([(created.json as { message: unknown }).message]);

  const unknownField = await send(webhookUrl, { body: { text: 'hi', channel: '#ops' } });
  expect([unknownField.status, (unknownField.json as { code: string }).code]).toEqual([400, 'invalid_payload']);
  const tooLarge = await send(webhookUrl, {
    body: JSON.stringify({ text: 'x' }) + ' '.repeat(70_000),
    chunkSize: 16_384,
  });
  expect([tooLarge.status, (tooLarge.json as { code: string }).code]).toEqual([413, 'payload_too_large']);
  return created;
}
