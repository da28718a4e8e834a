// Soak test: drives mixed valid and invalid traffic at an Express app on loopback for a bounded
// time and reports throughput, answers by status, and memory over time.
//
//   npm run soak                      # 10 minutes
//   SOAK_SECONDS=120 npm run soak     # 2 minutes
//   SOAK_CONCURRENCY=32 SOAK_WEBHOOKS=2000 npm run soak
//
// The store keeps the idempotency keys of the newest 10,000 messages and no message (a real database
// would grow on disk, not in this process), so memory that keeps climbing once warm is the
// library's, not the data's.
import express from 'express';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExpressMiddleware } from '../adapters/frameworks/express/index.js';
import { createMemoryRateLimiter, createMemoryStore, createWebhookHandler, createWebhookManager, type Message, type WebhookStore } from '../src/index.js';

const seconds = Number(process.env.SOAK_SECONDS ?? 600);
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 16);
const webhookCount = Number(process.env.SOAK_WEBHOOKS ?? 1000);
const sampleEvery = Number(process.env.SOAK_SAMPLE_SECONDS ?? Math.max(5, Math.round(seconds / 20)));
const KEPT = 10_000;

/**
 * A memory store that forgets all but the newest keys and keeps no messages, and counts what it
 * created. Its insert is guarded like any store's: the webhook must be active under the secret hash
 * the post matched, in a channel that exists and is not archived.
 */
function boundedStore(): { store: WebhookStore; created: () => number; seed: ReturnType<typeof createMemoryStore> } {
  const seed = createMemoryStore();
  const byKey = new Map<string, Message>();
  let created = 0;
  const store: WebhookStore = {
    ...seed,
    insertMessage({ message, idempotencyKey, secretHash }) {
      const webhook = seed.getWebhook(message.author.id);
      if (webhook === null || webhook.revokedAt !== null || webhook.secretHash !== secretHash) return { outcome: 'webhook_inactive' };
      const channel = seed.getChannel(webhook.channelId);
      if (channel === null) return { outcome: 'channel_not_found' };
      if (channel.archived) return { outcome: 'channel_archived' };
      const scoped = idempotencyKey === null ? null : `${webhook.id}\n${idempotencyKey}`;
      const earlier = scoped === null ? undefined : byKey.get(scoped);
      if (earlier !== undefined) return { outcome: 'duplicate', message: earlier };
      created++;
      if (scoped !== null) {
        byKey.set(scoped, message);
        if (byKey.size > KEPT) byKey.delete(byKey.keys().next().value!);
      }
      return { outcome: 'created', message };
    },
  };
  return { store, created: () => created, seed };
}

async function main(): Promise<void> {
  const { store, created, seed } = boundedStore();
  const owner = { userId: 'soak', role: 'owner' } as const;
  await seed.putChannel({ id: 'soak', ownerId: 'soak', archived: false });
  const manager = createWebhookManager({ store: seed, baseUrl: 'http://127.0.0.1' });
  const paths: string[] = [];
  for (let i = 0; i < webhookCount; i++) paths.push(new URL((await manager.create(owner, { channelId: 'soak', name: `hook ${i}` })).url).pathname);
  const errors = new Map<string, number>();
  const handle = createWebhookHandler({
    store,
    rateLimiter: createMemoryRateLimiter(),
    onError: (_error, context) => errors.set(context.stage, (errors.get(context.stage) ?? 0) + 1),
  });
  const app = express();
  app.use(createExpressMiddleware(handle));
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

  const big = JSON.stringify({ text: 'x'.repeat(70_000) });
  let sequence = 0;
  /** One request of the mix: mostly valid posts (some retried keys), then every kind of refusal. */
  const next = (): { method: string; path: string; headers: Record<string, string>; body: string } => {
    const n = sequence++;
    const path = paths[n % paths.length]!;
    const json = { 'content-type': 'application/json' };
    switch (n % 20) {
      case 0:
        return { method: 'POST', path: path.replace(/[^/]$/, (c) => (c === 'A' ? 'B' : 'A')), headers: json, body: '{"text":"wrong secret"}' };
      case 1:
        return { method: 'GET', path, headers: {}, body: '' };
      case 2:
        return { method: 'POST', path, headers: { 'content-type': 'text/plain' }, body: 'plain' };
      case 3:
        return { method: 'POST', path, headers: json, body: '{"text":' };
      case 4:
        return { method: 'POST', path, headers: json, body: '{"text":"x","unknown":true}' };
      case 5:
        return { method: 'POST', path, headers: json, body: big };
      case 6:
      case 7:
        // A send and its retry, to the same webhook with the same key: a 201, then a 200.
        return {
          method: 'POST',
          path: paths[(n - (n % 20)) % paths.length]!,
          headers: { ...json, 'idempotency-key': `retry-${Math.floor(n / 20)}` },
          body: '{"text":"retried"}',
        };
      default:
        return {
          method: 'POST',
          path,
          headers: { ...json, 'idempotency-key': `evt-${n}` },
          body: JSON.stringify({ text: `event ${n}`, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `*event* ${n}` } }] }),
        };
    }
  };

  const statuses = new Map<number, number>();
  let done = 0;
  let failures = 0;
  const send = () =>
    new Promise<void>((resolve) => {
      const { method, path, headers, body } = next();
      const req = request({ host: '127.0.0.1', port, method, path, agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => {
          statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
          done++;
          resolve();
        });
      });
      req.on('error', () => {
        failures++;
        resolve();
      });
      req.end(body);
    });

  const gc = (globalThis as { gc?: () => void }).gc;
  const memory = () => {
    gc?.();
    const usage = process.memoryUsage();
    return { heapMiB: usage.heapUsed / 2 ** 20, rssMiB: usage.rss / 2 ** 20 };
  };
  const started = performance.now();
  const endAt = started + seconds * 1_000;
  const samples: { at: number; requests: number; perSecond: number; heapMiB: number; rssMiB: number }[] = [];
  let lastDone = 0;
  let lastAt = started;
  const report = () => {
    const now = performance.now();
    const sample = {
      at: Math.round((now - started) / 1_000),
      requests: done,
      perSecond: Math.round(((done - lastDone) * 1_000) / (now - lastAt)),
      ...memory(),
    };
    samples.push(sample);
    lastDone = done;
    lastAt = now;
    console.log(
      `${String(sample.at).padStart(5)} s  ${String(sample.requests).padStart(9)} req  ${String(sample.perSecond).padStart(6)} req/s  heap ${sample.heapMiB.toFixed(1).padStart(6)} MiB  rss ${sample.rssMiB.toFixed(1).padStart(6)} MiB`,
    );
  };
  console.log(`soak: ${seconds} s, ${concurrency} connections, ${webhookCount} webhooks, gc ${gc ? 'exposed' : 'not exposed'}`);
  report();
  const timer = setInterval(report, sampleEvery * 1_000);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < endAt) await send();
    }),
  );
  clearInterval(timer);
  report();
  agent.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));

  const elapsed = (performance.now() - started) / 1_000;
  const warm = samples[Math.min(2, samples.length - 1)]!;
  const last = samples[samples.length - 1]!;
  const successes = statuses.get(201) ?? 0;
  console.log('');
  console.log(`requests:   ${done} in ${elapsed.toFixed(1)} s = ${Math.round(done / elapsed)} req/s; client errors ${failures}`);
  console.log(
    `statuses:   ${[...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ')}`,
  );
  console.log(`onError:    ${errors.size === 0 ? 'none' : [...errors].map(([stage, count]) => `${stage}: ${count}`).join(', ')}`);
  console.log(`stored:     ${created()} messages for ${successes} answers 201`);
  console.log(
    `memory:     heap ${samples[0]!.heapMiB.toFixed(1)} MiB at start, ${warm.heapMiB.toFixed(1)} MiB warm (${warm.at} s), ${last.heapMiB.toFixed(1)} MiB at end; rss ${samples[0]!.rssMiB.toFixed(1)} -> ${last.rssMiB.toFixed(1)} MiB`,
  );
  const unsound = failures > 0 || (statuses.get(500) ?? 0) > 0 || created() !== successes;
  if (unsound) {
    console.log('soak: FAILED (client errors, 500 answers, or stored messages that do not match the 201s)');
    process.exitCode = 1;
  }
}

await main();
