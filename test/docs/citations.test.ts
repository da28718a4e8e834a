import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './doc-files.js';

// What the repository cites, it holds: the decisions the code relies on are in docs/design.md, and a
// page a comment or a page points at exists. The checked-in files are read as git lists them.
const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter(
    (file) => /\.(ts|mjs|js|md|json)$/.test(file) && !file.startsWith('test/fixtures/') && existsSync(join(root, file)),
  );
const texts = files.map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));

describe('citations', () => {
  it('no file cites a design document outside the repository', () => {
    expect(texts.filter(({ text }) => /\bDESIGN\.md\b/.test(text)).map(({ file }) => file)).toEqual([]);
  });

  it('every docs/ page a file names exists', () => {
    const named = texts.flatMap(({ file, text }) =>
      [...text.matchAll(/\bdocs\/([\w-]+\.md)\b/g)].map((match) => ({ file, page: `docs/${match[1]}` })),
    );
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter(({ page }) => !existsSync(join(root, page)))).toEqual([]);
  });
});
