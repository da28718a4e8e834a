// tsup bundles each entry's declarations and puts what several entries share into chunks named
// `ports-BchNrA4q.d.ts`: go-to-definition in a reader's editor lands there. This step, run by
// `npm run build` after tsup, moves every shared chunk to `dist/types/<name>.d.cts` under the name of
// the source file it comes from, and rewrites the imports that name it. Two chunks that would take
// one name stop the build: rename one of the source files.
//
// One set of declarations serves both module systems. They are CommonJS declarations (`.d.cts`): an
// entry's own, `dist/<entry>.d.cts`, is what `require` resolves to, and its ES one,
// `dist/<entry>.d.ts`, re-exports it (an ES module may import CommonJS, not the other way round).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(import.meta.dirname, '..', 'dist');
const HASHED = /^(.+)-[A-Za-z0-9_-]{8}\.d\.ts$/;

const declarations = readdirSync(dist).filter((file) => file.endsWith('.d.ts'));
const chunks = declarations
  .map((file) => ({ file, match: HASHED.exec(file) }))
  .filter(({ match }) => match !== null)
  .map(({ file, match }) => ({ file, name: match[1] }));
const entries = declarations.filter((file) => !HASHED.test(file));

// The import specifier of each chunk (`./ports-BchNrA4q.js`) and the file it becomes.
const renamed = new Map();
for (const { file, name } of chunks) {
  const to = `${name}.d.cts`;
  if ([...renamed.values()].some((other) => other.to === to)) {
    throw new Error(`two declaration chunks would be named types/${to}: give one of their source files another name`);
  }
  renamed.set(file, { to, specifier: `./${file.replace(/\.d\.ts$/, '.js')}`, target: `${name}.cjs` });
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
for (const file of entries) {
  const name = file.slice(0, -'.d.ts'.length);
  writeFileSync(join(dist, `${name}.d.cts`), rewrite(readFileSync(join(dist, file), 'utf8'), 'types/'));
  writeFileSync(join(dist, file), `export * from './${name}.cjs';\n`);
}
