// The three targets the soak runs against, each behind one shape: instances to send to, webhooks to
// post to, the faults it can suffer, and a way to read back every message it stored.
import Database from 'better-sqlite3';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, startPostgres, startRedis } from '../../test/support/servers.js';
import { createPostgresStore } from '../../adapters/stores/postgres/index.js';
import { createSqliteStore } from '../../adapters/stores/sqlite/index.js';
import { type Channel, createWebhookManager, type Message, type WebhookStore } from '../../src/index.js';
import { type SoakInstance, startSoakInstance } from './instances.js';
import { CHANNEL_ID, PROBE_CHANNEL_ID, PROBE_WEBHOOKS } from './world.js';

export type TargetName = 'memory' | 'sqlite' | 'postgres';
export type FaultKind = 'kill' | 'postgres' | 'redis';

export interface Target {
  instances: SoakInstance[];
  /** Paths of the load's webhooks; the first is the one posted to far over 60 a minute. */
  paths: string[];
  /** Paths of the recovery probes' webhooks, in a channel of their own. */
  probePaths: string[];
  /** The faults this target can suffer, in the order a default schedule cycles through them. */
  faults: FaultKind[];
  /** Brings the fault about, keeps it for `downMs`, then undoes it. */
  inject(kind: FaultKind, downMs: number): Promise<void>;
  /** Every message stored in the load's channel. */
  readMessages(): Promise<Message[]>;
  stop(): Promise<void>;
}

/** The instance a `kill` fault kills; instance 0 lives through the whole run, and its memory is the trend. */
const KILLED = 1;
const INSTANCE_SCRIPT = fileURLToPath(new URL('./instance.js', import.meta.url));

export async function startTarget(name: TargetName, webhooks: number): Promise<Target> {
  const dir = await mkdtemp(join(tmpdir(), 'channel-webhooks-soak-'));
  try {
    if (name === 'memory') return await memoryTarget(dir, webhooks);
    if (name === 'sqlite') return await sqliteTarget(dir, webhooks);
    return await postgresTarget(dir, webhooks);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function seed(
  store: WebhookStore & { putChannel(channel: Channel): unknown },
  webhooks: number,
): Promise<{ paths: string[]; probePaths: string[] }> {
  const manager = createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
  const owner = { userId: 'soak', role: 'owner' } as const;
  for (const channelId of [CHANNEL_ID, PROBE_CHANNEL_ID])
    await store.putChannel({ id: channelId, ownerId: 'soak', archived: false });
  const create = async (channelId: string, count: number) => {
    const paths: string[] = [];
    for (let i = 0; i < count; i++)
      paths.push(new URL((await manager.create(owner, { channelId, name: `soak ${i}` })).url).pathname);
    return paths;
  };
  return { paths: await create(CHANNEL_ID, webhooks), probePaths: await create(PROBE_CHANNEL_ID, PROBE_WEBHOOKS) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function restart(instance: SoakInstance, downMs: number): Promise<void> {
  await instance.kill();
  await pause(downMs);
  await instance.start();
}

async function memoryTarget(dir: string, webhooks: number): Promise<Target> {
  const messagesFile = join(dir, 'messages.ndjson');
  await writeFile(messagesFile, '');
  const instance = await startSoakInstance(INSTANCE_SCRIPT, await freePort(), {
    SOAK_MESSAGES_FILE: messagesFile,
    SOAK_WEBHOOKS: String(webhooks),
  });
  const urls = (instance.ready.seeded ?? []).map((url) => new URL(url).pathname);
  return {
    instances: [instance],
    paths: urls.slice(0, webhooks),
    probePaths: urls.slice(webhooks),
    // Its data lives in the process: killed, it would lose what it answered 201 by design.
    faults: [],
    inject: async () => {},
    readMessages: async () =>
      (await readFile(messagesFile, 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Message)
        .filter((message) => message.channelId === CHANNEL_ID),
    stop: async () => {
      await instance.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function sqliteTarget(dir: string, webhooks: number): Promise<Target> {
  const file = join(dir, 'soak.sqlite');
  const database = new Database(file);
  const world = await seed(createSqliteStore({ database }), webhooks);
  database.close();
  const instances: SoakInstance[] = [];
  for (let i = 0; i < 2; i++)
    instances.push(
      await startSoakInstance(INSTANCE_SCRIPT, await freePort(), {
        SOAK_SQLITE_FILE: file,
        SOAK_GROUP_COMMIT: process.env.SOAK_GROUP_COMMIT ?? 'on',
      }),
    );
  return {
    instances,
    ...world,
    faults: ['kill'],
    inject: (_kind, downMs) => restart(instances[KILLED]!, downMs),
    readMessages: async () => {
      const reader = new Database(file, { readonly: true });
      try {
        return await createSqliteStore({ database: reader, migrate: false }).listMessages(CHANNEL_ID);
      } finally {
        reader.close();
      }
    },
    stop: async () => {
      await Promise.all(instances.map((instance) => instance.stop()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgresTarget(dir: string, webhooks: number): Promise<Target> {
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const stopServers = () => Promise.all([postgres.destroy(), redis.destroy()]);
  try {
    const withStore = async <T>(use: (store: ReturnType<typeof createPostgresStore>) => Promise<T>): Promise<T> => {
      const pool = new pg.Pool({ connectionString: postgres.url });
      try {
        return await use(createPostgresStore({ pool }));
      } finally {
        await pool.end();
      }
    };
    const world = await withStore(async (store) => {
      await store.migrate();
      return seed(store, webhooks);
    });
    const env = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, ADMIN_TOKEN: 'soak', BASE_URL: 'http://127.0.0.1' };
    const instances: SoakInstance[] = [];
    for (let i = 0; i < 2; i++)
      instances.push(await startSoakInstance('examples/multi-instance/server.js', await freePort(), env));
    return {
      instances,
      ...world,
      faults: ['postgres', 'redis', 'kill'],
      inject: async (kind, downMs) => {
        if (kind === 'kill') return restart(instances[KILLED]!, downMs);
        const server = kind === 'postgres' ? postgres : redis;
        await server.stop();
        await pause(downMs);
        await server.start();
      },
      readMessages: () => withStore((store) => store.listMessages(CHANNEL_ID)),
      stop: async () => {
        await Promise.all(instances.map((instance) => instance.stop()));
        await stopServers();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopServers();
    throw error;
  }
}
