import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Packs the built library as `npm publish` would, into `dir`; returns the tarball's path. Its
 * prepack script (the whole build again) is skipped: the tests pack the build they run on.
 */
export async function packLibrary(root: string, dir: string): Promise<string> {
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', dir, '--loglevel=error'],
    { cwd: root },
  );
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  return join(dir, filename);
}

/**
 * Packs the library and installs the tarball into a new app directory (from npm's cache where it
 * can), next to the files of `fixtures`: what a user's project holds after
 * `npm install channel-webhooks`. Returns the app directory and the tarball.
 */
export async function installPackedLibrary(root: string, fixtures?: string): Promise<{ app: string; tarball: string }> {
  const app = mkdtempSync(join(tmpdir(), 'channel-webhooks-app-'));
  const tarball = await packLibrary(root, app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
    cwd: app,
  });
  if (fixtures !== undefined) cpSync(fixtures, app, { recursive: true });
  return { app, tarball };
}
