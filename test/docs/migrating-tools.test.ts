import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatePayload } from '../../src/validation/validate-payload.js';
import { root } from './doc-files.js';

const page = readFileSync(join(root, 'docs/migrating-from-slack.md'), 'utf8');
const table = page.slice(page.indexOf('## Which tools work by changing the URL'), page.indexOf('## For the app'));
const rows = table
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| Tool') && !line.startsWith('|---'))
  .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| |\s\|$/g, '')));

const REFUSED = ['attachments', 'channel', 'username', 'icon_emoji'];

// Rule: the migration guide says "by changing one thing, the URL" only of senders whose body the
// endpoint takes, and says which tools send what it refuses: a tool that always sends a field the
// validator refuses is refused, one that sends it only when set works without it.
describe("the migration guide's tools", () => {
  it('does not promise most integrations work by changing the URL alone', () => {
    expect(page.replace(/\s+/g, ' ')).not.toMatch(/Most of them work here by changing one thing/);
    expect(rows.length).toBeGreaterThanOrEqual(8);
  });

  it('the fields it calls refused are refused by the validator, and text and blocks taken', () => {
    expect(validatePayload({ text: 'Deploy 42' }, undefined, false).ok).toBe(true);
    expect(
      validatePayload({ blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Deploy 42' } }] }, undefined, false)
        .ok,
    ).toBe(true);
    for (const field of REFUSED)
      expect(
        validatePayload({ text: 'x', [field]: field === 'attachments' ? [{ text: 'y' }] : 'z' }, undefined, false).ok,
        field,
      ).toBe(false);
  });

  it('a tool that always sends a refused field is refused; one that sends it only when set works without it', () => {
    for (const [tool, sends, here] of rows) {
      const always = sends!.split(/, plus | when set| for a rich/)[0]!;
      if (sends!.includes('a form') || REFUSED.some((field) => always.includes(`\`${field}\``)))
        expect(here, tool).toMatch(/^refused/);
      else if (REFUSED.some((field) => sends!.includes(`\`${field}\``)))
        expect(here, tool).toMatch(/^works with those left empty/);
      else expect(here, tool).toMatch(/^works/);
    }
  });

  it('a form body is a 415 where the guide says so', () => {
    const form = rows.find(([, sends]) => sends!.includes('a form'));
    expect(form?.[2]).toMatch(/^refused \(`415`\)/);
  });
});
