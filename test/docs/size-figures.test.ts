import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './doc-files.js';

// The README's size figures are what `npm run size` (bench/bundle-size.mjs) measures of this build,
// which writes them between the README's size markers (`npm run size -- --readme`). Each figure may
// differ from the measure by its last digit, no more: a build's bytes do not move, but a figure
// that sits on a rounding edge may.
interface Measured {
  entries: { entry: string; minified: number; gzip: number }[];
  pack: { size: number; unpackedSize: number };
}

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section =
  /<!-- size: written by npm run size -- --readme -->\n([\s\S]*?)\n<!-- size end -->/.exec(readme)?.[1] ?? '';
const rows = [...section.matchAll(/^\| `([^`]+)`[^|]*\| ([\d.]+) KiB \| ([\d.]+) KiB \|$/gm)].map(
  ([, entry, minified, gzip]) => ({
    entry: entry!,
    minified: Number(minified),
    gzip: Number(gzip),
  }),
);
const packLine = /^The package itself \(`npm pack`\): ([\d,]+) kB, ([\d,]+) kB unpacked\.$/m.exec(section);
const kB = (text: string) => Number(text.replace(/,/g, ''));

describe("the README's size figures", () => {
  it('sit between the markers the measuring script writes to: a row per entry and the package line', () => {
    expect(rows.length).toBeGreaterThan(10);
    expect(packLine).not.toBeNull();
  });

  it('are what bench/bundle-size.mjs measures of this build, to their last digit', () => {
    if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('build the package first: npm run build');
    const measured = JSON.parse(
      execFileSync(process.execPath, [join(root, 'bench', 'bundle-size.mjs'), '--json'], {
        cwd: root,
        encoding: 'utf8',
      }),
    ) as Measured;
    expect(rows.map((row) => row.entry)).toEqual(measured.entries.map((entry) => entry.entry));
    const off = measured.entries.flatMap((entry, i) => {
      const row = rows[i]!;
      const minified = entry.minified / 1024;
      const gzip = entry.gzip / 1024;
      return Math.abs(row.minified - minified) > 0.1 || Math.abs(row.gzip - gzip) > 0.1
        ? [
            `${entry.entry}: README ${row.minified} / ${row.gzip} KiB, measured ${minified.toFixed(1)} / ${gzip.toFixed(1)} KiB`,
          ]
        : [];
    });
    expect(off, 'run npm run size -- --readme').toEqual([]);
    expect(
      Math.abs(kB(packLine![1]!) - measured.pack.size / 1000),
      `packed: measured ${measured.pack.size} bytes`,
    ).toBeLessThanOrEqual(1);
    expect(
      Math.abs(kB(packLine![2]!) - measured.pack.unpackedSize / 1000),
      `unpacked: measured ${measured.pack.unpackedSize} bytes`,
    ).toBeLessThanOrEqual(1);
  }, 60_000);
});
