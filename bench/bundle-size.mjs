// The size each entry point adds to a user's bundle: the built ESM entry bundled with the runtime
// dependencies it loads (TypeBox and @noble/hashes; markdown-it for /render), minified, then
// gzipped. Peer dependencies (frameworks, database clients, SQLite drivers, OpenTelemetry) stay
// external, as the user's app already has them.
// Run after `npm run build`: node bench/bundle-size.mjs [--markdown]
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = [...Object.keys(manifest.peerDependencies ?? {}), ...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

const rows = [];
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
  rows.push({
    entry: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
    minified: code.byteLength,
    gzip: gzipSync(code, { level: 9 }).byteLength,
  });
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
if (process.argv.includes('--markdown')) {
  console.log('| Entry | Minified | Minified + gzip |\n|---|--:|--:|');
  for (const row of rows) console.log(`| \`${row.entry}\` | ${kb(row.minified)} | ${kb(row.gzip)} |`);
} else {
  for (const row of rows) console.log(`${row.entry.padEnd(32)} ${kb(row.minified).padStart(10)} ${kb(row.gzip).padStart(10)} gzip`);
}
