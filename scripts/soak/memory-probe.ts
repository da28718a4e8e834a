// Preloaded into every instance (`node --expose-gc --import memory-probe.js`): answers the soak's
// "sample" message over the IPC channel with the process's heap and RSS after a full collection, so
// a sample shows what the process holds, not what its collector has yet to free. Preloading keeps the
// instances themselves (examples/multi-instance among them) free of soak code.
export {};

const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (message) => {
  if (message !== 'sample') return;
  gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  process.send?.({ heapUsed, rss });
});
// The channel must not keep an instance alive once its server has closed.
process.channel?.unref();
