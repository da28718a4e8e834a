// tsup bundles each entry's declarations and puts what several entries share into chunks named
// `ports-BchNrA4q.d.ts`: go-to-definition in a reader's editor lands there. This step, run by
// `npm run build` after tsup, moves every shared declaration chunk to `dist/types/<name>.d.ts` (and
// `.d.cts`) under the name of the source file it comes from, and rewrites the imports that name it.
// Two chunks that would take one name stop the build: rename one of the source files.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(import.meta.dirname, '..', 'dist');
const HASHED = /^(.+)-[A-Za-z0-9_-]{8}\.d\.(c?)ts$/;

const chunks = readdirSync(dist)
  .map((file) => ({ file, match: HASHED.exec(file) }))
  .filter(({ match }) => match !== null)
  .map(({ file, match }) => ({ file, name: match[1], cjs: match[2] === 'c' }));

// The import specifier of each chunk (`./ports-BchNrA4q.js`) and what it becomes, per directory.
const renamed = new Map();
for (const { file, name, cjs } of chunks) {
  const to = `${name}.d.${cjs ? 'c' : ''}ts`;
  if ([...renamed.values()].some((other) => other.to === to)) {
    throw new Error(`two declaration chunks would be named types/${to}: give one of their source files another name`);
  }
  renamed.set(file, {
    to,
    specifier: `./${file.replace(/\.d\.(c?)ts$/, '.$1js')}`,
    target: `${name}.${cjs ? 'c' : ''}js`,
  });
}

const rewrite = (text, prefix) => {
  let out = text;
  for (const { specifier, target } of renamed.values())
    out = out.split(`'${specifier}'`).join(`'./${prefix}${target}'`);
  return out;
};

mkdirSync(join(dist, 'types'), { recursive: true });
for (const [file, { to }] of renamed) {
  writeFileSync(join(dist, 'types', to), rewrite(readFileSync(join(dist, file), 'utf8'), ''));
  rmSync(join(dist, file));
}
for (const file of readdirSync(dist).filter((name) => /\.d\.c?ts$/.test(name))) {
  const path = join(dist, file);
  writeFileSync(path, rewrite(readFileSync(path, 'utf8'), 'types/'));
}
