// The samples as CSV and as a small SVG drawn by hand: RSS, heap and p99 over the run, one panel
// each, the fault windows shaded.
import type { FaultWindow, Sample } from './check.js';

export function samplesCsv(samples: Sample[]): string {
  const instances = Math.max(...samples.map((sample) => sample.instances.length));
  const header = [
    'seconds',
    ...Array.from({ length: instances }, (_, i) => [`rss_mib_${i}`, `heap_mib_${i}`, `young_mib_${i}`]).flat(),
    'p99_ms',
    'answers_per_second',
    'in_fault',
  ];
  const rows = samples.map((sample) => [
    sample.at,
    ...Array.from({ length: instances }, (_, i) => {
      const memory = sample.instances[i];
      return memory === null || memory === undefined
        ? ['', '', '']
        : [memory.rssMiB.toFixed(1), memory.heapMiB.toFixed(1), memory.youngMiB.toFixed(1)];
    }).flat(),
    sample.p99Ms ?? '',
    sample.answersPerSecond,
    sample.inFault ? 1 : 0,
  ]);
  return `${[header, ...rows].map((row) => row.join(',')).join('\n')}\n`;
}

const WIDTH = 640;
const PANEL = 120;
const LEFT = 56;
const RIGHT = 12;
const TOP = 42;
const GAP = 30;
const COLORS = ['#1f77b4', '#d62728', '#1f77b4'];

export function samplesSvg(title: string, samples: Sample[], windows: FaultWindow[], startedAt: number): string {
  const end = Math.max(1, ...samples.map((sample) => sample.at));
  const x = (at: number) => LEFT + ((WIDTH - LEFT - RIGHT) * at) / end;
  const panels: Array<{ label: string; series: Array<Array<[number, number]>> }> = [
    {
      label: "RSS MiB (dashed: instance 0 outside V8's young generation, what the flat check judges)",
      series: [
        ...[0, 1].map((i) => points(samples, (s) => s.instances[i]?.rssMiB)),
        points(samples, (s) => (s.instances[0] ? s.instances[0].rssMiB - s.instances[0].youngMiB : undefined)),
      ],
    },
    { label: 'heap MiB', series: [0, 1].map((i) => points(samples, (s) => s.instances[i]?.heapMiB)) },
    { label: 'p99 ms', series: [points(samples, (s) => s.p99Ms ?? undefined)] },
  ];
  const height = TOP + panels.length * (PANEL + GAP);
  const parts: string[] = [`<text x="${LEFT}" y="16" font-size="13">${escapeXml(title)}</text>`];
  panels.forEach((panel, index) => {
    const top = TOP + index * (PANEL + GAP);
    const values = panel.series.flat().map(([, v]) => v);
    const max = niceCeiling(Math.max(1, ...values));
    const y = (v: number) => top + PANEL - (PANEL * v) / max;
    for (const w of windows) {
      const from = x(Math.max(0, (w.start - startedAt) / 1_000));
      const to = x(Math.min(end, (w.end - startedAt) / 1_000));
      parts.push(
        `<rect x="${from.toFixed(1)}" y="${top}" width="${Math.max(1, to - from).toFixed(1)}" height="${PANEL}" fill="#f4d03f" opacity="0.35"/>`,
      );
    }
    parts.push(
      `<rect x="${LEFT}" y="${top}" width="${WIDTH - LEFT - RIGHT}" height="${PANEL}" fill="none" stroke="#999"/>`,
    );
    parts.push(`<text x="${LEFT}" y="${top - 5}" font-size="11">${escapeXml(panel.label)}</text>`);
    parts.push(`<text x="${LEFT - 4}" y="${top + 10}" font-size="10" text-anchor="end">${max}</text>`);
    parts.push(`<text x="${LEFT - 4}" y="${top + PANEL}" font-size="10" text-anchor="end">0</text>`);
    panel.series.forEach((series, i) => {
      if (series.length === 0) return;
      const d = series.map(([at, v], j) => `${j === 0 ? 'M' : 'L'}${x(at).toFixed(1)},${y(v).toFixed(1)}`).join('');
      const dash = i === 2 ? ' stroke-dasharray="4 3"' : '';
      parts.push(`<path d="${d}" fill="none" stroke="${COLORS[i]}" stroke-width="1.2"${dash}/>`);
    });
  });
  parts.push(`<text x="${LEFT}" y="${height - 6}" font-size="10">0 s</text>`);
  parts.push(
    `<text x="${WIDTH - RIGHT}" y="${height - 6}" font-size="10" text-anchor="end">${end} s · blue: instance 0, red: instance 1 (killed and restarted) · shaded: fault windows</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif">\n${parts.join('\n')}\n</svg>\n`;
}

function points(samples: Sample[], value: (sample: Sample) => number | undefined): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const sample of samples) {
    const v = value(sample);
    if (v !== undefined) out.push([sample.at, v]);
  }
  return out;
}

function niceCeiling(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * magnitude).find((candidate) => candidate >= value)!;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
