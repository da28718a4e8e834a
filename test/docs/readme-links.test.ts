import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README is also the package's page on npm, where a relative link leads nowhere: every link is
// absolute or an anchor of the page itself, and every link into this repository names a file that
// exists.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { repository: { url: string } };
const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
const [, owner, name] = /github\.com\/([^/]+)\/([^/]+)$/.exec(repository)!;
const ownFile = new RegExp(`^https://(?:github\\.com/${owner}/${name}/(?:blob|tree)/main|raw\\.githubusercontent\\.com/${owner}/${name}/main)/([^#?]+)`);
const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
const anchors = new Set(
  [...readme.matchAll(/^#+ (.+)$/gm)].map(
    (match) =>
      `#${match[1]!
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-')}`,
  ),
);

describe('README links', () => {
  it('are absolute or anchors of the page', () => {
    expect(targets.length).toBeGreaterThan(5);
    expect(targets.filter((target) => !/^(https?:|mailto:|#)/.test(target))).toEqual([]);
  });

  it('into this repository name files that exist', () => {
    const own = targets.map((target) => ownFile.exec(target)?.[1]).filter((path): path is string => path !== undefined);
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((path) => !existsSync(join(root, decodeURIComponent(path))))).toEqual([]);
  });

  it('to anchors name headings of the page', () => {
    expect(targets.filter((target) => target.startsWith('#') && !anchors.has(target))).toEqual([]);
  });
});
