import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// Reads the built package: `npm test` builds before it runs.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the package entry points', () => {
  // Every file an entry loads, following its relative imports (the shared chunks) from the entry.
  function loadedFiles(entry: string): Map<string, string> {
    const files = new Map<string, string>();
    const visit = (file: string) => {
      if (files.has(file)) return;
      const text = readFileSync(join(root, 'dist', file), 'utf8');
      files.set(file, text);
      for (const [, next] of text.matchAll(/(?:from |require\()['"]\.\/([^'"]+)['"]/g)) visit(next!);
    };
    visit(entry);
    return files;
  }

  it('the root entry never loads markdown-it; the render entry does', () => {
    for (const entry of ['index.js', 'index.cjs']) {
      const files = loadedFiles(entry);
      expect(files.size, entry).toBeGreaterThan(1);
      for (const [file, text] of files) expect(text, `${entry} loads ${file}`).not.toContain('markdown-it');
    }
    const renderFiles = (entry: string) => [...loadedFiles(entry).values()].join('\n');
    expect(renderFiles('render.js')).toContain("from 'markdown-it'");
    // The CommonJS entry requires the ES module, which imports it.
    expect(renderFiles('render.cjs')).toContain("from 'markdown-it'");
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

  it('render.css is a file a server finds, and a bundler keeps when the client imports it', async () => {
    const file = createRequire(join(root, 'package.json')).resolve('channel-webhooks/render.css');
    expect(file).toBe(join(root, 'dist', 'render.css'));
    const css = readFileSync(join(root, 'src', 'render', 'render.css'), 'utf8');
    expect(readFileSync(file, 'utf8')).toBe(css);
    const result = await build({
      stdin: {
        contents:
          "import 'channel-webhooks/render.css';\nimport { toHtml } from 'channel-webhooks/render';\nconsole.log(toHtml);",
        resolveDir: root,
        loader: 'js',
      },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      outdir: join(root, '.tmp', 'render-css-bundle'),
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const bundled = result.outputFiles.find((output) => output.path.endsWith('.css'));
    expect(bundled?.text).toContain(':where(.cw-image-alt)::before');
    expect(bundled?.text).toContain('@media (prefers-color-scheme: dark)');
  });

  it('the render sources use Web standards only', () => {
    const sources = readdirSync(join(root, 'src', 'render'));
    for (const file of sources)
      expect(readFileSync(join(root, 'src', 'render', file), 'utf8'), file).not.toMatch(
        /from '(?:node:|fs|path|buffer|crypto)/,
      );
  });
});
