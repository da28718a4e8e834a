import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The pages a reader reads: the README, the contributors' and tests' guides, the benchmarks' and every Markdown page under docs/ (not the generated API reference). */
export function docPages(): { path: string; text: string }[] {
  const pages = ['README.md', 'CONTRIBUTING.md', 'test/README.md', 'bench/README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory() && path !== 'docs/api') walk(path);
      else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return pages.map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

/** A JavaScript or TypeScript block of a page, and what the comment just above it says. */
export interface CodeBlock {
  /** `docs/stores.md:42`: the page and the line of the opening fence. */
  where: string;
  lang: 'js' | 'ts';
  code: string;
  /** `<!-- not run: why -->` just above the block: the reason; null for a block that runs alone. */
  notRun: string | null;
  /** The ```` ```text ```` block after "It prints:" just below the block: what the block's run must print, exactly; null when the page shows none. */
  prints: string | null;
  /** The page's text between the code block before this one (or the page's start) and this one: where the page says what the block needs. */
  above: string;
}

// A block's output as its page shows it: a paragraph that says "It prints" (or "prints" at its end),
// then a text block.
const PRINTS = /^\n(?:[^\n]*\bprints\b[^\n]*:)\n\n```text\n([\s\S]*?)^```$/my;

/** Every JavaScript and TypeScript block of `page`, dedented when it sits in a list item. */
export function codeBlocks(page: { path: string; text: string }): CodeBlock[] {
  const pattern = /(?:^<!-- not run: (.+?) -->\n)?^( *)```(js|ts|javascript|typescript)\n([\s\S]*?)^\2```$/gm;
  return [...page.text.matchAll(pattern)].map((match) => {
    const [all, notRun, indent, lang, code] = match as unknown as [string, string | undefined, string, string, string];
    const fence = match.index + all.indexOf('```');
    return {
      where: `${page.path}:${page.text.slice(0, fence).split('\n').length}`,
      lang: lang.startsWith('t') ? 'ts' : 'js',
      code: indent === '' ? code : code.replace(new RegExp(`^${indent}`, 'gm'), ''),
      notRun: notRun ?? null,
      prints: PRINTS.exec(page.text.slice(match.index + all.length + 1))?.[1] ?? null,
      above: page.text
        .slice(0, match.index)
        .split(/^ *```$/m)
        .at(-1)!,
    };
  });
}

/** Relative path of `file` from the root, with forward slashes. */
export const fromRoot = (file: string): string => relative(root, file).split('\\').join('/');

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export const anchorOf = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

/** The anchors of a page's headings. */
export const anchorsOf = (text: string): Set<string> =>
  new Set([...text.matchAll(/^#+ (.+)$/gm)].map((match) => anchorOf(match[1]!)));

/**
 * The commands of the guides' set-up (the first `sh` block under "## Set-up" in docs/README.md),
 * one per item: what a reader types to make the app every code block runs in.
 */
export function setUpCommands(): string[] {
  const guides = readFileSync(join(root, 'docs', 'README.md'), 'utf8');
  const section = /^## Set-up\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(guides)?.[1];
  const block = section === undefined ? undefined : /^```sh\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (block === undefined) throw new Error('docs/README.md has no "## Set-up" section with a sh block');
  return block
    .split('\n')
    .flatMap((line) => line.replace(/#.*$/, '').split('&&'))
    .map((command) => command.trim())
    .filter((command) => command !== '');
}
