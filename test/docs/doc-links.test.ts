import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, docPages, root } from './doc-files.js';

// Every link of the README and the docs leads somewhere. A link to a file of this repository is
// relative, so that it leads to the reader's own copy: in a clone, on GitHub, and on npm, which
// resolves the README's relative links against the package's repository. It names a file that
// exists, and a link to a heading names a heading of that page. The changelog's entries link to the
// guides too, so its links are held to the same rules.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { repository: { url: string } };
const [, owner, name] = /github\.com\/([^/]+)\/([^/.]+)/.exec(manifest.repository.url)!;
const ownFile = new RegExp(
  `^https://(?:github\\.com/${owner}/${name}/(?:blob|tree)/main|raw\\.githubusercontent\\.com/${owner}/${name}/main)/([^#?]+)(?:#(.*))?`,
);

const pages = [...docPages(), { path: 'CHANGELOG.md', text: readFileSync(join(root, 'CHANGELOG.md'), 'utf8') }];
const links = pages.flatMap((page) =>
  [...page.text.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((match) => ({
    page: page.path,
    target: match[1]!,
  })),
);

/** The repository file and anchor a link leads to, or null for a link outside the repository. */
function resolveLink(page: string, target: string): { file: string; anchor: string | null } | null {
  const own = ownFile.exec(target);
  if (own !== null) return { file: decodeURIComponent(own[1]!), anchor: own[2] ?? null };
  if (/^(https?:|mailto:)/.test(target)) return null;
  const [path, anchor] = target.split('#') as [string, string | undefined];
  return {
    file:
      path === ''
        ? page
        : normalize(join(dirname(page), decodeURIComponent(path)))
            .split('\\')
            .join('/'),
    anchor: anchor ?? null,
  };
}

describe('README and docs links', () => {
  it('are found on the README and the guides index', () => {
    for (const page of ['README.md', 'docs/README.md'])
      expect(links.filter((link) => link.page === page).length, page).toBeGreaterThan(5);
  });

  it('to a file of this repository are relative, never to its GitHub address', () => {
    expect(
      links.filter((link) => ownFile.test(link.target) || link.target.includes(`github.com/${owner}/${name}/`)),
    ).toEqual([]);
  });

  it('into this repository name files that exist', () => {
    const broken = links.filter((link) => {
      const resolved = resolveLink(link.page, link.target);
      return resolved !== null && !existsSync(join(root, resolved.file));
    });
    expect(broken).toEqual([]);
  });

  it('to a heading name a heading of that page', () => {
    const broken = links.filter((link) => {
      const resolved = resolveLink(link.page, link.target);
      if (
        resolved === null ||
        resolved.anchor === null ||
        !resolved.file.endsWith('.md') ||
        !existsSync(join(root, resolved.file))
      )
        return false;
      return (
        statSync(join(root, resolved.file)).isFile() &&
        !anchorsOf(readFileSync(join(root, resolved.file), 'utf8')).has(resolved.anchor)
      );
    });
    expect(broken).toEqual([]);
  });
});
