// Profiles the in-process core posting small (or, with `large`, 60 KiB) messages:
//   npm run build && node --cpu-prof --cpu-prof-dir=bench/.tmp bench/profile-core.mjs [small|large]
//   node bench/top-functions.mjs bench/.tmp/<profile>.cpuprofile
import { makeWebhooks, postLoop } from './core-loop.mjs';
import { SMOKE } from './internal.mjs';
import { PAYLOADS } from './payloads.mjs';

const kind = process.argv[2] ?? 'small';
if (kind !== 'small' && kind !== 'large') throw new Error(`a payload is small or large, not ${kind}`);
// Short enough that the default limit (60 a minute on each of 10,000 webhooks, 600,000 posts in
// all) never binds, so that the profile is of accepted posts and not of 429s.
const seconds = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 0.1 : 2));
const webhooks = await makeWebhooks();
const { postsPerSecond, postsPerCpuSecond, failures } = await postLoop(webhooks, PAYLOADS[kind], seconds);
console.log(
  `${kind}: ${Math.round(postsPerSecond)} posts/s (${Math.round(postsPerCpuSecond)} per CPU-second), ${failures} failures`,
);
