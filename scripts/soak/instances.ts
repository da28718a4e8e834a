import { type ChildProcess, spawn } from 'node:child_process';

const memoryProbe = new URL('./memory-probe.js', import.meta.url).href;

/** One process of the app under soak, on a port of its own that it keeps across restarts. */
export interface SoakInstance {
  origin: string;
  /** What it said on its first start (the memory target's seeded URLs). */
  ready: { seeded?: string[] };
  /** Heap, RSS and V8's young generation in bytes after a full collection, or null when it does not answer within 2 s. */
  sample(): Promise<{ heapUsed: number; rss: number; young: number } | null>;
  /** Kills it at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** The lines it wrote to stderr (its onError reports), over all its lives. */
  errors(): string[];
}

/**
 * Spawns `script` from the repository root (the working directory, where `channel-webhooks` resolves
 * to `dist/`)
 * with the memory probe preloaded, and waits until it says it listens.
 */
export async function startSoakInstance(
  script: string,
  port: number,
  env: Record<string, string>,
): Promise<SoakInstance> {
  let child: ChildProcess | null = null;
  const errors: string[] = [];
  const start = async () => {
    const proc = spawn(process.execPath, ['--expose-gc', '--import', memoryProbe, script], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), SOAK_PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    child = proc;
    let partial = '';
    proc.stderr!.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      errors.push(...lines);
    });
    return new Promise<{ seeded?: string[] }>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(
        () => reject(new Error(`${script} did not listen within 60 s:\n${stdout}\n${errors.join('\n')}`)),
        60_000,
      );
      proc.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const line = stdout
          .split('\n')
          .find((each) => each.startsWith('{"listening"') || each.startsWith('Listening on'));
        if (line === undefined) return;
        clearTimeout(timer);
        proc.stdout!.removeAllListeners('data');
        proc.stdout!.resume();
        resolve(line.startsWith('{') ? (JSON.parse(line) as { seeded?: string[] }) : {});
      });
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`${script} exited (${signal ?? code}) before listening:\n${stdout}\n${errors.join('\n')}`));
      });
    });
  };
  const ended = (proc: ChildProcess) => proc.exitCode !== null || proc.signalCode !== null;
  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      const proc = child;
      if (proc === null || ended(proc)) return resolve();
      const force = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      proc.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      proc.kill(signal);
    });
  const ready = await start();
  return {
    origin: `http://127.0.0.1:${port}`,
    ready,
    sample: () =>
      new Promise((resolve) => {
        const proc = child;
        if (proc === null || ended(proc) || !proc.connected) return resolve(null);
        const timer = setTimeout(() => {
          proc.off('message', onMessage);
          resolve(null);
        }, 2_000);
        const onMessage = (message: unknown) => {
          clearTimeout(timer);
          resolve(message as { heapUsed: number; rss: number; young: number });
        };
        proc.once('message', onMessage);
        proc.send('sample');
      }),
    kill: () => end('SIGKILL'),
    start: async () => {
      await start();
    },
    stop: () => end('SIGTERM'),
    errors: () => errors,
  };
}
