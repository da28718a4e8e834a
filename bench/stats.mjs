export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Median and the spread of a sample: min, max, and the largest distance from the median in %. */
export function summarize(values) {
  const m = median(values);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { median: m, min, max, spreadPct: m === 0 ? 0 : (100 * Math.max(m - min, max - m)) / m, samples: values };
}

export const round = (value, digits = 0) => Number(value.toFixed(digits));
