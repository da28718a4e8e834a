import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  createSqliteRateLimiter,
  createSqliteStore,
  SQLITE_SCHEMA_VERSION,
} from '../../../../adapters/stores/sqlite/index.js';
import {
  createFakeClock,
  createMemoryRateLimiter,
  createWebhookHandler,
  type Message,
  type PostRecord,
} from '../../../../src/index.js';
import { generateSecret, generateWebhookId, hashSecret } from '../../../../src/secret/secret.js';

// A file made and filled by each schema the SQLite store shipped, then upgraded in place by today's
// migration (at start-up): what its senders and readers had must still work. The fixtures are those
// releases' steps and records, copied from the package's history (test/fixtures/schemas/sqlite/).

const DAY = Date.UTC(2026, 10, 20);
const SHIPPED = [
  { fixture: 'v1', versions: [1] },
  { fixture: 'v2', versions: [1, 2] },
  { fixture: 'v4-before-3', versions: [1, 2, 4] },
  { fixture: 'v4', versions: [1, 2, 3, 4] },
  { fixture: 'v6', versions: [1, 2, 3, 4, 5, 6] },
] as const;

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/schemas/sqlite/${name}.sql`, import.meta.url), 'utf8');

interface OldWorld {
  channelId: string;
  active: { id: string; secret: string };
  rotated: { id: string; oldSecret: string; newSecret: string };
  revoked: { id: string; secret: string };
  messages: Message[];
  keyed: Array<{ webhookId: string; key: string; message: Message }>;
  history: PostRecord[];
}

/** Rows as the code of a release with `versions` wrote them: its columns only, JSON text where it kept JSON. */
function fillAsRelease(database: Database.Database, versions: readonly number[]): OldWorld {
  const channelId = `c-${randomUUID()}`;
  database
    .prepare(`INSERT INTO channel_webhooks_channels (id, owner_id, archived) VALUES (?, 'u-owner', 0)`)
    .run(channelId);
  const active = { id: generateWebhookId(), secret: generateSecret() };
  const rotated = { id: generateWebhookId(), oldSecret: generateSecret(), newSecret: generateSecret() };
  const revoked = { id: generateWebhookId(), secret: generateSecret() };
  const webhooks = [
    { id: active.id, name: 'Deploys', hash: hashSecret(active.secret), rotatedAt: null, revokedAt: null },
    { id: rotated.id, name: 'Alerts', hash: hashSecret(rotated.newSecret), rotatedAt: DAY + 5_000, revokedAt: null },
    { id: revoked.id, name: 'Old CI', hash: hashSecret(revoked.secret), rotatedAt: null, revokedAt: DAY + 6_000 },
  ];
  for (const [i, webhook] of webhooks.entries()) {
    const columns = [
      'id',
      'channel_id',
      'name',
      'secret_hash',
      'created_by',
      'created_at',
      'rotated_at',
      'revoked_at',
      'last_post_at',
    ];
    const values: unknown[] = [
      webhook.id,
      channelId,
      webhook.name,
      webhook.hash,
      'u-owner',
      DAY + i,
      webhook.rotatedAt,
      webhook.revokedAt,
      DAY + 4_000,
    ];
    if (versions.includes(2) && webhook.id === active.id)
      columns.push('description'), values.push('Deploys of the API');
    database
      .prepare(
        `INSERT INTO channel_webhooks_webhooks (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      )
      .run(...values);
  }
  const sent = [
    { webhookId: active.id, name: 'Deploys', text: 'deploy #1', key: 'deploy-1' },
    { webhookId: active.id, name: 'Deploys', text: 'deploy #2', key: null },
    { webhookId: rotated.id, name: 'Alerts', text: 'disk at 91%', key: 'alert-1' },
    { webhookId: active.id, name: 'Deploys', text: 'deploy #3', key: 'deploy-3' },
    { webhookId: revoked.id, name: 'Old CI', text: 'build green', key: 'build-7' },
  ];
  const messages: Message[] = [];
  const keyed: OldWorld['keyed'] = [];
  for (const [i, one] of sent.entries()) {
    const message: Message = {
      id: randomUUID(),
      channelId,
      body: one.text,
      blocks: [],
      author: { type: 'webhook', id: one.webhookId, name: one.name },
      createdAt: new Date(DAY + 1_000 + i).toISOString(),
    };
    database
      .prepare(
        `INSERT INTO channel_webhooks_messages (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key)
         VALUES (?, ?, ?, ?, ?, '[]', ?, ?)`,
      )
      .run(
        message.id,
        channelId,
        one.webhookId,
        one.name,
        JSON.stringify(one.text),
        message.createdAt,
        one.key === null ? null : JSON.stringify(one.key),
      );
    messages.push(message);
    if (one.key !== null) keyed.push({ webhookId: one.webhookId, key: one.key, message });
  }
  const history: PostRecord[] = [];
  if (versions.includes(4)) {
    const records: PostRecord[] = [
      {
        webhookId: active.id,
        at: DAY + 1_000,
        status: 201,
        code: null,
        errors: [],
        idempotencyKey: 'deploy-1',
        messageId: messages[0]!.id,
        bodyBytes: 21,
        count: 1,
      },
      {
        webhookId: active.id,
        at: DAY + 1_500,
        status: 400,
        code: 'invalid_payload',
        errors: [{ pointer: '/text', message: 'must be a string' }],
        idempotencyKey: null,
        messageId: null,
        bodyBytes: 10,
        count: 1,
      },
    ];
    for (const [position, record] of records.entries()) {
      database
        .prepare(
          `INSERT INTO channel_webhooks_posts (webhook_id, slot, position, at, status, code, errors, idempotency_key, message_id, body_bytes, count)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          record.webhookId,
          position,
          position,
          record.at,
          record.status,
          record.code,
          JSON.stringify(record.errors),
          record.idempotencyKey === null ? null : JSON.stringify(record.idempotencyKey),
          record.messageId,
          record.bodyBytes,
          record.count,
        );
    }
    database.prepare('INSERT INTO channel_webhooks_post_heads (webhook_id, next) VALUES (?, 2)').run(active.id);
    history.push(...records.reverse());
  }
  if (versions.includes(5)) {
    // A record still in the post log, not yet folded into the ring.
    const logged: PostRecord = {
      webhookId: active.id,
      at: DAY + 3_000,
      status: 201,
      code: null,
      errors: [],
      idempotencyKey: 'deploy-3',
      messageId: messages[3]!.id,
      bodyBytes: 21,
      count: 1,
    };
    database
      .prepare(
        `INSERT INTO channel_webhooks_post_log (webhook_id, at, status, code, errors, idempotency_key, message_id, body_bytes, count)
         VALUES (?, ?, 201, NULL, '[]', ?, ?, 21, 1)`,
      )
      .run(active.id, logged.at, JSON.stringify(logged.idempotencyKey), logged.messageId);
    history.unshift(logged);
  }
  // The limiter's window in flight: the active webhook has used its 60 of the minute.
  const hits = versions.includes(6) ? 'rate_log' : 'rate_hits';
  const hit = database.prepare(`INSERT INTO channel_webhooks_${hits} (key, expires_at, tag) VALUES (?, ?, ?)`);
  for (let i = 0; i < 60; i++) hit.run(active.id, DAY + 9_000 + i + 60_000, i);
  return { channelId, active, rotated, revoked, messages, keyed, history };
}

/** Every column and index of the store's tables, and the versions recorded. */
function shape(database: Database.Database) {
  const tables = database
    .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'channel_webhooks_%' ORDER BY name`)
    .all() as Array<{ name: string }>;
  return {
    columns: tables.map(({ name }) => [name, database.prepare(`SELECT * FROM pragma_table_info(?)`).all(name)]),
    indexes: database
      .prepare(
        `SELECT name, tbl_name, sql FROM sqlite_schema WHERE type = 'index' AND name LIKE 'channel_webhooks_%' ORDER BY name`,
      )
      .all(),
    versions: database.prepare('SELECT version FROM channel_webhooks_migrations ORDER BY version').pluck().all(),
  };
}

const current = () => {
  const database = new Database(':memory:');
  createSqliteStore({ database });
  return shape(database);
};

async function expectStillServing(database: Database.Database, world: OldWorld) {
  const store = createSqliteStore({ database });
  const handle = createWebhookHandler({
    store,
    rateLimiter: createMemoryRateLimiter(),
    clock: createFakeClock(DAY + 10_000),
  });
  // The last posts' times the rows held, until a post writes a newer one.
  expect([store.getWebhook(world.active.id)?.lastPostAt, store.getWebhook(world.rotated.id)?.lastPostAt]).toEqual([
    DAY + 4_000,
    DAY + 4_000,
  ]);
  const post = (id: string, secret: string, text: string, key?: string) =>
    handle({
      method: 'POST',
      url: `/hooks/channels/${id}/${secret}`,
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
      body: JSON.stringify({ text }),
    });
  expect((await post(world.active.id, world.active.secret, 'after the upgrade', 'deploy-4')).status).toBe(201);
  for (const { webhookId, key, message } of world.keyed) {
    if (webhookId === world.revoked.id) continue;
    const secret = webhookId === world.active.id ? world.active.secret : world.rotated.newSecret;
    const repeat = await post(webhookId, secret, 'sent again', key);
    expect({ status: repeat.status, body: repeat.body }).toEqual({ status: 200, body: { message, duplicate: true } });
  }
  const refused = [
    await post(world.rotated.id, world.rotated.oldSecret, 'old secret'),
    await post(world.revoked.id, world.revoked.secret, 'revoked'),
  ];
  expect(refused.map((answer) => answer.status)).toEqual([404, 404]);
  expect(store.listWebhooks(world.channelId).map((webhook) => [webhook.id, webhook.lastPostAt])).toEqual([
    [world.active.id, DAY + 10_000],
    [world.rotated.id, DAY + 4_000],
    [world.revoked.id, DAY + 4_000],
  ]);

  const feed = store.readFeed({ channelId: world.channelId, limit: 100 });
  expect(feed.entries.map((entry) => entry.message).slice(0, world.messages.length)).toEqual(world.messages);
  expect(feed.entries.slice(world.messages.length).map((entry) => entry.message.body)).toEqual(['after the upgrade']);
  const later = store.readFeed({ channelId: world.channelId, after: feed.entries[1]!.cursor, limit: 100 });
  expect(later.entries.map((entry) => entry.message.id)).toEqual(
    feed.entries.slice(2).map((entry) => entry.message.id),
  );

  await expect.poll(() => store.listPosts(world.active.id, 100).length).toBe(3 + world.history.length);
  const history = store.listPosts(world.active.id, 100);
  expect(history.slice(0, 3).map((record) => [record.status, record.idempotencyKey])).toEqual([
    [200, 'deploy-3'],
    [200, 'deploy-1'],
    [201, 'deploy-4'],
  ]);
  expect(history.slice(3)).toEqual(world.history);
}

describe('SQLite upgrades from every shipped schema', () => {
  for (const { fixture: name, versions } of SHIPPED) {
    it(`a file made and filled at versions ${versions.join(', ')} is upgraded in place and serves as before`, async () => {
      const database = new Database(':memory:');
      database.exec(fixture(name));
      const world = fillAsRelease(database, versions);
      createSqliteStore({ database });
      expect(shape(database)).toEqual(current());
      await expectStillServing(database, world);
      expect(createSqliteRateLimiter({ database }).hit(world.active.id, DAY + 10_000)).toMatchObject({
        allowed: false,
        remaining: 0,
        resetMs: 59_000,
      });
    });
  }

  it('a file of a newer version is refused with schema_too_new before anything changes', () => {
    const database = new Database(':memory:');
    createSqliteStore({ database });
    database.prepare('INSERT INTO channel_webhooks_migrations (version) VALUES (?)').run(SQLITE_SCHEMA_VERSION + 1);
    const before = shape(database);
    expect(() => createSqliteStore({ database })).toThrow(
      expect.objectContaining({
        code: 'schema_too_new',
        message: `SQLite store: the tables of prefix 'channel_webhooks_' are at schema version ${SQLITE_SCHEMA_VERSION + 1}, newer than this release's ${SQLITE_SCHEMA_VERSION}: upgrade channel-webhooks`,
      }),
    );
    expect(shape(database)).toEqual(before);
  });

  it('migrate() again changes nothing', () => {
    const database = new Database(':memory:');
    database.exec(fixture('v1'));
    const store = createSqliteStore({ database });
    const before = shape(database);
    const changes = database.prepare('SELECT total_changes()').pluck();
    const written = changes.get();
    store.migrate();
    expect(changes.get()).toBe(written);
    expect(shape(database)).toEqual(before);
  });
});
