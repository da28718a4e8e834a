// The ratio chart as SVG, by string templating: per A/B pair, a bar of the throughput ratio (the
// median of the per-round ratios, with a whisker from the lowest to the highest round) and a thin
// bar of the CPU-per-request ratio; a red tick at the pair's own target when it is not 0.90, and a
// line at 0.90; the pairs that measure the contract floor have no target and are drawn in slate.

/** @param {string | number} text */
const escapeXml = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * @param {import('./http.mjs').HttpPairResult[]} pairs
 * @param {{ title: string; subtitle: string; note: string; footer: string }} text
 */
export function ratioChart(pairs, { title, subtitle, note, footer }) {
  const width = 760;
  const left = 230;
  const right = 70;
  const top = 96;
  const rowHeight = 36;
  const plot = width - left - right;
  const max = Math.max(1.2, ...pairs.map((pair) => Math.max(pair.ratio.max, pair.cpuRatio.median) + 0.05));
  /** @param {number} value */
  const x = (value) => left + (plot * Math.min(value, max)) / max;
  const height = top + rowHeight * pairs.length + 64;

  const ticks = [];
  for (let t = 0; t <= max + 1e-9; t += 0.2) {
    const at = x(t).toFixed(1);
    ticks.push(`<line x1="${at}" y1="${top - 6}" x2="${at}" y2="${top + rowHeight * pairs.length}" stroke="#e5e7eb"/>`);
    ticks.push(
      `<text x="${at}" y="${top + rowHeight * pairs.length + 16}" text-anchor="middle" class="axis">${t.toFixed(1)}</text>`,
    );
  }
  const rows = pairs.map((pair, i) => {
    const y = top + i * rowHeight;
    // A pair without a target (the contract floor's) is drawn in slate.
    const color = pair.target === null ? '#64748b' : pair.ratio.median >= pair.target ? '#2f855a' : '#c05621';
    const whisker = `<line x1="${x(pair.ratio.min).toFixed(1)}" y1="${y + 11.5}" x2="${x(pair.ratio.max).toFixed(1)}" y2="${y + 11.5}" stroke="#1f2937" stroke-width="1.5"/>`;
    const targetTick =
      pair.target === 0.9 || pair.target === null
        ? ''
        : `<line x1="${x(pair.target).toFixed(1)}" y1="${y - 1}" x2="${x(pair.target).toFixed(1)}" y2="${y + 29}" stroke="#b91c1c" stroke-width="2"/>` +
          `<text x="${x(pair.target).toFixed(1)}" y="${y - 3}" text-anchor="middle" class="axis" style="fill:#b91c1c">${pair.target.toFixed(2)}</text>`;
    return [
      `<text x="${left - 10}" y="${y + 17}" text-anchor="end" class="label">${escapeXml(pair.label)}</text>`,
      `<rect x="${left}" y="${y + 3}" width="${(x(pair.ratio.median) - left).toFixed(1)}" height="17" fill="${color}" rx="2"/>`,
      `<rect x="${left}" y="${y + 22}" width="${(x(pair.cpuRatio.median) - left).toFixed(1)}" height="5" fill="#9ca3af"/>`,
      whisker,
      targetTick,
      `<text x="${(x(Math.max(pair.ratio.median, pair.ratio.max)) + 6).toFixed(1)}" y="${y + 17}" class="value">${pair.ratio.median.toFixed(2)}</text>`,
    ]
      .filter((part) => part !== '')
      .join('\n  ');
  });
  const line = x(0.9).toFixed(1);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif">
  <style>
    .title { font-size: 15px; font-weight: 600; fill: #111827; }
    .sub { font-size: 11.5px; fill: #4b5563; }
    .label { font-size: 12.5px; fill: #111827; }
    .value { font-size: 12px; font-weight: 600; fill: #111827; }
    .axis { font-size: 11px; fill: #6b7280; }
  </style>
  <rect width="100%" height="100%" fill="#ffffff"/>
  <text x="16" y="24" class="title">${escapeXml(title)}</text>
  <text x="16" y="42" class="sub">${escapeXml(subtitle)}</text>
  <text x="16" y="58" class="sub">${escapeXml(note)}</text>
  ${ticks.join('\n  ')}
  <line x1="${line}" y1="${top - 10}" x2="${line}" y2="${top + rowHeight * pairs.length + 4}" stroke="#b91c1c" stroke-width="1.5" stroke-dasharray="5 3"/>
  <text x="${line}" y="${top - 13}" text-anchor="middle" class="axis" style="fill:#b91c1c">target 0.90</text>
  ${rows.join('\n  ')}
  <text x="16" y="${height - 14}" class="sub">${escapeXml(footer)}</text>
</svg>
`;
}

/**
 * The chart of a bench run's results (`bench/results.json`): its HTTP pairs.
 * @param {import('./report.mjs').BenchResults} results
 */
export function chartOf(results) {
  const { machine: m, options } = results;
  return ratioChart(results.http ?? [], {
    title: 'Throughput with channel-webhooks ÷ the same route written by hand',
    subtitle: `One run, A and B alternating; bar: median of ${options.rounds} rounds, whisker: lowest–highest round; grey: server CPU per request, B ÷ A`,
    note: 'Slate: the contract floor (its checks written by hand, no library) against the route, and the library against the floor; no target.',
    footer: `${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform} · ${options.connections} connections, loopback · ${results.date.slice(0, 10)}`,
  });
}
