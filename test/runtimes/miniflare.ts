import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RUNTIME_BINARIES } from './runtime-install.js';

// miniflare is in the runtime install only, never a dependency of the clone: these few lines of its
// API are all the tests use, so that tsc checks them in a clone without the install.
export interface MiniflareLike {
  ready: Promise<URL>;
  dispose(): Promise<void>;
}

export interface MiniflareWorkerOptions {
  /** The bundled worker, an ES module. */
  scriptPath: string;
  /** Each binding's name and the exported class it binds, as SQLite-backed Durable Objects. */
  durableObjects: Record<string, string>;
  /** Where the objects' SQLite files live: the same folder again is the same state after a restart. */
  persistDir: string;
  port: number;
  /** Text bindings (wrangler.toml's `[vars]`). */
  bindings?: Record<string, string>;
  /** Default 2025-09-01, the date the other runtime tests use. */
  compatibilityDate?: string;
}

/** Starts workerd through miniflare, serving one worker on 127.0.0.1:`port`. */
export async function startMiniflare(options: MiniflareWorkerOptions): Promise<MiniflareLike> {
  const { Miniflare } = (await import(pathToFileURL(RUNTIME_BINARIES.miniflare).href)) as {
    Miniflare: new (options: object) => MiniflareLike;
  };
  const miniflare = new Miniflare({
    modules: true,
    scriptPath: options.scriptPath,
    modulesRoot: dirname(options.scriptPath),
    compatibilityDate: options.compatibilityDate ?? '2025-09-01',
    durableObjects: Object.fromEntries(
      Object.entries(options.durableObjects).map(([name, className]) => [name, { className, useSQLite: true }]),
    ),
    durableObjectsPersist: options.persistDir,
    bindings: options.bindings ?? {},
    host: '127.0.0.1',
    port: options.port,
  });
  await miniflare.ready;
  return miniflare;
}
