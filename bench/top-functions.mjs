// Prints the functions with the most self time in a V8 .cpuprofile (from `node --cpu-prof`):
//   node bench/top-functions.mjs <file.cpuprofile> [count]
import { readFileSync } from 'node:fs';

const [file, count = '25'] = process.argv.slice(2);
if (file === undefined) throw new Error('node bench/top-functions.mjs <file.cpuprofile> [count]');
/** @type {import('node:inspector').Profiler.Profile} */
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
/** @type {Map<number, number>} */
const hits = new Map();
// Samples are spaced by timeDeltas; weigh each by the time it stands for.
for (const [i, id] of (profile.samples ?? []).entries())
  hits.set(id, (hits.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0));

/** @type {Map<string, number>} */
const self = new Map();
let total = 0;
for (const [id, micros] of hits) {
  const node = byId.get(id);
  if (node === undefined) throw new Error(`${file}: a sample of node ${id}, which is not in the profile`);
  const { callFrame } = node;
  const where = callFrame.url
    ? `${callFrame.url.replace(/^.*\/(node_modules|dist|bench|src)\//, '$1/')}:${callFrame.lineNumber + 1}:${callFrame.columnNumber + 1}`
    : '';
  const key = `${callFrame.functionName || '(anonymous)'} ${where}`.trim();
  self.set(key, (self.get(key) ?? 0) + micros);
  total += micros;
}
const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(count));
console.log(`total ${(total / 1000).toFixed(0)} ms sampled`);
for (const [key, micros] of rows)
  console.log(
    `${((100 * micros) / total).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${key}`,
  );
