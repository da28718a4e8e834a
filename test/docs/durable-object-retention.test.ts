import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../adapters/stores/cloudflare/object-state.js';
import { root } from './doc-files.js';

const section = (path: string, heading: string): string => {
  const page = readFileSync(join(root, path), 'utf8');
  const start = page.indexOf(`\n## ${heading}\n`);
  expect(start, `${path} has no "## ${heading}"`).toBeGreaterThan(-1);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end === -1 ? undefined : end);
};

// Rule: what a Durable Object keeps, and how to prune it, is written where a reader of the
// Cloudflare guide and of the feed's retention looks, and it is what the object does: it has the
// operation that prunes, and both pages name the call and its bound.
describe('retention on Durable Objects', () => {
  it('the object has an operation that prunes its messages', () => {
    expect([...OPERATIONS].filter((name) => /prune|delete|remove/i.test(name))).toEqual(['pruneMessages']);
  });

  it('docs/cloudflare-workers.md says how to prune, what a call costs, and what stays bounded', () => {
    const retention = section('docs/cloudflare-workers.md', 'Retention').replace(/\s+/g, ' ');
    expect(retention).toContain('`store.pruneMessages(before, { channelIds, limit })`');
    expect(retention).toContain('reads at most `limit` rows');
    expect(retention).toContain('`cursor_expired`');
    expect(retention).toContain('the last 100 records of each webhook');
  });

  it("the feed's retention names Durable Objects beside the other stores", () => {
    const retention = section('docs/delivering-messages.md', 'Retention').replace(/\s+/g, ' ');
    expect(retention).toContain('**Durable Objects**: `store.pruneMessages(before, { channelIds, limit = 1000 })`');
  });
});
