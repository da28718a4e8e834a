// The size each entry point adds to a user's bundle: the built ESM entry bundled with the runtime
// dependencies it loads (TypeBox and @noble/hashes; markdown-it for /render), minified, then
// gzipped. Peer dependencies (frameworks, database clients, SQLite drivers, OpenTelemetry) stay
// external, as the user's app already has them. Then the package itself, as `npm pack` makes it.
// Run after `npm run build`: node bench/bundle-size.mjs [--markdown | --json | --readme]
// --readme writes the figures into README.md, between its size markers; test/docs/size-figures.test.ts
// fails when the README's figures are not what this measures.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
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

// What the README says beside an entry whose figure would otherwise surprise.
const NOTES = {
  'channel-webhooks/render': '(with `markdown-it`)',
  'channel-webhooks/cloudflare': '(the handler runs in the object)',
};

const entries = [];
for (const [subpath, conditions] of Object.entries(manifest.exports)) {
  if (typeof conditions === 'string') continue;
  const result = await build({
    entryPoints: [new URL(`../${conditions.import.default}`, import.meta.url).pathname],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    external,
    write: false,
    logLevel: 'error',
  });
  const code = result.outputFiles[0].contents;
  const entry = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
  entries.push({
    entry,
    note: NOTES[entry] ?? null,
    minified: code.byteLength,
    gzip: gzipSync(code, { level: 9 }).byteLength,
  });
}

const [packed] = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], { cwd: root, encoding: 'utf8' }),
);
const pack = { size: packed.size, unpackedSize: packed.unpackedSize };

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const kb = (bytes) => `${Math.round(bytes / 1000).toLocaleString('en-US')} kB`;
const table = [
  '| Entry | Minified | Minified + gzip |',
  '|---|--:|--:|',
  ...entries.map(
    (row) => `| \`${row.entry}\`${row.note === null ? '' : ` ${row.note}`} | ${kib(row.minified)} | ${kib(row.gzip)} |`,
  ),
].join('\n');
const packLine = `The package itself (\`npm pack\`): ${kb(pack.size)}, ${kb(pack.unpackedSize)} unpacked.`;

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ entries, pack }));
} else if (process.argv.includes('--markdown')) {
  console.log(`${table}\n\n${packLine}`);
} else if (process.argv.includes('--readme')) {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const marked = /(<!-- size: written by npm run size -- --readme -->\n)[\s\S]*?(\n<!-- size end -->)/;
  if (!marked.test(readme)) throw new Error('README.md has no size markers');
  writeFileSync(
    new URL('../README.md', import.meta.url),
    readme.replace(marked, (_, start, end) => `${start}${table}\n\n${packLine}${end}`),
  );
  console.log(`README.md: ${entries.length} entries; ${packLine}`);
} else {
  for (const row of entries)
    console.log(`${row.entry.padEnd(32)} ${kib(row.minified).padStart(10)} ${kib(row.gzip).padStart(10)} gzip`);
  console.log(packLine);
}
