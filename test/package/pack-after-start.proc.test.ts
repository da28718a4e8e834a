import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm start` builds the ES modules alone (no declarations, no CommonJS entries), for speed. A pack
// or a publish after it must still ship the whole package: `prepack` builds it all again and checks
// it. This runs in a copy of the repository, so the dist/ the other package tests read stays whole.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

/** What the copy leaves out: installs, builds, local data. node_modules is linked instead. */
const LEFT_OUT = new Set(['.git', 'node_modules', 'dist', '.data', '.tmp', 'coverage', join('docs', 'api')]);

const targets = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Object.values(value ?? {}).flatMap((inner) => targets(inner));

let clone: string;
beforeAll(() => {
  clone = mkdtempSync(join(tmpdir(), 'channel-webhooks-pack-'));
  cpSync(root, clone, {
    recursive: true,
    filter: (source) => {
      const path = relative(root, source);
      return !LEFT_OUT.has(path) && !path.split(sep).includes('node_modules');
    },
  });
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
});
afterAll(() => rmSync(clone, { recursive: true, force: true }));

describe('npm pack after npm start', () => {
  it('ships every file package.json names: the ES modules, the CommonJS entries, the declarations', async () => {
    // `npm start` is this build, then the example's server.
    await run('npm', ['run', 'prestart', '--silent'], { cwd: clone, timeout: 120_000 });
    // A real pack (its scripts print to stdout, so no --json): the tarball's own list is the answer.
    await run('npm', ['pack', '--pack-destination', clone, '--loglevel=error'], { cwd: clone, timeout: 600_000 });
    const tarball = readdirSync(clone).find((file) => file.endsWith('.tgz'));
    expect(tarball, 'npm pack wrote no tarball').toBeDefined();
    const { stdout } = await run('tar', ['-tzf', join(clone, tarball!)]);
    const shipped = new Set(stdout.split('\n').map((line) => line.replace(/^package\//, '')));
    const manifest = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as Record<string, unknown>;
    const named = [
      ...new Set(
        ['main', 'module', 'types', 'bin', 'exports', 'typesVersions'].flatMap((key) => targets(manifest[key])),
      ),
    ].map((file) => file.replace(/^\.\//, ''));
    expect(named).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts']),
    );
    expect(named.filter((file) => !shipped.has(file))).toEqual([]);
    expect(shipped).toContain('dist/types/records.d.cts');
  }, 720_000);
});
