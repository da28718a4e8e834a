import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** How an instance's process ended, and how long after it was told to stop. */
export interface InstanceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
}

/** One running instance of examples/multi-instance/server.js, in its own Node process. */
export interface Instance {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Everything it wrote to stderr so far (its onError reports). */
  stderr(): string;
  /**
   * Stops it as a deploy does (SIGTERM) and resolves when it has exited: by itself, or killed
   * (SIGKILL) after 5 s; with how it exited and how long it took.
   */
  stop(): Promise<InstanceExit>;
  /** Kills the process at once (SIGKILL), as a crash would; resolves when it is gone. */
  kill(): Promise<void>;
}

/**
 * Spawns the multi-instance example on a free port. It imports the built package (`dist`), as an
 * app would; `npm test` builds it first.
 */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  if (!existsSync(`${root}dist/postgres.js`))
    throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  const child = spawn(process.execPath, ['examples/multi-instance/server.js'], {
    cwd: root,
    // Not the test runner's environment: vite's variables (BASE_URL among them) would leak in.
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const origin = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(
      () => reject(new Error(`instance did not start within 30 s:\n${stdout}\n${stderr}`)),
      30_000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Listening on (http:\/\/[^\s]+)/.exec(stdout);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance exited with ${code} before listening:\n${stdout}\n${stderr}`));
    });
  });
  return {
    origin,
    stderr: () => stderr,
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
    stop: () =>
      new Promise<InstanceExit>((resolve) => {
        const started = Date.now();
        if (child.exitCode !== null || child.signalCode !== null)
          return resolve({ code: child.exitCode, signal: child.signalCode, ms: 0 });
        const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', (code, signal) => {
          clearTimeout(force);
          resolve({ code, signal, ms: Date.now() - started });
        });
        child.kill('SIGTERM');
      }),
  };
}
