import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { freePort } from './servers.js';

const run = promisify(execFile);

/** The Debian package's binaries (`apt-get install mariadb-server`). */
const INSTALL_DB = '/usr/bin/mariadb-install-db';
const MARIADBD = '/usr/sbin/mariadbd';

/** The database every test file shares, each with its own table prefix. */
const DATABASE = 'channel_webhooks_test';

/** A throwaway MariaDB in a temp dir, on a free loopback port. */
export interface MariadbServer {
  /** `mysql://root@127.0.0.1:<port>/channel_webhooks_test` */
  url: string;
  /** Stops it for good and deletes its files. */
  destroy(): Promise<void>;
}

/** Why MariaDB cannot be started here, or null when its binaries are installed. */
export function mariadbMissing(): string | null {
  return existsSync(INSTALL_DB) && existsSync(MARIADBD)
    ? null
    : `MariaDB (no ${MARIADBD} or ${INSTALL_DB}; apt-get install mariadb-server)`;
}

// Files of other tiers that run something on MariaDB: the docs' code blocks (docs/mysql.md).
const ALSO_ON_MARIADB = ['test/docs/doc-blocks.built.test.ts'];

/**
 * Whether the run holds a `*.mysql.test.ts` file (or one of `ALSO_ON_MARIADB`): MariaDB is started only then. The run's file
 * filters (`vitest run <filter>…`) are Vitest's `filenamePattern`, set before the global set-up
 * runs; its public API has no other door to them.
 */
export async function runNeedsMariadb(project: TestProject): Promise<boolean> {
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  const { testFiles } = await project.globTestFiles(filters);
  return testFiles.some(
    (file) => file.endsWith('.mysql.test.ts') || ALSO_ON_MARIADB.some((also) => file.endsWith(also)),
  );
}

/**
 * Starts an ephemeral MariaDB: `mariadb-install-db` into a temp dir, then `mariadbd` on loopback
 * with `--skip-grant-tables` (any user, no password), without durability, which a throwaway server
 * does not need. It runs as the package's `mysql` user when started by root.
 */
export async function startMariadb(): Promise<MariadbServer> {
  const missing = mariadbMissing();
  if (missing !== null) throw new Error(missing);
  const root = await mkdtemp(join(tmpdir(), 'channel-webhooks-mariadb-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await chown(root, ...mysqlIds());
  const user = asRoot ? ['--user=mysql'] : [];
  const speed = ['--innodb-flush-log-at-trx-commit=0', '--innodb-doublewrite=0', '--skip-log-bin'];
  await run(INSTALL_DB, [
    '--no-defaults',
    `--datadir=${data}`,
    ...user,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
    '--skip-name-resolve',
    ...speed,
  ]);
  const port = await freePort();
  const child = spawn(
    MARIADBD,
    [
      '--no-defaults',
      `--datadir=${data}`,
      ...user,
      '--skip-grant-tables',
      '--skip-name-resolve',
      '--bind-address=127.0.0.1',
      `--port=${port}`,
      `--socket=${join(root, 'mariadb.sock')}`,
      `--pid-file=${join(root, 'mariadb.pid')}`,
      '--innodb-buffer-pool-size=128M',
      '--max-connections=500',
      ...speed,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const stopWatchdog = watchdog(child.pid!, root);
  const destroy = async () => {
    stopWatchdog();
    await stopProcess(child);
    await rm(root, { recursive: true, force: true });
  };
  try {
    await untilReady(child);
    const mysql = await import('mysql2/promise');
    const connection = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    await connection.query(`CREATE DATABASE ${DATABASE} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    await connection.end();
  } catch (error) {
    await destroy();
    throw error;
  }
  return { url: `mysql://root@127.0.0.1:${port}/${DATABASE}`, destroy };
}

/**
 * The run's MariaDB for the global set-up: MYSQL_URL when set, a fresh server when the run holds
 * a `*.mysql.test.ts` file, else none. Never throws: a failure is the reason the MariaDB suites are
 * skipped, which the global set-up turns into a failed run under CI.
 */
export async function mariadbForRun(
  project: TestProject,
): Promise<{ url: string | null; server: MariadbServer | null; failure: string | null }> {
  const given = process.env.MYSQL_URL;
  if (given) return { url: given, server: null, failure: null };
  if (!(await runNeedsMariadb(project))) return { url: null, server: null, failure: null };
  const missing = mariadbMissing();
  if (missing !== null) return { url: null, server: null, failure: missing };
  try {
    const server = await startMariadb();
    return { url: server.url, server, failure: null };
  } catch (error) {
    return { url: null, server: null, failure: `MariaDB did not start: ${(error as Error).message}` };
  }
}

async function untilReady(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`mariadbd did not start within 60 s:\n${output}`)), 60_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`mariadbd exited with ${code}:\n${output}`));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready for connections')) {
        clearTimeout(timer);
        child.off('exit', onExit);
        child.stderr!.off('data', onData);
        child.stderr!.resume();
        resolve();
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

// A run killed by a timeout or a signal leaves no server behind: this shell waits for the run's
// process to die, then stops mariadbd and deletes its files.
function watchdog(pid: number, root: string): () => void {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill "$1"; sleep 2; rm -rf "$2"`;
  const guard = spawn('/bin/sh', ['-c', script, 'watchdog', String(pid), root], { detached: true, stdio: 'ignore' });
  guard.unref();
  return () => {
    if (guard.exitCode === null && guard.pid !== undefined) {
      try {
        process.kill(guard.pid, 'SIGTERM');
      } catch {
        // It ended by itself.
      }
    }
  };
}

function mysqlIds(): [number, number] {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('mysql:'));
  if (line === undefined)
    throw new Error('there is no mysql user to run MariaDB as (the mariadb-server package creates it)');
  const [, , uid, gid] = line.split(':');
  return [Number(uid), Number(gid)];
}
