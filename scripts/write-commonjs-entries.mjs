// The CommonJS entries: each one `require()`s the ES module of its entry, which Node loads from
// `require` without a flag since 20.19 and 22.12 (the package's engines). So the package carries its
// code once, and an app that both imports and requires it gets one copy of each class and store.
// Run by `npm run build` after tsup; the entries are the `require` targets of package.json's exports.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

for (const conditions of Object.values(manifest.exports)) {
  const file = conditions.require?.default;
  if (file === undefined) continue;
  const target = relative(dirname(join(root, file)), join(root, conditions.import.default));
  writeFileSync(join(root, file), `module.exports = require('./${target}');\n`);
}
