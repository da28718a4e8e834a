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
    date: medium,
    date_short: short,
    date_long: long,
    // The "pretty" forms say "today" or "yesterday" relative to the reader's clock; rendering is
    // deterministic, so they read as their plain forms.
    date_pretty: medium,
    date_short_pretty: short,
    date_long_pretty: long,
    time: clock(date, false),
    time_secs: clock(date, true),
    ago: `${medium} ${clock(date, false)}`,
  };
}

/**
 * Formats a Unix time (seconds) with Slack's date tokens (`{date_num}`, `{date}`, `{date_short}`,
 * `{date_long}`, the `_pretty` forms, `{time}`, `{time_secs}`, `{ago}`), in UTC. Unknown tokens stay
 * as written. `undefined` when the time is outside what a `Date` holds.
 */
export function formatSlackDate(timestamp: number, format: string): string | undefined {
  const date = new Date(timestamp * 1000);
  if (!Number.isFinite(timestamp) || Number.isNaN(date.getTime())) return undefined;
  const values = tokens(date);
  return format.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}
