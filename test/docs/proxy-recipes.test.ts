import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webhookPathPatternSource } from '../../src/index.js';
import { root } from './doc-files.js';

// The nginx and Caddy recipes of docs/security.md are copied into proxy configurations: they carry
// the library's pattern exactly, so a new pattern cannot leave a page that redacts less.
const page = readFileSync(join(root, 'docs', 'security.md'), 'utf8');

describe('the proxy recipes of docs/security.md', () => {
  it('show the string form as it is', () => {
    expect(page).toContain(`\`\`\`\n${webhookPathPatternSource}\n\`\`\``);
  });

  it("nginx's map holds the pattern, group 1 named kept", () => {
    expect(page).toContain(`'~^(?<before>.*?)${webhookPathPatternSource.replace(/^\(/, '(?<kept>')}(?<after>.*)$'`);
  });

  it("Caddy's filter holds the pattern", () => {
    expect(page).toContain(`request>uri regexp \`${webhookPathPatternSource}\` \`\${1}[redacted]\``);
  });
});
