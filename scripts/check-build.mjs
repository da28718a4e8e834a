// The last step of `npm run build`, which `npm pack` and `npm publish` run first (prepack): every file
// package.json names exists, and the declarations are the renamed ones. Other scripts build parts of
// dist/ for themselves (`npm start` the ES modules alone); a pack after one of them rebuilds, and this
// stops it if the build still lacks a file.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const targets = (value) =>
  typeof value === 'string' ? [value] : Object.values(value ?? {}).flatMap((inner) => targets(inner));
const named = [
  manifest.main,
  manifest.module,
  manifest.types,
  ...targets(manifest.bin),
  ...targets(manifest.exports),
  ...targets(manifest.typesVersions),
  ...targets(manifest.sideEffects),
];
const missing = [...new Set(named)].filter((file) => !existsSync(join(root, file)));
const hashed = readdirSync(join(root, 'dist'), { recursive: true, encoding: 'utf8' }).filter((file) =>
  /-[A-Za-z0-9_-]{8}\.d\.c?ts$/.test(file),
);

const problems = [
  ...missing.map((file) => `${file} is named in package.json but was not built`),
  ...hashed.map((file) => `dist/${file} is a declaration chunk scripts/name-declarations.mjs did not rename`),
];
if (problems.length > 0) {
  console.error(`The build is not whole:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  process.exit(1);
}
