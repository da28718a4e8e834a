// The memory store with many webhooks stored: is a post's cost set by how many are stored or by how
// many post? `node --max-old-space-size=6144 bench/scale/working-set.mjs [webhooks] [active] [--warm]`
// (after `npx tsup`): posts go to `active` webhooks spread over the `webhooks` stored; prints CPU per post and the
// garbage collector's time per 1,000 posts by kind. ~1 GB and ~30 s for a million webhooks.
// Without `--warm`, a run of a few seconds over a million webhooks is mostly each one's first post
// (the limiter's map and the store's lazily made state still growing); with it, each active webhook
// posts once first, in order, as in a world where every one of them posted within the window.

import { PerformanceObserver, constants } from 'node:perf_hooks';
import { createMemoryRateLimiter, createMemoryStore, createWebhookHandler } from 'channel-webhooks';
import { SMALL } from '../payloads.mjs';
import { SMOKE, bundleHashSecret } from '../internal.mjs';
import { drive, round } from './drive.mjs';
import { fillMemoryStore, webhookPath } from './world.mjs';

const [storedArgument, activeArgument] = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const stored = Number(storedArgument ?? 1_000_000);
const active = Number(activeArgument ?? stored);
const warm = process.argv.includes('--warm');
/** @type {Pick<typeof import('../../src/secret/secret.js'), 'hashSecret'>} */
const { hashSecret } = await import(await bundleHashSecret());
const store = createMemoryStore();
fillMemoryStore(store, stored, hashSecret);
const handle = createWebhookHandler({ store, rateLimiter: createMemoryRateLimiter({ limit: 1_000_000 }) });
const body = new TextEncoder().encode(SMALL);
const headers = { 'content-type': 'application/json', 'content-length': String(body.byteLength) };
// The active webhooks are spread evenly over the stored ones, so they are not neighbours in memory.
// Each post's path is made as it is sent, as a server reads a fresh URL off each request (and as
// world-server.mjs does): a table of a million paths made beforehand would add a read of memory no
// cache holds to every post of the large world only.
/** @param {number} i */
const pathOf = (i) => webhookPath(Math.floor((i * stored) / active));
const post = async () =>
  (await handle({ method: 'POST', url: pathOf(Math.floor(Math.random() * active)), headers, body: async () => body }))
    .status;

if (warm)
  for (let i = 0; i < active; i++) await handle({ method: 'POST', url: pathOf(i), headers, body: async () => body });
await drive(post, { seconds: SMOKE ? 0.1 : 1, concurrency: 32 });
/** @type {Record<number, string>} */
const kinds = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
};
/** @type {Record<string, number>} */
const gc = {};
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { detail } = /** @type {{ detail: import('node:perf_hooks').NodeGCPerformanceDetail }} */ (
      /** @type {unknown} */ (entry)
    );
    const kind = kinds[detail.kind] ?? 'other';
    gc[kind] = (gc[kind] ?? 0) + entry.duration;
  }
});
observer.observe({ entryTypes: ['gc'] });
const run = await drive(post, { seconds: SMOKE ? 0.2 : 4, concurrency: 32 });
await new Promise((resolve) => setTimeout(resolve, 100));
observer.disconnect();
const perThousand = Object.fromEntries(Object.entries(gc).map(([kind, ms]) => [kind, round((ms / run.posts) * 1000)]));
console.log(
  JSON.stringify({
    stored,
    active,
    warm,
    postsPerSecond: run.perSecond,
    cpuUsPerPost: run.cpuUsPerPost,
    gcMsPer1000Posts: perThousand,
  }),
);
