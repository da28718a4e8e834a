// Pieces of the core that the package does not export (validation, secret hashing), bundled from
// src/ with the esbuild that the build tool installs, so that their cost can be timed alone; the
// tests' ephemeral servers (and MariaDB), bundled the same way; and the switch of a smoke run.

import { mkdir, rename } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository: where bench/run.mjs was started (it runs a copy of bench/ from bench/.tmp). */
export const ROOT = process.env.BENCH_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
export const TMP = fileURLToPath(new URL('./.tmp/', import.meta.url));

/**
 * A smoke run (BENCH_SMOKE=1, as the tests run every part): each part measures for a moment, once,
 * on a tiny world, to show that it still runs and measures something. Its figures mean nothing.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';

/**
 * What a smoke run adds to autocannon's options: each load sends a hundred requests, whatever
 * its duration, and ends once they are answered (autocannon ends a load at its first sample after
 * that, and samples once a second unless told otherwise).
 */
export const SMOKE_LOAD = SMOKE ? { amount: 100, sampleInt: 100 } : {};

/**
 * Bundles `contents` (TypeScript source text, resolved from the repository root) to
 * bench/.tmp/`name`; answers its file URL. The bundle is written aside and moved into place, so
 * that a script bundling the same file at the same time never imports half of it.
 * @param {string} name
 * @param {string} contents
 */
export async function bundle(name, contents) {
  const { build } = await import('esbuild');
  await mkdir(TMP, { recursive: true });
  const outfile = `${TMP}${name}`;
  const aside = `${TMP}${process.pid}-${name}`;
  await build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts', sourcefile: `${name}.ts` },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: aside,
    logLevel: 'error',
    // Packages (typebox, pg, ...) load from node_modules as the built package would.
    packages: 'external',
  });
  await rename(aside, outfile);
  return pathToFileURL(outfile).href;
}

/**
 * @returns {Promise<Pick<typeof import('../src/validation/validate-payload.js'), 'validatePayload'> &
 *   Pick<typeof import('../src/secret/secret.js'), 'hashSecret' | 'hashesMatch'>>}
 */
export const loadCoreInternals = async () =>
  import(
    await bundle(
      'core-internals.mjs',
      `export { validatePayload } from './src/validation/validate-payload.ts';
       export { hashSecret, hashesMatch } from './src/secret/secret.ts';`,
    )
  );

/** The core's hashSecret alone, bundled (the scale worlds hash their secrets with it); answers its URL. */
export const bundleHashSecret = () => bundle('scale-core.mjs', `export { hashSecret } from './src/secret/secret.ts';`);

/**
 * The throwaway MariaDB the tests start (test/support/mariadb-server.ts).
 * @returns {Promise<typeof import('../test/support/mariadb-server.js')>}
 */
export const loadMariadb = async () =>
  import(await bundle('mariadb-server.mjs', `export * from './test/support/mariadb-server.ts';`));

/**
 * The throwaway PostgreSQL, Redis and Redis Cluster the tests start (test/support/servers.ts).
 * @returns {Promise<typeof import('../test/support/servers.js')>}
 */
export const loadServers = async () =>
  import(await bundle('servers.mjs', `export * from './test/support/servers.ts';`));
