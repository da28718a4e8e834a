import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The runtimes the packed package is tested on are not dev dependencies of the clone: together they
// weigh about 700 MB. test/runtimes/package.json lists them, its own lock file pins them, and
// `npm run runtimes:install` installs them into test/runtimes/node_modules (git-ignored), where the
// tests find them and where a test file in test/runtimes resolves a library installed there. To add
// one, `npm install --prefix test/runtimes --save-exact <package>@<version>`: the check below then
// covers it, and a binary gets its path in RUNTIME_BINARIES.
const here = dirname(fileURLToPath(import.meta.url));
const installed = join(here, 'node_modules');

const RUNTIMES_INSTALL_COMMAND = 'npm run runtimes:install';

/** The executable of each runtime in the install. */
export const RUNTIME_BINARIES = {
  bun: join(installed, '@oven/bun-linux-x64/bin/bun'),
  deno: join(installed, '@deno/linux-x64-glibc/deno'),
  workerd: join(installed, '@cloudflare/workerd-linux-64/bin/workerd'),
  // Not a binary: miniflare's entry, which runs its own workerd with Durable Objects (see miniflare.ts).
  miniflare: join(installed, 'miniflare/dist/src/index.js'),
  node22: join(installed, 'node-22/bin/node'),
  node24: join(installed, 'node-24/bin/node'),
};

/** A suite's title, saying why it is skipped when its runtime is not installed. */
export function runtimeSuiteTitle(title: string, binary: string): string {
  return existsSync(binary) ? title : `${title} (SKIPPED: not installed; ${RUNTIMES_INSTALL_COMMAND})`;
}

/**
 * What the install lacks: each package of test/runtimes/package.json that is not installed, and
 * each installed at another version than its lock file pins. Both empty when the runtime tests can
 * run as CI runs them.
 */
function runtimeInstallProblems(): { missing: string[]; stale: string[] } {
  const manifest = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(join(here, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version: string }>;
  };
  const missing: string[] = [];
  const stale: string[] = [];
  for (const name of Object.keys(manifest.dependencies)) {
    const path = join(installed, name, 'package.json');
    if (!existsSync(path)) {
      missing.push(name);
      continue;
    }
    const { version } = JSON.parse(readFileSync(path, 'utf8')) as { version: string };
    const locked = lock.packages[`node_modules/${name}`]?.version;
    if (version !== locked) stale.push(`${name} ${version} (the lock file pins ${locked})`);
  }
  return { missing, stale };
}

/**
 * Checks the install once for the whole run: under CI a problem fails the run (`.ci/run` installs the
 * runtimes first); locally the suites of a missing runtime are skipped, after one warning.
 */
export function checkRuntimeInstall(ci: boolean): void {
  const { missing, stale } = runtimeInstallProblems();
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`not installed: ${missing.join(', ')}`);
  if (stale.length > 0) problems.push(`not at the locked version: ${stale.join(', ')}`);
  if (problems.length === 0) return;
  const why = `${problems.join('; ')} (${RUNTIMES_INSTALL_COMMAND} installs them as locked)`;
  if (ci) throw new Error(`CI needs the runtimes of test/runtimes/package.json: ${why}.`);
  console.warn(
    `\nRuntime suites are SKIPPED locally where their runtime is missing: ${why}. Under CI=true this fails the run.\n`,
  );
}
