import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// Reads the built package: `npm test` builds before it runs.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the package entry points', () => {
  it('the root entry never loads markdown-it; the render entry does', () => {
    for (const file of ['index.js', 'index.cjs']) expect(readFileSync(join(root, 'dist', file), 'utf8')).not.toContain('markdown-it');
    const chunks = readdirSync(join(root, 'dist')).filter((file) => /^chunk-.*\.(?:js|cjs)$/.test(file));
    for (const chunk of chunks) expect(readFileSync(join(root, 'dist', chunk), 'utf8'), chunk).not.toContain('markdown-it');
    expect(readFileSync(join(root, 'dist', 'render.js'), 'utf8')).toContain("from 'markdown-it'");
    expect(readFileSync(join(root, 'dist', 'render.cjs'), 'utf8')).toContain("require('markdown-it')");
  });

  it('the render entry bundles for the browser, markdown-it included, with no Node built-in', async () => {
    const result = await build({
      entryPoints: [join(root, 'dist', 'render.js')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]!.text).toContain('noopener noreferrer nofollow');
  });

  it('the render sources use Web standards only', () => {
    const sources = readdirSync(join(root, 'src', 'render'));
    for (const file of sources) expect(readFileSync(join(root, 'src', 'render', file), 'utf8'), file).not.toMatch(/from '(?:node:|fs|path|buffer|crypto)/);
  });
});
