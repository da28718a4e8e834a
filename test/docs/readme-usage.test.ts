import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';

// The README's Usage snippet is the first code a newcomer copies: run it as written.
async function usageSnippet(): Promise<string> {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Usage'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (match === null) throw new Error('README.md has no ts block under ## Usage');
  return match[1]!;
}

describe('README usage snippet', () => {
  it('creates a webhook, posts through handle() and gets 201 with the webhook as author', async () => {
    const source = (await usageSnippet()).replace(/^import \{([^}]*)\} from 'channel-webhooks';$/m, 'const {$1} = library;');
    expect(source).not.toContain('import ');
    const broadcast: unknown[] = [];
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<unknown>;
    const run = new AsyncFunction('library', 'broadcast', `${source}\nreturn { res, webhook, url };`);
    const { res, webhook, url } = (await run(library, (message: unknown) => broadcast.push(message))) as {
      res: library.WebhookResponse;
      webhook: library.WebhookInfo;
      url: string;
    };
    expect(url).toMatch(/^https:\/\/chat\.example\.com\/hooks\/channels\/wh_[A-Za-z0-9_-]{22}\/[A-Za-z0-9_-]{43}$/);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: { body: 'Deploy 42 finished', blocks: [], author: { type: 'webhook', id: webhook.id, name: 'CI' } },
      duplicate: false,
    });
    expect(broadcast).toEqual([(res.body as { message: unknown }).message]);
  });
});
