import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Packs the built library as `npm publish` would and installs the tarball into a new app directory
 * (from npm's cache where it can), next to the files of `fixtures`: what a user's project holds after
 * `npm install channel-webhooks`. Returns the app directory.
 */
export async function installPackedLibrary(root: string, fixtures: string): Promise<string> {
  const app = mkdtempSync(join(tmpdir(), 'channel-webhooks-app-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', app, '--loglevel=error'], { cwd: root });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(app, filename)], { cwd: app });
  cpSync(fixtures, app, { recursive: true });
  return app;
}
