import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, createWebhookHandler, createWebhookManager, type ProblemBody } from '../../src/index.js';
import { root } from './doc-files.js';

// docs/slack-differences.md states, for each body Slack accepts and this endpoint refuses, the
// answer a sender gets: post each example through the handler and compare, so the table stays true.
const page = readFileSync(join(root, 'docs', 'slack-differences.md'), 'utf8');
const rows = page
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| Slack accepts'))
  .map((line) => line.split(/(?<!\\) \| /).map((cell) => cell.replace(/^\| |\s*\|$/g, '')));

/** The body a row's example stands for, and how it is sent. */
function example(cell: string): { body: string; contentType: string } {
  if (cell.startsWith('51 `divider` blocks'))
    return {
      body: JSON.stringify({ text: 'many', blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })) }),
      contentType: 'application/json',
    };
  const code = /^`([^`]+)`/.exec(cell)![1]!;
  if (code.startsWith('payload='))
    return {
      body: `payload=${encodeURIComponent(code.slice('payload='.length))}`,
      contentType: 'application/x-www-form-urlencoded',
    };
  JSON.parse(code);
  return { body: code, contentType: 'application/json' };
}

describe('docs/slack-differences.md', () => {
  it('has a row for each difference the issue names', () => {
    const named = rows.map(([accepts]) => accepts).join(' ');
    for (const field of ['attachments', 'username', 'icon_emoji', 'channel', 'image', 'actions', 'fields', 'accessory'])
      expect(named).toContain(field);
  });

  it.each(rows.map((row) => [row[0]!, row] as const))(
    '%s: the answer is the one the table states',
    async (_name, [, body, answer]) => {
      const store = createMemoryStore();
      await store.putChannel({ id: 'deploys', ownerId: 'u1', archived: false });
      const { url } = await createWebhookManager({ store, baseUrl: 'https://chat.example.com' }).create(
        { userId: 'u1', role: 'member' },
        { channelId: 'deploys', name: 'CI' },
      );
      const sent = example(body!);
      const res = await createWebhookHandler({ store })({
        method: 'POST',
        url: new URL(url).pathname,
        headers: { 'content-type': sent.contentType },
        body: sent.body,
      });
      const problem = res.body as ProblemBody;
      const [, status, code, errors] = /^\*\*(\d{3})\*\* `(\w+)`(?:: (.*))?$/.exec(answer!)!;
      expect([res.status, problem.code]).toEqual([Number(status), code]);
      const stated =
        errors === undefined ? [] : errors.split('; ').map((error) => /^`([^`]+)` (.+)$/.exec(error)!.slice(1));
      expect((problem.errors ?? []).map((error) => [error.pointer ?? error.header, error.message])).toEqual(stated);
      expect(store.listMessages('deploys')).toEqual([]);
    },
  );
});
