import { createMemoryStore, createWebhookHandler, createWebhookManager } from 'channel-webhooks';

export const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 10_000);

/** Webhooks made once by the manager; each round copies them into a fresh store. */
export async function makeWebhooks() {
  const store = createMemoryStore();
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
  const records = [];
  const paths = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    const { webhook, url } = await manager.create({ userId: 'u1', role: 'owner' }, { channelId: 'general', name: `bench ${i}` });
    records.push(await store.getWebhook(webhook.id));
    paths.push(new URL(url).pathname);
  }
  return { records, paths };
}

/**
 * Posts `body` for `seconds`, each post to the next webhook, through a fresh store, limiter and
 * handler (so that stored messages do not pile up across rounds). Returns posts per second of
 * wall time and per second of this process's CPU time (which other work on a shared machine does
 * not inflate); any non-2xx answer is counted as a failure. `options.wrap` wraps the handler (the
 * instrumentation part), `options.rateLimiter` replaces the default limiter.
 */
export async function postLoop({ records, paths }, body, seconds, options = {}) {
  const store = createMemoryStore();
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  for (const record of records) await store.insertWebhook(record);
  const handler = createWebhookHandler({ store, rateLimiter: options.rateLimiter });
  const handle = options.wrap ? options.wrap(handler) : handler;
  const bytes = new TextEncoder().encode(body);
  const headers = { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) };
  const read = async () => bytes;
  let ok = 0;
  let failures = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const deadline = start + seconds * 1000;
  for (let i = 0; ; i++) {
    if ((i & 255) === 0 && performance.now() >= deadline) break;
    const res = await handle({ method: 'POST', url: paths[i % paths.length], headers, body: read });
    if (res.status === 201) ok++;
    else failures++;
  }
  const elapsed = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { postsPerSecond: ok / elapsed, postsPerCpuSecond: (ok * 1e6) / (used.user + used.system), failures };
}
