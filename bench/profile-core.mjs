// Profiles the in-process core posting small (or, with `large`, 60 KiB) messages:
//   npm run build && node --cpu-prof --cpu-prof-dir=bench/.tmp bench/profile-core.mjs [small|large]
//   node bench/top-functions.mjs bench/.tmp/<profile>.cpuprofile
import { makeWebhooks, postLoop } from './core-loop.mjs';
import { PAYLOADS } from './payloads.mjs';

const kind = process.argv[2] ?? 'small';
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const webhooks = await makeWebhooks();
const { postsPerSecond, postsPerCpuSecond, failures } = await postLoop(webhooks, PAYLOADS[kind], seconds);
console.log(`${kind}: ${Math.round(postsPerSecond)} posts/s (${Math.round(postsPerCpuSecond)} per CPU-second), ${failures} failures`);
