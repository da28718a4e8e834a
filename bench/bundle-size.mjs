// The size each entry point adds to a user's bundle: the built ESM entry bundled with the runtime
// dependencies it loads (TypeBox and @noble/hashes; markdown-it for /render), minified, then
// gzipped. Peer dependencies (frameworks, database clients, SQLite drivers, OpenTelemetry) stay
// external, as the user's app already has them. Then the package itself, as `npm pack` makes it.
// Each figure is held under the ceiling the README gives it (between its size markers), as
// size-limit does: test/docs/size-figures.built.test.ts fails a build that goes over one.
// Run after `npm run build`: node bench/bundle-size.mjs [--json]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = [
  ...Object.keys(manifest.peerDependencies ?? {}),
  ...builtinModules,
  ...builtinModules.map((name) => `node:${name}`),
];

const entries = [];
for (const [subpath, conditions] of Object.entries(manifest.exports)) {
  if (typeof conditions === 'string') continue;
  const result = await build({
    entryPoints: [new URL(`../${(conditions.import ?? conditions).default}`, import.meta.url).pathname],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    external,
    write: false,
    logLevel: 'error',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote no bundle of ${subpath}`);
  const code = output.contents;
  const entry = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
  entries.push({
    entry,
    minified: code.byteLength,
    gzip: gzipSync(code, { level: 9 }).byteLength,
  });
}

const [packed] = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'], {
    cwd: root,
    encoding: 'utf8',
  }),
);
const pack = { size: packed.size, unpackedSize: packed.unpackedSize };

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = /<!-- size ceilings[^\n]*-->\n([\s\S]*?)\n<!-- size end -->/.exec(readme)?.[1];
if (section === undefined) throw new Error('README.md has no size markers');
const ceilings = [...section.matchAll(/^\| `([^`]+)`[^|]*\| ([\d.]+) KiB \| ([\d.]+) KiB \|$/gm)].map(
  ([, entry, minified, gzip]) => ({ entry, minified: Number(minified) * 1024, gzip: Number(gzip) * 1024 }),
);
const packCeiling = /^The package itself \(`npm pack`\): at most ([\d,]+) kB, ([\d,]+) kB unpacked\.$/m.exec(section);
if (packCeiling === null) throw new Error("README.md's size section has no line for the package itself");
const [, packedKb = '', unpackedKb = ''] = packCeiling;
/** @param {string} text */
const kB = (text) => Number(text.replace(/,/g, '')) * 1000;
const ceiling = {
  entries: ceilings,
  pack: { size: kB(packedKb), unpackedSize: kB(unpackedKb) },
};

/** @param {number} bytes */
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
/** @param {number} bytes */
const kb = (bytes) => `${Math.round(bytes / 1000).toLocaleString('en-US')} kB`;

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ entries, pack, ceiling }));
} else {
  /** @param {string} entry */
  const limitOf = (entry) => ceilings.find((row) => row.entry === entry);
  for (const row of entries) {
    const limit = limitOf(row.entry);
    const share =
      limit === undefined ? 'no ceiling' : `${Math.round((100 * row.gzip) / limit.gzip)}% of ${kib(limit.gzip)}`;
    console.log(
      `${row.entry.padEnd(32)} ${kib(row.minified).padStart(10)} ${kib(row.gzip).padStart(10)} gzip  (${share})`,
    );
  }
  console.log(
    `npm pack: ${kb(pack.size)} of ${kb(ceiling.pack.size)}, ${kb(pack.unpackedSize)} unpacked of ${kb(ceiling.pack.unpackedSize)}`,
  );
}
