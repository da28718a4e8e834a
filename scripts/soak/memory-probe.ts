// Preloaded into every instance (`node --expose-gc --import memory-probe.js`): answers the soak's
// "sample" message over the IPC channel with the process's heap and RSS after a full collection, so
// a sample shows what the process holds, not what its collector has yet to free, and with the memory
// of V8's young generation: under load V8 grows it step by step to its cap (32 MiB of semi-spaces on
// 64-bit) and keeps it, which shows in RSS as steps that are reserve, not objects held. Preloading
// keeps the instances themselves (examples/multi-instance among them) free of soak code.
import { getHeapSpaceStatistics } from 'node:v8';

const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (message) => {
  if (message !== 'sample') return;
  gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  const young = getHeapSpaceStatistics()
    .filter((space) => space.space_name === 'new_space' || space.space_name === 'new_large_object_space')
    .reduce((sum, space) => sum + space.physical_space_size, 0);
  process.send?.({ heapUsed, rss, young });
});
// The channel must not keep an instance alive once its server has closed.
process.channel?.unref();
