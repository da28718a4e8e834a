// Names other libraries use for what one of our options does; a name is only ever suggested to a
// factory that has the option it points at. A Map, since it is looked up with the caller's key: an
// object would answer `constructor` or `__proto__` from Object.prototype.
const NAMES_ELSEWHERE: ReadonlyMap<string, readonly string[]> = new Map([
  // express-rate-limit and rate-limiter-flexible
  ['max', ['limit']],
  ['points', ['limit']],
  ['duration', ['windowMs']],
  ['interval', ['windowMs']],
  // rate-limit-redis, rate-limiter-flexible
  ['prefix', ['keyPrefix', 'tablePrefix']],
  ['keyprefix', ['keyPrefix']],
  ['storeclient', ['client']],
  ['redis', ['client']],
  // connect-pg-simple, knex
  ['tablename', ['tablePrefix']],
  ['client', ['pool']],
  ['limiter', ['rateLimiter']],
  ['url', ['baseUrl', 'serverUrl']],
]);

/**
 * The options a caller probably meant by `key`: the option another library calls `key`, else the
 * closest of those equal to it ignoring case, starting with it (`rateLimit` for `rateLimiter`,
 * `timeout` for `timeoutMs`), or a typo or two away; all of them when equally close. Empty when
 * none is close.
 */
export function suggestOptions(key: string, options: readonly string[]): string[] {
  const lower = key.toLowerCase();
  const elsewhere = (NAMES_ELSEWHERE.get(lower) ?? []).filter((name) => options.includes(name));
  if (elsewhere.length > 0) return elsewhere;
  let best = Number.POSITIVE_INFINITY;
  let closest: string[] = [];
  for (const option of options) {
    const score = closeness(lower, option.toLowerCase());
    if (score < best) [best, closest] = [score, [option]];
    else if (score === best) closest.push(option);
  }
  return best === Number.POSITIVE_INFINITY ? [] : closest;
}

// 0 for the same name in another case; from 1 to 2 for a name the option starts with, the closer
// in length the better; else the number of typos, or Infinity when too far to be one: one in a
// short name, two in a longer one.
function closeness(key: string, option: string): number {
  if (key === option) return 0;
  if (key.length >= 4 && option.startsWith(key)) return 1 + (option.length - key.length) / 100;
  const typos = editDistance(key, option);
  return typos <= (Math.max(key.length, option.length) >= 6 ? 2 : 1) ? typos : Number.POSITIVE_INFINITY;
}

// Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`.
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const replace = rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      let edits = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, replace);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        edits = Math.min(edits, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = edits;
    }
  }
  return rows[a.length]![b.length]!;
}
