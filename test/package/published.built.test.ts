import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  exports: Record<string, unknown>;
  typesVersions: Record<string, Record<string, string[]>>;
  repository?: { url: string };
  homepage?: string;
  bugs?: { url: string };
};
const subpaths = Object.keys(manifest.exports).filter((subpath) => subpath !== '.' && subpath !== './package.json');

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

  it('passes @arethetypeswrong/cli: every entry resolves with types under node10, node16 (CJS and ESM) and bundler', async () => {
    const { stdout } = await run(bin('attw'), [tarball, '--format', 'json'], { timeout: 60_000 }).catch(
      (error: { stdout: string }) => error,
    );
    const report = JSON.parse(stdout) as { analysis: { problems: unknown[] } };
    expect(report.analysis.problems).toEqual([]);
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

  // A tripwire for maps or sources slipping back in (they were 1.0 MB of 1.8): the budget is the
  // code of every entry, /sqlite, /send with fromSlackPayload, /cloudflare, /manage, /deno-kv, /element,
  // /store-kit and the command included (468 kB packed, 1,801 kB unpacked).
  it('ships no source maps and stays under 490 kB packed and 1,900 kB unpacked', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], { cwd: root });
    const [pack] = JSON.parse(stdout) as [{ size: number; unpackedSize: number; files: { path: string }[] }];
    expect(pack.files.filter((file) => file.path.endsWith('.map'))).toEqual([]);
    expect(pack.size).toBeLessThan(490_000);
    expect(pack.unpackedSize).toBeLessThan(1_900_000);
  }, 60_000);

  it('passes publint --strict', async () => {
    const { stdout } = await run(bin('publint'), ['--strict', tarball], { timeout: 60_000 });
    expect(stdout).toContain('All good!');
  }, 60_000);

  // A consumer that imports every entry and misuses the root API once: under each resolution the
  // imports must resolve (TS2307 otherwise) and the misuse must be caught (so the types are not `any`).
  it.each([
    ['node10', 'commonjs'],
    ['node16', 'node16'],
    ['nodenext', 'nodenext'],
    ['bundler', 'esnext'],
  ])(
    'a consumer type-checks with moduleResolution %s',
    async (moduleResolution, module) => {
      const imports = subpaths.map(
        (subpath, i) => `import * as entry${i} from '${manifest.name}/${subpath.slice(2)}';`,
      );
      writeFileSync(
        join(app, 'consumer.ts'),
        `import { createMemoryStore, createWebhookHandler, isChannelWebhookError } from '${manifest.name}';
${imports.join('\n')}

export const entries = [${subpaths.map((_, i) => `entry${i}`).join(', ')}];
export const handle = createWebhookHandler({ store: createMemoryStore() });
export const known = (error: unknown): boolean => isChannelWebhookError(error, 'forbidden');
// @ts-expect-error a store is required
createWebhookHandler({});
`,
      );
      const tsconfig = join(app, `tsconfig.${moduleResolution}.json`);
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
          files: ['consumer.ts'],
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
    expect(files).toContain(join('types', 'records.d.ts'));
    expect(files).toContain(join('types', 'records.d.cts'));
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
