import type { PostRecord } from '../../src/index.js';
import { randomId } from '../../src/testing/fixtures.js';

/** A history record of one post: a 201 with a fresh message id, unless `fields` says otherwise. */
export const postRecord = (webhookId: string, at: number, fields: Partial<PostRecord> = {}): PostRecord => ({
  webhookId,
  at,
  status: 201,
  code: null,
  errors: [],
  idempotencyKey: null,
  messageId: `msg_${randomId()}`,
  bodyBytes: 42,
  count: 1,
  ...fields,
});
