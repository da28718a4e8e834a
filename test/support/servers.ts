import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throwaway PostgreSQL cluster in a temp dir, on a free loopback port. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  /** Stops the server (fast shutdown), keeping its data. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Freezes every process of the cluster (SIGSTOP): a hung database. */
  pause(): void;
  /** Thaws what {@link pause} froze. */
  resume(): void;
  /** Stops it for good and deletes its files. */
  destroy(): Promise<void>;
}

/** A throwaway redis-server without persistence, on a free loopback port. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** Stops the server (its data is gone: nothing is persisted). */
  stop(): Promise<void>;
  /** Starts a fresh one on the same port. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** Whether the PostgreSQL and Redis binaries are here, and if not, why not. */
export function serverBinaries(): { postgres: string | null; redis: string | null; missing: string[] } {
  const postgres = findPostgresBin();
  const redis = findOnPath('redis-server');
  const missing: string[] = [];
  if (postgres === null) missing.push('PostgreSQL (no /usr/lib/postgresql/*/bin/initdb; apt-get install postgresql)');
  if (redis === null) missing.push('redis-server (not on PATH; apt-get install redis-server)');
  return { postgres, redis, missing };
}

/** Starts an ephemeral PostgreSQL cluster: `initdb` into a temp dir, then `pg_ctl start`. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (bin === null) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql/*/bin');
  const root = await mkdtemp(join(tmpdir(), 'channel-webhooks-pg-'));
  const data = join(root, 'data');
  const log = join(root, 'postgres.log');
  // initdb and postgres refuse to run as root; Debian's package provides the `postgres` user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = userIds('postgres');
    await chown(root, uid, gid);
  }
  const pg = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args);

  await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  // Durability is pointless for a throwaway cluster; turning it off keeps tests fast on small machines.
  const serverOptions = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = async () => {
    await pg('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', serverOptions]);
  };
  const stop = async (mode: 'fast' | 'immediate') => {
    await pg('pg_ctl', ['stop', '-w', '-t', '60', '-D', data, '-m', mode]);
  };
  const clusterPids = (): number[] => {
    const pidFile = join(data, 'postmaster.pid');
    if (!existsSync(pidFile)) return [];
    const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    return [postmaster, ...childrenOf(postmaster)];
  };
  let running = false;
  await start();
  running = true;
  const pgCtl = asRoot ? `runuser -u postgres -- ${join(bin, 'pg_ctl')}` : join(bin, 'pg_ctl');
  const stopWatchdog = watchdog(
    `[ -f "$1/postmaster.pid" ] && kill -CONT "$(head -n 1 "$1/postmaster.pid")"; ${pgCtl} stop -w -t 10 -D "$1" -m immediate; rm -rf "$2"`,
    [data, root],
  );

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await stop('fast');
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    pause() {
      for (const pid of clusterPids()) signal(pid, 'SIGSTOP');
    },
    resume() {
      for (const pid of clusterPids()) signal(pid, 'SIGCONT');
    },
    async destroy() {
      try {
        if (running) {
          for (const pid of clusterPids()) signal(pid, 'SIGCONT');
          await stop('immediate');
          running = false;
        }
        await rm(root, { recursive: true, force: true });
      } finally {
        stopWatchdog();
      }
    },
  };
}

/** Starts an ephemeral `redis-server` without persistence. */
export async function startRedis(): Promise<RedisServer> {
  const bin = findOnPath('redis-server');
  if (bin === null) throw new Error('redis-server not found on PATH');
  const port = await freePort();
  let child: ChildProcess | null = null;
  let stopWatchdog = () => {};

  const start = async () => {
    const proc = spawnRedis(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
    child = proc;
    stopWatchdog = watchdog('kill "$1"', [String(proc.pid)]);
    await untilReady(proc);
  };
  const stop = async () => {
    const proc = child;
    child = null;
    stopWatchdog();
    if (proc !== null) await stopProcess(proc);
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop, destroy: stop };
}

/** A throwaway Redis Cluster of masters without replicas or persistence, on loopback. */
export interface RedisClusterServer {
  /** Where each master listens. */
  nodes: Array<{ host: string; port: number }>;
  /** Stops every node and deletes their files. */
  destroy(): Promise<void>;
}

/**
 * Starts a Redis Cluster of `masters` nodes: each a `redis-server --cluster-enabled yes` on a free
 * loopback port with its config file in a temp dir, joined by `redis-cli --cluster create`, then
 * waits until every node reports `cluster_state:ok`.
 */
export async function startRedisCluster(masters = 3): Promise<RedisClusterServer> {
  const bin = findOnPath('redis-server');
  const cli = findOnPath('redis-cli');
  if (bin === null || cli === null) throw new Error('redis-server or redis-cli not found on PATH');
  const root = await mkdtemp(join(tmpdir(), 'channel-webhooks-redis-cluster-'));
  const children: ChildProcess[] = [];
  let stopWatchdog = () => {};
  const destroy = async () => {
    stopWatchdog();
    await Promise.all(children.map(stopProcess));
    await rm(root, { recursive: true, force: true });
  };
  try {
    const nodes: Array<{ host: string; port: number }> = [];
    for (let index = 0; index < masters; index++) {
      // Each node needs a second free port for the cluster bus: the default, port + 10000, may not exist.
      const [port, busPort] = [await freePort(), await freePort()];
      const dir = join(root, String(port));
      await mkdir(dir);
      children.push(
        spawnRedis(bin, [
          '--port',
          String(port),
          '--cluster-port',
          String(busPort),
          '--bind',
          '127.0.0.1',
          '--dir',
          dir,
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, 'nodes.conf'),
          '--save',
          '',
          '--appendonly',
          'no',
        ]),
      );
      nodes.push({ host: '127.0.0.1', port });
    }
    stopWatchdog = watchdog('root="$1"; shift; kill "$@" 2>/dev/null; sleep 1; rm -rf "$root"', [
      root,
      ...children.map((child) => String(child.pid)),
    ]);
    await Promise.all(children.map(untilReady));
    await run(cli, [
      '--cluster',
      'create',
      ...nodes.map(({ host, port }) => `${host}:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    const deadline = Date.now() + 30_000;
    for (const { port } of nodes) {
      while (!(await run(cli, ['-p', String(port), 'cluster', 'info'])).stdout.includes('cluster_state:ok')) {
        if (Date.now() > deadline)
          throw new Error(
            `the Redis Cluster on ports ${nodes.map((node) => node.port).join(', ')} did not reach cluster_state:ok within 30 s`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    return { nodes, destroy };
  } catch (error) {
    await destroy();
    throw error;
  }
}

function spawnRedis(bin: string, args: string[]): ChildProcess {
  return spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
}

async function untilReady(proc: ChildProcess): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        proc.stdout!.off('data', onData);
        proc.stdout!.resume();
        resolve();
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.resume();
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
}

async function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

/** The Debian packages' binaries of the reverse proxies. */
export const NGINX = '/usr/sbin/nginx';
export const HAPROXY = '/usr/sbin/haproxy';

/** A reverse proxy in the foreground with a configuration of the test's, its files in a temp dir. */
export interface ProxyServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** What it logged so far. */
  log(): string;
  /** Stops it and deletes its files. */
  destroy(): Promise<void>;
}

/**
 * Starts nginx on a free loopback port with `http(listen)`, the body of its `http {}` block
 * (`listen` is the address for its `listen` directive). The pid file, log and temp paths are in a
 * temp dir.
 */
export async function startNginx(http: (listen: string) => string): Promise<ProxyServer> {
  const root = await mkdtemp(join(tmpdir(), 'channel-webhooks-nginx-'));
  const port = await freePort();
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `  ${name}_temp_path ${join(root, name)};`)
    .join('\n');
  // Run by root, nginx's workers take the user `nobody`, who could not write to the temp dir.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  const config = join(root, 'nginx.conf');
  writeFileSync(
    config,
    `${user}daemon off;
worker_processes 1;
pid ${join(root, 'nginx.pid')};
error_log ${join(root, 'proxy.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
${temp}
${http(`127.0.0.1:${port}`)}
}
`,
  );
  await run(NGINX, ['-t', '-q', '-p', root, '-c', config]);
  return runProxy(
    'nginx',
    spawn(NGINX, ['-p', root, '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] }),
    root,
    port,
  );
}

/**
 * Starts HAProxy on a free loopback port with `sections(bind)`, its configuration after `global`
 * and `defaults` (`bind` is the address for a frontend's `bind`). Its log goes to a file in a temp dir.
 */
export async function startHaproxy(sections: (bind: string) => string): Promise<ProxyServer> {
  const root = await mkdtemp(join(tmpdir(), 'channel-webhooks-haproxy-'));
  const port = await freePort();
  const config = join(root, 'haproxy.cfg');
  writeFileSync(
    config,
    `global
  maxconn 256
  log stderr format short local0 warning
defaults
  log global
  mode http
${sections(`127.0.0.1:${port}`)}
`,
  );
  await run(HAPROXY, ['-c', '-q', '-f', config]);
  const child = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  return runProxy('HAProxy', child, root, port);
}

/** Waits for `child` to accept connections on `port`; its stderr and the temp dir's proxy.log are its log. */
async function runProxy(name: string, child: ChildProcess, root: string, port: number): Promise<ProxyServer> {
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stopWatchdog = watchdog('kill "$1"; sleep 1; rm -rf "$2"', [String(child.pid), root]);
  const file = join(root, 'proxy.log');
  const log = () => stderr + (existsSync(file) ? readFileSync(file, 'utf8') : '');
  for (let i = 0; ; i++) {
    try {
      await canConnect(port);
      break;
    } catch (error) {
      if (i === 200 || child.exitCode !== null) {
        stopWatchdog();
        await stopProcess(child);
        throw new Error(`${name} did not start: ${(error as Error).message}\n${log()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    log,
    async destroy() {
      stopWatchdog();
      await stopProcess(child);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The Debian package's PgBouncer binary. */
export const PGBOUNCER = '/usr/sbin/pgbouncer';

/** A PgBouncer in front of a PostgreSQL, in the foreground, its files in a temp dir. */
export interface PgbouncerServer {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url(database: string): string;
  /** Its log so far. */
  log(): string;
  /** Stops it and deletes its files. */
  destroy(): Promise<void>;
}

/**
 * Starts PgBouncer on a free loopback port in front of the PostgreSQL at `databaseUrl` (trusting
 * its `postgres` user, every database), with `settings`, lines of its `[pgbouncer]` section
 * (`pool_mode = transaction`, …). It refuses to run as root: then it runs as `postgres`, as the
 * cluster does.
 */
export async function startPgbouncer(databaseUrl: string, settings: string[]): Promise<PgbouncerServer> {
  const root = await mkdtemp(join(tmpdir(), 'channel-webhooks-pgbouncer-'));
  const port = await freePort();
  const server = new URL(databaseUrl);
  const config = join(root, 'pgbouncer.ini');
  writeFileSync(join(root, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    config,
    `[databases]
* = host=${server.hostname} port=${server.port}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(root, 'userlist.txt')}
logfile = ${join(root, 'proxy.log')}
${settings.join('\n')}
`,
  );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = userIds('postgres');
    await chown(root, uid, gid);
  }
  const child = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', PGBOUNCER, config], { stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn(PGBOUNCER, [config], { stdio: ['ignore', 'ignore', 'pipe'] });
  const proxy = await runProxy('PgBouncer', child, root, port);
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    log: proxy.log,
    destroy: proxy.destroy,
  };
}

/** Resolves once a TCP connection to `port` on loopback opens (and closes it), rejects when refused. */
function canConnect(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `cleanup` (a shell script; `$1`, `$2`… are `args`) once this process has died without
 * cleaning up (a test run killed by a timeout or a signal), so no server outlives its run.
 * Returns the function that cancels it.
 */
function watchdog(cleanup: string, args: string[]): () => void {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${cleanup}`;
  const guard = spawn('/bin/sh', ['-c', script, 'watchdog', ...args], { detached: true, stdio: 'ignore' });
  guard.unref();
  return () => {
    if (guard.exitCode === null && guard.pid !== undefined) signal(guard.pid, 'SIGTERM');
  };
}

function findPostgresBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((name) => existsSync(join(base, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? null : join(base, versions[0]!, 'bin');
}

function findOnPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir !== '' && existsSync(join(dir, command))) return join(dir, command);
  }
  return null;
}

function userIds(user: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${user}:`));
  if (line === undefined)
    throw new Error(`there is no ${user} user to run PostgreSQL as (the postgresql package creates it)`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

// A process of the cluster may end between listing and signalling it (a backend whose client left).
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

// Reads /proc rather than depending on procps: the direct children of `parent`.
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses; the fields after its last ')' are fixed.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === parent) children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}
