import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

// channel-webhooks/element is served to browsers as it is built: one file that loads nothing else,
// the same ES module however an app resolves it (import, require, a bundler).
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);
const built = (name: string) => readFileSync(join(root, 'dist', name), 'utf8');

describe('the built element module', () => {
  beforeAll(() => {
    expect(existsSync(join(root, 'dist', 'element.js')), 'dist/element.js is missing: run npm run build first').toBe(
      true,
    );
  });

  it('imports and requires nothing: an app serves dist/element.js as it is', () => {
    expect(
      built('element.js').match(/^\s*import\b|\bimport\s*\(|^\s*export\s+\*?\s*\{?[^;]*\bfrom\b|\brequire\s*\(/gm),
    ).toBeNull();
  });

  // A CommonJS app serves the file `require.resolve` finds (express.static, res.sendFile): it must be
  // the module a browser loads, not a CommonJS build, which fails there with `exports is not defined`.
  it('is the one ES module whether an app imports it, requires it or resolves it from CommonJS', async () => {
    const relative = (path: string) => path.slice(root.length + 1);
    const fromCjs = `const required = require('channel-webhooks/element');
import('channel-webhooks/element').then((imported) => process.stdout.write(JSON.stringify({
  resolved: require.resolve('channel-webhooks/element'),
  same: required.ChannelWebhooksSettings === imported.ChannelWebhooksSettings,
  name: required.ELEMENT_NAME,
})));`;
    const required = await run(process.execPath, ['--input-type=commonjs', '-e', fromCjs], { cwd: root });
    const imported = await run(
      process.execPath,
      ['--input-type=module', '-e', "process.stdout.write(import.meta.resolve('channel-webhooks/element'))"],
      { cwd: root },
    );
    const fromRequire = JSON.parse(required.stdout) as { resolved: string; same: boolean; name: string };
    expect({ ...fromRequire, resolved: relative(fromRequire.resolved) }).toEqual({
      resolved: 'dist/element.js',
      same: true,
      name: 'channel-webhooks-settings',
    });
    expect(relative(fileURLToPath(imported.stdout))).toBe('dist/element.js');
  });

  it('loads on a server without defining anything (a page rendered there imports it too), and exports the class', async () => {
    const source = `const mod = await import('channel-webhooks/element');
process.stdout.write(JSON.stringify({ name: mod.ELEMENT_NAME, element: typeof mod.ChannelWebhooksSettings, strings: Object.keys(mod.DEFAULT_STRINGS).length }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', source], { cwd: root });
    const loaded = JSON.parse(stdout) as { name: string; element: string; strings: number };
    expect(loaded.name).toBe('channel-webhooks-settings');
    expect(loaded.element).toBe('function');
    expect(loaded.strings).toBeGreaterThan(50);
  });

  it('is marked as having side effects, so that a bundler keeps `import "channel-webhooks/element"`', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { sideEffects: string[] };
    expect(manifest.sideEffects).toContain('./dist/element.js');
  });
});
