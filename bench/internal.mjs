// Pieces of the core that the package does not export (validation, secret hashing), bundled from
// src/ with the esbuild that the build tool installs, so that their cost can be timed alone.

import { mkdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository: where bench/run.mjs was started (it runs a copy of bench/ from bench/.tmp). */
export const ROOT = process.env.BENCH_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
export const TMP = fileURLToPath(new URL('./.tmp/', import.meta.url));

/** Bundles `entry` (TypeScript source text, resolved from the repository root) to bench/.tmp/`name`. */
export async function bundle(name, contents) {
  const { build } = await import('esbuild');
  await mkdir(TMP, { recursive: true });
  const outfile = `${TMP}${name}`;
  await build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts', sourcefile: `${name}.ts` },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
    // Packages (typebox, pg, ...) load from node_modules as the built package would.
    packages: 'external',
  });
  return pathToFileURL(outfile).href;
}

export const loadCoreInternals = async () =>
  import(
    await bundle(
      'core-internals.mjs',
      `export { validatePayload } from './src/validation/validate-payload.ts';
       export { hashSecret, hashesMatch } from './src/secret/secret.ts';`,
    )
  );
