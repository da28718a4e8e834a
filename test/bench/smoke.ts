import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The environment of a smoke run (bench/README.md): every part once, for a moment, on a tiny
 * world. The parts that compare two builds compare this one with itself (BENCH_BASELINE), so that
 * the code reading the baseline runs too.
 */
export const SMOKE_ENV = { BENCH_SMOKE: '1', BENCH_BASELINE: root };

/** The most a smoke test waits: a smoke run takes seconds, but the tests share the machine. */
export const SMOKE_TIMEOUT_MS = 180_000;

/**
 * Runs a script of bench/ as the benchmark starts its parts (a child with an IPC channel) in a
 * smoke run; answers what it printed and the result it sent, which it must have sent.
 */
export function runSmoke<T>(
  script: string,
  args: string[] = [],
  execArgv: string[] = [],
): Promise<{ result: T; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL(`../../bench/${script}`, import.meta.url)), args, {
      env: { ...process.env, ...SMOKE_ENV },
      execArgv,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let stdout = '';
    let stderr = '';
    let result: { value: T } | undefined;
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('message', (message: { type?: string; result?: T }) => {
      if (message.type === 'result') result = { value: message.result as T };
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`bench/${script} exited with code ${code}:\n${stderr}`));
      else if (result === undefined) reject(new Error(`bench/${script} sent no result:\n${stderr}`));
      else resolve({ result: result.value, stdout });
    });
  });
}
