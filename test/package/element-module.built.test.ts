import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

// channel-webhooks/element is served to browsers as it is built: one file that loads nothing else.
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
    for (const name of ['element.js', 'element.cjs']) {
      const code = built(name);
      expect(
        code.match(/^\s*import\b|\bimport\s*\(|^\s*export\s+\*?\s*\{?[^;]*\bfrom\b|\brequire\s*\(/gm),
        name,
      ).toBeNull();
    }
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
    expect(manifest.sideEffects).toEqual(['./dist/element.js', './dist/element.cjs']);
  });
});
