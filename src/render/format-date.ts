const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

const two = (value: number): string => String(value).padStart(2, '0');

function clock(date: Date, seconds: boolean): string {
  const hours = date.getUTCHours();
  const rest = seconds ? `:${two(date.getUTCSeconds())}` : '';
  return `${hours % 12 === 0 ? 12 : hours % 12}:${two(date.getUTCMinutes())}${rest} ${hours < 12 ? 'AM' : 'PM'} UTC`;
}

function tokens(date: Date): Record<string, string> {
  const month = MONTHS[date.getUTCMonth()]!;
  const day = date.getUTCDate();
  const year = date.getUTCFullYear();
  const long = `${DAYS[date.getUTCDay()]}, ${month} ${ordinal(day)}, ${year}`;
  const medium = `${month} ${ordinal(day)}, ${year}`;
  const short = `${month.slice(0, 3)} ${day}, ${year}`;
  return {
    date_num: `${year}-${two(date.getUTCMonth() + 1)}-${two(day)}`,
    date_slash: `${two(day)}/${two(date.getUTCMonth() + 1)}/${year}`,
    date_long_full: `${month} ${day}, ${year}`,
    date: medium,
    date_short: short,
    date_long: long,
    // The "pretty" forms say "today" or "yesterday" relative to the reader's clock; rendering is
    // deterministic, so they read as their plain forms.
    date_pretty: medium,
    date_short_pretty: short,
    date_long_pretty: long,
    day_divider_pretty: long,
    time: clock(date, false),
    time_secs: clock(date, true),
    ago: `${medium} ${clock(date, false)}`,
  };
}

/**
 * Formats a Unix time (seconds) with Slack's date tokens, in UTC: `{date_num}` 2014-02-18,
 * `{date_slash}` 18/02/2014, `{date}` February 18th, 2014, `{date_short}` Feb 18, 2014, `{date_long}`
 * Tuesday, February 18th, 2014, `{date_long_full}` February 18, 2014, `{time}` 2:39 PM UTC,
 * `{time_secs}` 2:39:42 PM UTC; the "pretty" forms and `{ago}`, which depend on the reader's clock,
 * read as their plain forms. Unknown tokens stay as written.
 *
 * @returns The text; `undefined` when the time is outside what a `Date` holds.
 *
 * @example
 * ```ts
 * formatSlackDate(1392734382, '{date_short} at {time}'); // 'Feb 18, 2014 at 2:39 PM UTC'
 * ```
 */
export function formatSlackDate(timestamp: number, format: string): string | undefined {
  const date = new Date(timestamp * 1000);
  if (!Number.isFinite(timestamp) || Number.isNaN(date.getTime())) return undefined;
  const values = tokens(date);
  return format.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}
