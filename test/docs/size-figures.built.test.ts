import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './doc-files.js';

// The README gives each entry point a ceiling (minified, and minified + gzip) and the package one
// (packed and unpacked), as size-limit does; bench/bundle-size.mjs measures this build. A build that
// goes over a ceiling fails here: raising one is a reviewed change of the README, not a surprise.
interface Figures {
  entries: { entry: string; minified: number; gzip: number }[];
  pack: { size: number; unpackedSize: number };
}
interface Measured extends Figures {
  ceiling: Figures;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

describe("the README's size ceilings", () => {
  it('hold every entry point and the package of this build', () => {
    if (!existsSync(join(root, 'dist', 'index.d.ts'))) throw new Error('build the package first: npm run build');
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: object };
    const measured = JSON.parse(
      execFileSync(process.execPath, [join(root, 'bench', 'bundle-size.mjs'), '--json'], {
        cwd: root,
        encoding: 'utf8',
      }),
    ) as Measured;
    expect(measured.entries).toHaveLength(Object.values(manifest.exports).filter((c) => typeof c !== 'string').length);
    expect(measured.ceiling.entries.map((row) => row.entry)).toEqual(measured.entries.map((row) => row.entry));
    const over = measured.entries.flatMap((entry, i) => {
      const limit = measured.ceiling.entries[i]!;
      return entry.minified > limit.minified || entry.gzip > limit.gzip
        ? [
            `${entry.entry}: ${kib(entry.minified)} / ${kib(entry.gzip)}, ceiling ${kib(limit.minified)} / ${kib(limit.gzip)}`,
          ]
        : [];
    });
    expect(over, 'an entry grew past its ceiling in README.md').toEqual([]);
    expect(measured.pack.size, 'npm pack, packed bytes').toBeLessThanOrEqual(measured.ceiling.pack.size);
    expect(measured.pack.unpackedSize, 'npm pack, unpacked bytes').toBeLessThanOrEqual(
      measured.ceiling.pack.unpackedSize,
    );
  }, 60_000);
});
