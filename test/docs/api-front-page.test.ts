import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { root } from './doc-files.js';

// The API reference opens on docs/api-index.md (TypeDoc's readme): what the library is, how to
// install it, where to start, and a line per entry point of the package saying what it is for,
// linked to that entry's module. TypeDoc's own check (`typedoc --emit none` in npm test) fails on a
// link that leads nowhere; this test fails on an entry the page leaves out or one the package does not have.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
};
// The modules; `./package.json` and `./render.css` are files.
const exported = Object.entries(manifest.exports)
  .filter(([, conditions]) => typeof conditions !== 'string')
  .map(([subpath]) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));
const page = readFileSync(join(root, 'docs', 'api-index.md'), 'utf8');
const lines = [...page.matchAll(/^- \{@link ([\w/-]+)! \| \1\}: ([^\n]+(?:\n {2}[^\n]+)*)/gm)].map(
  ([, entry, purpose]) => ({
    entry: entry!,
    purpose: purpose!.replace(/\n\s+/g, ' '),
  }),
);

describe("the API reference's front page", () => {
  it('is the page TypeDoc opens the reference with', async () => {
    const config = (await import(pathToFileURL(join(root, 'typedoc.config.mjs')).href)) as {
      default: { readme?: string };
    };
    expect(config.default.readme).toBe('docs/api-index.md');
  });

  it('says how to install the package and where to start', () => {
    expect(page).toContain('```sh\nnpm install channel-webhooks\n```');
    expect(page).toMatch(/^## Where to start$/m);
  });

  it('names every entry point of package.json, once, each with a line saying what it is for', () => {
    expect(lines.map((line) => line.entry).sort()).toEqual([...exported].sort());
    for (const line of lines) expect(line.purpose.length, line.entry).toBeGreaterThan(20);
  });
});
