// The worker the Durable Object tests run in workerd (through miniflare): the package's object,
// store, limiter and router from source (the entry channel-webhooks/cloudflare), as wrangler would
// bundle them, with routes the tests drive.
import {
  ChannelWebhooksObject,
  createDurableObjectFetchHandler,
  createDurableObjectRateLimiter,
  createDurableObjectStore,
} from '../../../../../adapters/frameworks/cloudflare/index.js';
import type { DurableObjectNamespaceLike } from '../../../../../adapters/frameworks/cloudflare/index.js';
import { objectOf, SHARD_HEADER } from '../../../../../adapters/stores/cloudflare/object-calls.js';
import { objectMigrationsAfter } from '../../../../../adapters/stores/cloudflare/object-schema.js';
import { channelShard } from '../../../../../adapters/stores/cloudflare/shard.js';
import { createFetchHandler } from '../../../../../adapters/frameworks/fetch/index.js';
import { createWebhookHandler, createWebhookManager } from '../../../../../src/index.js';
import type { Channel, Message, WebhookRecord } from '../../../../../src/index.js';
import { runRateLimiterConformance, runStoreConformance } from '../../../../../src/testing/index.js';
import { runRegisteredTest, registerTests } from './harness.js';

interface Env {
  CHANNEL_WEBHOOKS: DurableObjectNamespaceLike;
}

const ACTOR = { userId: 'u-owner', role: 'owner' } as const;

/** The package's object, with faults a test asks for by a header on the post, and a table of what `onMessage` heard. */
export class TestObject extends ChannelWebhooksObject {
  override async fetch(request: Request): Promise<Response> {
    const { sql } = this.ctx.storage;
    switch (request.headers.get('x-test-fault')) {
      case 'stall':
        return new Promise<Response>(() => undefined);
      case 'throw':
        throw new Error('injected failure of the object');
      case 'fail-last-post-at':
        // A real failure of SQLite between the message's insert and the webhook's update.
        sql.exec(
          `CREATE TRIGGER IF NOT EXISTS fail_last_post_at BEFORE UPDATE OF last_post_at ON webhooks BEGIN SELECT RAISE(ABORT, 'injected: last_post_at'); END`,
        );
        break;
      case 'clear':
        sql.exec('DROP TRIGGER IF EXISTS fail_last_post_at');
        break;
      case 'delete-channel':
        sql.exec('DELETE FROM channels WHERE id = ?', request.headers.get('x-test-channel'));
        return Response.json({ deleted: true });
      case 'heard':
        sql.exec('CREATE TABLE IF NOT EXISTS heard (id TEXT)');
        return Response.json(
          sql
            .exec('SELECT id FROM heard')
            .toArray()
            .map((row) => row.id),
        );
      case 'storage': {
        // What the object keeps, read without the object's code: its tables, the schema versions it
        // applied, and its database's size.
        const tables = sql
          .exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
          .toArray()
          .map((row) => row.name);
        const versions = tables.includes('schema_migrations')
          ? sql
              .exec('SELECT version FROM schema_migrations ORDER BY version')
              .toArray()
              .map((row) => row.version)
          : [];
        return Response.json({
          tables,
          versions,
          databaseSize: (sql as unknown as { databaseSize: number }).databaseSize,
        });
      }
      case 'schema-v1': {
        // An object as the release of schema version 1 left it, with its channel and messages,
        // written before this release's code first runs in the object.
        const { channel, messages } = (await request.json()) as {
          channel: Channel;
          messages: Array<Message & { idempotencyKey: string | null }>;
        };
        const [v1] = objectMigrationsAfter(0);
        for (const statement of v1!.sql.split(/;\s*\n/)) if (statement.trim() !== '') sql.exec(statement);
        sql.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY)');
        sql.exec('INSERT INTO schema_migrations (version) VALUES (1)');
        sql.exec('INSERT INTO channels (id, owner_id, archived) VALUES (?, ?, 0)', channel.id, channel.ownerId);
        for (const message of messages) {
          sql.exec(
            'INSERT INTO messages (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
            message.id,
            message.channelId,
            message.author.id,
            message.author.name,
            JSON.stringify(message.body),
            JSON.stringify(message.blocks),
            message.createdAt,
            message.idempotencyKey === null ? null : JSON.stringify(message.idempotencyKey),
          );
        }
        return Response.json({ done: true });
      }
      case 'schema-from-the-future':
        sql.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)');
        sql.exec('INSERT OR IGNORE INTO schema_migrations (version) VALUES (999)');
        return Response.json({ done: true });
    }
    return super.fetch(request);
  }

  override onMessage(message: Message): void {
    this.ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS heard (id TEXT)');
    this.ctx.storage.sql.exec('INSERT INTO heard (id) VALUES (?)', message.id);
  }
}

/** Counts the calls made to objects through a namespace. */
function counting(namespace: DurableObjectNamespaceLike, counter: { calls: number }): DurableObjectNamespaceLike {
  return {
    idFromName: (name) => namespace.idFromName(name),
    get: (id) => {
      const stub = namespace.get(id);
      return {
        fetch: (request: Request) => {
          counter.calls++;
          return stub.fetch(request);
        },
      };
    },
  };
}

async function manage(env: Env, body: Record<string, unknown>, origin: string): Promise<Response> {
  try {
    return await operate(env, body, origin);
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    return Response.json({ code, message }, { status: 500 });
  }
}

/** Counts the calls of a store's watchFeed listener for `watchMs`, then for as long again after it stopped watching. */
async function countWatchCalls(store: ReturnType<typeof createDurableObjectStore>, watchMs: number) {
  let calls = 0;
  const stop = store.watchFeed(() => calls++);
  await new Promise((resolve) => setTimeout(resolve, watchMs));
  stop();
  const whileWatched = calls;
  await new Promise((resolve) => setTimeout(resolve, watchMs));
  return { whileWatched, afterStop: calls - whileWatched };
}

async function operate(env: Env, body: Record<string, unknown>, origin: string): Promise<Response> {
  const store = createDurableObjectStore({ namespace: env.CHANNEL_WEBHOOKS, feedPollMs: 200 });
  const manager = createWebhookManager({ store, baseUrl: origin });
  switch (body.op) {
    case 'putChannel':
      await store.putChannel(body.channel as { id: string; ownerId: string; archived: boolean });
      return Response.json({ ok: true });
    case 'create':
      return Response.json(
        await manager.create(ACTOR, { channelId: String(body.channelId), name: String(body.name ?? 'Demo') }),
      );
    case 'rotate':
      return Response.json(await manager.rotate(ACTOR, String(body.webhookId)));
    case 'revoke':
      return Response.json(await manager.revoke(ACTOR, String(body.webhookId)));
    case 'insertWebhook':
      await store.insertWebhook(body.webhook as WebhookRecord);
      return Response.json({ ok: true });
    case 'getWebhook':
      return Response.json(await store.getWebhook(String(body.webhookId)));
    case 'readFeed':
      return Response.json(await store.readFeed(body.options as { channelId?: string; after?: string; limit: number }));
    case 'watchFeed':
      return Response.json(await countWatchCalls(store, Number(body.ms)));
    case 'recordPosts':
      await store.recordPosts(body.records as Parameters<typeof store.recordPosts>[0]);
      return Response.json({ ok: true });
    case 'listPosts':
      return Response.json(await store.listPosts(String(body.webhookId), Number(body.limit)));
    case 'messages':
      return Response.json(await store.listMessages(String(body.channelId)));
    case 'insertMessage':
      return Response.json(await store.insertMessage(body.input as Parameters<typeof store.insertMessage>[0]));
    case 'prune': {
      // Through a namespace that counts the objects the prune called.
      const counter = { calls: 0 };
      const counted = createDurableObjectStore({ namespace: counting(env.CHANNEL_WEBHOOKS, counter) });
      const deleted = await counted.pruneMessages(body.before as number, body.options as { channelIds: string[] });
      return Response.json({ deleted, calls: counter.calls });
    }
    case 'schema-v1': {
      const shard = channelShard(String((body.channel as Channel).id));
      return objectOf(env.CHANNEL_WEBHOOKS, shard).fetch(
        new Request('https://test/object', {
          method: 'POST',
          headers: { [SHARD_HEADER]: shard, 'x-test-fault': 'schema-v1' },
          body: JSON.stringify({ channel: body.channel, messages: body.messages }),
        }),
      );
    }
    case 'heard': {
      const shard = channelShard(String(body.channelId));
      return objectOf(env.CHANNEL_WEBHOOKS, shard).fetch(
        new Request('https://test/heard', { headers: { [SHARD_HEADER]: shard, 'x-test-fault': 'heard' } }),
      );
    }
    case 'getChannel':
      return Response.json(await store.getChannel(String(body.channelId)));
    case 'listWebhooks':
      return Response.json(await store.listWebhooks(String(body.channelId)));
    case 'storage': {
      // The object of a shard, as the shard is (the five characters after `wh_` of a webhook id).
      const shard = String(body.shard);
      return objectOf(env.CHANNEL_WEBHOOKS, shard).fetch(
        new Request('https://test/storage', { headers: { 'x-test-fault': 'storage' } }),
      );
    }
    case 'object': {
      // A header for the object of a channel, outside of any post.
      const shard = channelShard(String(body.channelId));
      const headers = {
        [SHARD_HEADER]: shard,
        'x-test-fault': String(body.fault),
        'x-test-channel': String(body.channelId),
      };
      return objectOf(env.CHANNEL_WEBHOOKS, shard).fetch(new Request('https://test/object', { headers }));
    }
  }
  return Response.json({ error: `no op ${String(body.op)}` }, { status: 400 });
}

// The channels each store of the conformance suite put, which its prune reaches: an app prunes
// its own channels, since no object knows the others.
const channelsPut = new WeakMap<object, Set<string>>();

function suites(env: Env) {
  return registerTests(({ describe, it }) => {
    runStoreConformance({
      describe,
      it,
      name: 'Durable Object store conformance, in workerd',
      createStore: () => createDurableObjectStore({ namespace: env.CHANNEL_WEBHOOKS }),
      createPeer: () => createDurableObjectStore({ namespace: env.CHANNEL_WEBHOOKS }),
      deleteChannel: async (_store, channelId) => {
        const shard = channelShard(channelId);
        const headers = { [SHARD_HEADER]: shard, 'x-test-fault': 'delete-channel', 'x-test-channel': channelId };
        await objectOf(env.CHANNEL_WEBHOOKS, shard).fetch(new Request('https://test/object', { headers }));
      },
      putChannel: async (store, channel) => {
        if (!channelsPut.has(store)) channelsPut.set(store, new Set());
        channelsPut.get(store)!.add(channel.id);
        await store.putChannel(channel);
      },
      pruneMessages: async (store, before) => {
        const channelIds = [...(channelsPut.get(store) ?? [])];
        while ((await store.pruneMessages(before, { channelIds })) > 0);
      },
    });
    runRateLimiterConformance({
      describe,
      it,
      name: 'Durable Object rate limiter conformance, in workerd',
      createRateLimiter: ({ limit, windowMs }) =>
        createDurableObjectRateLimiter({ namespace: env.CHANNEL_WEBHOOKS, limit, windowMs }),
    });
  });
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/__conformance') {
      const tests = suites(env);
      if (request.method === 'GET') return Response.json(tests.map((test) => test.name));
      const { index } = (await request.json()) as { index: number };
      return Response.json(await runRegisteredTest(tests[index]!));
    }
    if (url.pathname === '/__manage') return manage(env, (await request.json()) as Record<string, unknown>, url.origin);
    const counter = { calls: 0 };
    const namespace = counting(env.CHANNEL_WEBHOOKS, counter);
    // Under /worker: the handler in the worker, over the store and limiter that call the objects.
    const serve = url.pathname.startsWith('/worker/')
      ? createFetchHandler(
          createWebhookHandler({
            store: createDurableObjectStore({ namespace }),
            rateLimiter: createDurableObjectRateLimiter({ namespace }),
          }),
        )
      : createDurableObjectFetchHandler({
          namespace,
          timeoutMs: Number(request.headers.get('x-test-timeout') ?? 20_000),
          onError: () => undefined,
        });
    const response = await serve(request);
    const answered = new Response(response.body, response);
    answered.headers.set('x-object-calls', String(counter.calls));
    return answered;
  },
};
