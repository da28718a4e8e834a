import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** How a run of the command ended. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command under test, with a working directory of its own. */
export interface Command {
  /** The working directory the command runs in (a fresh temporary one). */
  readonly dir: string;
  /** Starts the command; `CHANNEL_WEBHOOK_URL` is the test's to give, never inherited. */
  start(args: string[], env?: Record<string, string>): ChildProcess;
  /** Runs the command to its end, with `stdin` as its standard input. */
  run(args: string[], options?: { stdin?: string; env?: Record<string, string> }): Promise<Run>;
  /** Starts `serve` and resolves with its URL, the child, and its whole run once it exits. */
  serve(args: string[]): Promise<{ url: string; child: ChildProcess; done: Promise<Run> }>;
  /** Writes `content` (JSON unless a string) to a file of the working directory; its path. */
  file(name: string, content: unknown): string;
}

/**
 * The command as users run it: bundled from bin/ the way tsup builds dist/cli.js (the library's
 * dependencies left as imports), started as a child process of its own. Call it at the top of a
 * test file: it builds in `beforeAll` and cleans up in `afterAll`.
 */
export function useCommand(): Command {
  let cli = '';
  let dir = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'channel-webhooks-cli-'));
    cli = join(root, '.tmp', `cli-test-${process.pid}-${basename(dir)}.mjs`);
    await build({
      entryPoints: [join(root, 'bin', 'channel-webhooks.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outfile: cli,
      logLevel: 'warning',
    });
  });
  afterAll(() => {
    rmSync(cli, { force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (args: string[], env: Record<string, string> = {}) => {
    const { CHANNEL_WEBHOOK_URL: _, ...inherited } = process.env;
    return spawn(process.execPath, [cli, ...args], {
      cwd: dir,
      env: { ...inherited, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  };
  return {
    get dir() {
      return dir;
    },
    start,
    run(args, options = {}) {
      const child = start(args, options.env);
      child.stdin!.end(options.stdin ?? '');
      return finished(child);
    },
    async serve(args) {
      const child = start(['serve', ...args]);
      child.stdin!.end();
      const done = finished(child);
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          if (seen.includes('\n')) resolve(seen.split('\n')[0]!);
        });
        child.on('close', () => reject(new Error('serve exited before printing its URL')));
      });
      return { url, child, done };
    },
    file(name, content) {
      const path = join(dir, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      return path;
    },
  };
}

/** The whole output of `child` and its exit code, once it has exited. */
export function finished(child: ChildProcess): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves once `child` has written text matching `pattern` to standard error. */
export function stderrShows(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        child.stderr!.off('data', look);
        resolve(seen);
      }
    };
    child.stderr!.on('data', look);
    child.on('close', () => reject(new Error(`exited before writing ${pattern}; it wrote ${JSON.stringify(seen)}`)));
  });
}
