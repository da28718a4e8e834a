import { execFile, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackedLibrary } from '../support/pack.js';

// The tarball as npm would publish it, checked the way a consumer's tools see it: the type
// resolution of every entry under every TypeScript module resolution (attw), the manifest (publint),
// and a consumer project that type-checks against the installed package.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const run = promisify(execFile);

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  main: string;
  module: string;
  types: string;
  bin: Record<string, string>;
  exports: Record<string, unknown>;
  typesVersions: Record<string, Record<string, string[]>>;
  repository?: { url: string };
  homepage?: string;
  bugs?: { url: string };
};
// The entries of code; `./package.json` and `./render.css` are files.
const subpaths = Object.entries(manifest.exports)
  .filter(([subpath, conditions]) => subpath !== '.' && typeof conditions !== 'string')
  .map(([subpath]) => subpath);
const targets = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Object.values(value ?? {}).flatMap((inner) => targets(inner));
/** Every file the manifest points at (entries, types, the command), as `npm pack` lists them. */
const namedFiles = () =>
  [
    ...new Set([
      manifest.main,
      manifest.module,
      manifest.types,
      ...targets(manifest.bin),
      ...targets(manifest.exports),
    ]),
  ].map((file) => file.replace(/^\.\//, ''));

let app: string;
let tarball: string;
beforeAll(async () => {
  ({ app, tarball } = await installPackedLibrary(root));
}, 120_000);
afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('the published package', () => {
  it('every subpath has node10 types through typesVersions, pointing at its ESM declarations', () => {
    expect(manifest.typesVersions['*']).toEqual(
      Object.fromEntries(subpaths.map((subpath) => [subpath.slice(2), [`./dist/${subpath.slice(2)}.d.ts`]])),
    );
  });

  it('names its repository, homepage and issue tracker', () => {
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\//);
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.bugs?.url).toMatch(/^https:\/\//);
  });

  // The element is one ES module for every condition (a CommonJS app serves the file it resolves to
  // browsers), which require() loads on the Node lines the package supports (20.19+, 22.12+). attw
  // models Node 16's require, which could not: that one finding is expected, and nothing else.
  it('passes @arethetypeswrong/cli: every entry resolves with types under node10, node16 (CJS and ESM) and bundler', async () => {
    // attw exits 1 on a finding before a piped stdout is flushed, so its report goes to a file.
    const reportFile = join(app, 'attw.json');
    const fd = openSync(reportFile, 'w');
    try {
      await new Promise((resolve, reject) =>
        // The stylesheet is a file, with no types to resolve.
        spawn(bin('attw'), [tarball, '--format', 'json', '--exclude-entrypoints', './render.css'], {
          stdio: ['ignore', fd, 'inherit'],
        })
          .on('exit', resolve)
          .on('error', reject),
      );
    } finally {
      closeSync(fd);
    }
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { analysis: { problems: unknown[] } };
    expect(report.analysis.problems).toEqual([
      { kind: 'CJSResolvesToESM', entrypoint: './element', resolutionKind: 'node16-cjs' },
    ]);
  }, 60_000);

  // The render entry imports markdown-it at its top; a user installs only this package.
  it('after installing the package alone, channel-webhooks/render loads from ESM and CJS and renders markdown', async () => {
    const script = (load: string) =>
      `${load}.then(({ toHtml }) => console.log(toHtml({ body: '', blocks: [{ type: 'markdown', text: '**ok**' }] })))`;
    const esm = await run(
      process.execPath,
      ['--input-type=module', '-e', script(`import('${manifest.name}/render')`)],
      { cwd: app },
    );
    const cjs = await run(process.execPath, ['-e', script(`Promise.resolve(require('${manifest.name}/render'))`)], {
      cwd: app,
    });
    for (const { stdout } of [esm, cjs]) expect(stdout).toContain('<strong>ok</strong>');
  }, 60_000);

  // What it weighs is held by the README's size ceilings (test/docs/size-figures.built.test.ts).
  it('ships every file package.json names, and no source maps', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'], {
      cwd: root,
    });
    const [pack] = JSON.parse(stdout) as [{ files: { path: string }[] }];
    const shipped = new Set(pack.files.map((file) => file.path));
    expect(namedFiles().filter((file) => !shipped.has(file))).toEqual([]);
    expect([...shipped].filter((file) => file.endsWith('.map'))).toEqual([]);
  }, 60_000);

  it('passes publint --strict', async () => {
    const { stdout } = await run(bin('publint'), ['--strict', tarball], { timeout: 60_000 });
    expect(stdout).toContain('All good!');
  }, 60_000);

  // A consumer that imports every entry and misuses the root API once: under each resolution the
  // imports must resolve (TS2307 otherwise) and the misuse must be caught (so the types are not `any`).
  // The app is an ES module package; consumer.cts is a CommonJS file in it, whose imports are
  // require() calls (the element's included: TypeScript's nodenext knows require loads ES modules).
  it.each([
    ['node10', 'commonjs', 'consumer.ts'],
    ['node16', 'node16', 'consumer.ts'],
    ['nodenext', 'nodenext', 'consumer.ts'],
    ['nodenext', 'nodenext', 'consumer.cts'],
    ['bundler', 'esnext', 'consumer.ts'],
  ])(
    'a consumer type-checks with moduleResolution %s (module %s, %s)',
    async (moduleResolution, module, consumer) => {
      const imports = subpaths.map(
        (subpath, i) => `import * as entry${i} from '${manifest.name}/${subpath.slice(2)}';`,
      );
      writeFileSync(
        join(app, consumer),
        `import { createMemoryStore, createWebhookHandler, isChannelWebhookError } from '${manifest.name}';
${imports.join('\n')}

export const entries = [${subpaths.map((_, i) => `entry${i}`).join(', ')}];
export const handle = createWebhookHandler({ store: createMemoryStore() });
export const known = (error: unknown): boolean => isChannelWebhookError(error, 'forbidden');
// @ts-expect-error a store is required
createWebhookHandler({});
`,
      );
      const tsconfig = join(app, `tsconfig.${moduleResolution}.${consumer}.json`);
      writeFileSync(
        tsconfig,
        JSON.stringify({
          compilerOptions: {
            module,
            moduleResolution,
            target: 'es2022',
            lib: ['es2022', 'dom'],
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: [],
          },
          files: [consumer],
        }),
      );
      const result = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', tsconfig], {
        cwd: app,
      }).then(
        () => ({ stdout: '' }),
        (error: { stdout: string }) => error,
      );
      expect(result.stdout).toBe('');
    },
    60_000,
  );

  it('declarations have readable names: no hashed chunk, the shared ones under types/ by their source file', () => {
    const files = readdirSync(join(app, 'node_modules', manifest.name, 'dist'), {
      recursive: true,
      encoding: 'utf8',
    }).filter((file) => /\.d\.c?ts$/.test(file));
    expect(files.filter((file) => /-[A-Za-z0-9_-]{8}\.d\.c?ts$/.test(file))).toEqual([]);
    expect(files).toContain(join('types', 'records.d.cts'));
  });

  // Once for both module systems: each entry's ES declarations are one line that re-exports its
  // CommonJS ones, and the shared ones exist once.
  it('ships one set of declarations: each entry’s .d.ts re-exports its .d.cts', () => {
    const dist = join(app, 'node_modules', manifest.name, 'dist');
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' });
    const esm = files.filter((file) => file.endsWith('.d.ts'));
    expect(esm.sort()).toEqual([...subpaths.map((subpath) => `${subpath.slice(2)}.d.ts`), 'index.d.ts'].sort());
    for (const file of esm) {
      expect(readFileSync(join(dist, file), 'utf8')).toBe(`export * from './${file.slice(0, -'.d.ts'.length)}.cjs';\n`);
    }
  });

  it("a wrong block's error names its type (SectionBlock, WebhookPayload), not its expanded shape", async () => {
    writeFileSync(
      join(app, 'wrong-block.ts'),
      `import type { SectionBlock, WebhookPayload } from '${manifest.name}';
export const section: SectionBlock = { type: 'section', text: { type: 'mrkdwn', text: 'Deploy 42' }, accessory: { type: 'button' } };
export const payload: WebhookPayload = { text: 'Deploy 42', username: 'ci' };
`,
    );
    const tsconfig = join(app, 'tsconfig.wrong-block.json');
    const compilerOptions = {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    };
    writeFileSync(tsconfig, JSON.stringify({ compilerOptions, files: ['wrong-block.ts'] }));
    const result = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', tsconfig], {
      cwd: app,
    }).then(
      () => ({ stdout: '' }),
      (error: { stdout: string }) => error,
    );
    expect(result.stdout).toContain("'accessory' does not exist in type 'SectionBlock'");
    expect(result.stdout).toMatch(/'username' does not exist in type '[^']*WebhookPayload[^']*'/);
    expect(result.stdout).not.toContain('block_id?');
  }, 60_000);
});
