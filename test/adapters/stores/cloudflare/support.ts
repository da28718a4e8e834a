import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { send, type Answer } from '../../../support/http.js';
import { freePort } from '../../../support/servers.js';
import { RUNTIME_BINARIES, runtimeSuiteTitle } from '../../../runtimes/runtime-install.js';
import { startMiniflare, type MiniflareLike } from '../../../runtimes/miniflare.js';

const here = dirname(fileURLToPath(import.meta.url));

/** Whether miniflare is installed (`npm run runtimes:install`); the suites are skipped without it. */
export const hasMiniflare = existsSync(RUNTIME_BINARIES.miniflare);

/** A suite's title, saying why it is skipped when miniflare is not installed. */
export const workerdTitle = (title: string) => runtimeSuiteTitle(title, RUNTIME_BINARIES.miniflare);

export interface TestWorker {
  base: string;
  /** The folder of the objects' SQLite files. */
  persistDir: string;
  /** Stops workerd and starts it again on the same files. */
  restart(): Promise<void>;
  /** Stops workerd and deletes its files. */
  dispose(): Promise<void>;
  manage(body: Record<string, unknown>): Promise<Answer>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
}

let bundled: Promise<string> | null = null;

/** The test worker, bundled as wrangler would (one ES module), once per test file. */
function bundle(): Promise<string> {
  bundled ??= (async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), 'cw-workerd-bundle-')), 'worker.js');
    await build({
      entryPoints: [join(here, 'worker', 'test-worker.ts')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['module', 'main'],
      outfile,
      logLevel: 'warning',
    });
    return outfile;
  })();
  return bundled;
}

/** Starts the test worker in workerd with its objects persisted in a fresh folder. */
export async function startTestWorker(): Promise<TestWorker> {
  const scriptPath = await bundle();
  const persistDir = mkdtempSync(join(tmpdir(), 'cw-workerd-objects-'));
  let port = await freePort();
  const start = () =>
    startMiniflare({ scriptPath, persistDir, port, durableObjects: { CHANNEL_WEBHOOKS: 'TestObject' } });
  let miniflare: MiniflareLike = await start();
  const worker: TestWorker = {
    get base() {
      return `http://127.0.0.1:${port}`;
    },
    persistDir,
    async restart() {
      await miniflare.dispose();
      port = await freePort();
      miniflare = await start();
    },
    async dispose() {
      await miniflare.dispose();
      rmSync(persistDir, { recursive: true, force: true });
    },
    manage: (body) => send(`${worker.base}/__manage`, { body }),
    post: (path, body, headers = {}) => send(`${worker.base}${path}`, { body: body as object, headers }),
  };
  return worker;
}
