// Posts per second through the handler inside Deno, in process: the memory store and limiter
// against the Deno KV store and limiter on a local KV file, with one post and with 32 posts in
// flight, and the bytes each accepted post commits. Run after `npm run build`, with the Deno of the
// runtime install (`npm run runtimes:install`):
//   test/runtimes/node_modules/@deno/linux-x64-glibc/deno run --unstable-kv -A bench/deno-kv.mjs
// Every post is a new message without a key to one webhook, on a clock that moves two seconds a post,
// so that the limiter holds about half a window's worth of times and allows every post.
// BENCH_SMOKE=1: one round of a moment (the tests' smoke run).
/**
 * @import { DenoKv } from '../dist/deno-kv.js'
 * @import { RateLimiter, WebhookStore } from '../dist/index.js'
 */
import {
  createFakeClock,
  createMemoryRateLimiter,
  createMemoryStore,
  createWebhookHandler,
  createWebhookManager,
} from '../dist/index.js';
import { createDenoKvRateLimiter, createDenoKvStore } from '../dist/deno-kv.js';

/**
 * What this file uses of Deno's API, which it runs in (Node's types do not describe it).
 * @typedef {{
 *   version: { deno: string };
 *   env: { get(name: string): string | undefined };
 *   makeTempDir(options: { prefix: string }): Promise<string>;
 *   openKv(path: string): Promise<DenoKv & { close(): void }>;
 *   remove(path: string, options: { recursive: boolean }): Promise<void>;
 * }} DenoApi
 */
const Deno = /** @type {{ Deno: DenoApi }} */ (/** @type {unknown} */ (globalThis)).Deno;

const SMOKE = Deno.env.get('BENCH_SMOKE') === '1';
const ROUNDS = SMOKE ? 1 : 3;
const SECONDS = SMOKE ? 0.2 : 2;
const dir = await Deno.makeTempDir({ prefix: 'cw-bench-kv-' });

/**
 * A handler on `store` and `rateLimiter` with one webhook: a function posting one message.
 * @param {WebhookStore & { putChannel: ReturnType<typeof createMemoryStore>['putChannel'] }} store
 * @param {RateLimiter} rateLimiter
 */
async function poster(store, rateLimiter) {
  const clock = createFakeClock();
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const { url } = await createWebhookManager({ store, baseUrl: 'https://chat.example.com', clock }).create(
    { userId: 'u1', role: 'member' },
    { channelId: 'general', name: 'CI' },
  );
  const handle = createWebhookHandler({ store, rateLimiter, clock });
  return async () => {
    clock.advance(2_000);
    const { status } = await handle({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      body: '{"text":"Deploy 42 finished"}',
    });
    if (status !== 201) throw new Error(`a post was answered ${status}`);
  };
}

/**
 * Posts per second with `inFlight` posts at a time, for SECONDS.
 * @param {() => Promise<void>} post
 * @param {number} inFlight
 */
async function rate(post, inFlight) {
  let done = 0;
  const until = performance.now() + SECONDS * 1_000;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        await post();
        done++;
      }
    }),
  );
  return done / SECONDS;
}

/**
 * The bytes of keys and values an accepted post commits, through a KV that counts them.
 * @param {DenoKv} kv
 */
async function bytesPerPost(kv) {
  let bytes = 0;
  /** @param {unknown} value */
  const size = (value) =>
    value instanceof Uint8Array ? value.length : new TextEncoder().encode(JSON.stringify(value ?? null)).length;
  /** @type {DenoKv} */
  const counting = {
    get: (...args) => kv.get(...args),
    getMany: (...args) => kv.getMany(...args),
    list: (...args) => kv.list(...args),
    watch: (...args) => kv.watch(...args),
    commitVersionstamp: () => kv.commitVersionstamp(),
    atomic() {
      const operation = kv.atomic();
      const set = operation.set.bind(operation);
      operation.set = (key, value, options) => {
        bytes +=
          key.reduce(
            (/** @type {number} */ sum, part) =>
              sum + (typeof part === 'string' ? part.length : typeof part === 'symbol' ? 10 : 8),
            0,
          ) + size(value);
        return set(key, value, options);
      };
      return operation;
    },
  };
  const post = await poster(createDenoKvStore({ kv: counting }), createDenoKvRateLimiter({ kv: counting }));
  await post();
  bytes = 0;
  await post();
  return bytes;
}

const results = [];
for (const inFlight of [1, 32]) {
  for (let round = 0; round < ROUNDS; round++) {
    const memory = await rate(await poster(createMemoryStore(), createMemoryRateLimiter()), inFlight);
    const kv = await Deno.openKv(`${dir}/one-${inFlight}-${round}.kv`);
    const onKv = await rate(await poster(createDenoKvStore({ kv }), createDenoKvRateLimiter({ kv })), inFlight);
    kv.close();
    results.push({
      inFlight,
      round,
      memory: Math.round(memory),
      denoKv: Math.round(onKv),
      ratio: +(onKv / memory).toFixed(3),
    });
  }
}
const kv = await Deno.openKv(`${dir}/bytes.kv`);
const bytes = await bytesPerPost(kv);
kv.close();
console.log(JSON.stringify({ deno: Deno.version.deno, results, bytesPerAcceptedPost: bytes }, null, 2));
await Deno.remove(dir, { recursive: true });
