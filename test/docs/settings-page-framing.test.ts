import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeBlocks, root } from './doc-files.js';

// A page of another site that frames the settings page out of sight revokes a webhook in two
// clicks of a signed-in owner. The guides say so, and the policy they give is the one the demo
// sends, `frame-ancestors 'none'` included.
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const demo = read('examples/express/demo/create-demo.js');
const demoPolicy = [...(/const CSP = \[([\s\S]*?)\]\.join/.exec(demo)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map(
  (match) => match[1]!,
);
const guide = { path: 'docs/settings-element.md', text: read('docs/settings-element.md') };

describe('framing of the settings page in the guides', () => {
  it('the demo refuses to be framed', () => {
    expect(demoPolicy).toContain("frame-ancestors 'none'");
  });

  it("docs/settings-element.md gives the demo's policy, and its app sends frame-ancestors 'none'", () => {
    expect(guide.text).toContain(`\`${demoPolicy.join('; ')}\``);
    const block = codeBlocks(guide).find((candidate) => candidate.code.includes("'content-security-policy'"));
    const policy = /'content-security-policy', "([^"]+)"/.exec(block?.code ?? '')?.[1];
    expect(policy?.split('; ')).toContain("frame-ancestors 'none'");
  });

  it('"What stays with your app" says that no other site may frame the page', () => {
    const stays = read('docs/managing-webhooks.md').split('What stays with your app:')[1]!.split('\n## ')[0]!;
    expect(stays).toMatch(/\*\*Framing\.\*\* No other site may frame the settings page: send `frame-ancestors 'none'`/);
  });
});
