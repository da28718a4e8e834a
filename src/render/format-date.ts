const STYLES = {
  long: { dateStyle: 'long' },
  medium: { dateStyle: 'medium' },
  full: { dateStyle: 'full' },
  time: { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
  seconds: { hour: 'numeric', minute: '2-digit', second: '2-digit', timeZoneName: 'short' },
  numeric: { year: 'numeric', month: '2-digit', day: '2-digit' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
type Style = keyof typeof STYLES;

// Building a formatter costs far more than using one; a sender can name many zones, so the caches are bounded.
const MAX_CACHED = 256;
const formatters = new Map<string, Intl.DateTimeFormat>();
const zones = new Map<string, boolean>();

function remember<K, V>(cache: Map<K, V>, key: K, value: V): V {
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, value);
  return value;
}

/** Whether the runtime knows this IANA time zone: a sender's zone is used only then. */
export function isKnownTimeZone(timeZone: string): boolean {
  const known = zones.get(timeZone);
  if (known !== undefined) return known;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return remember(zones, timeZone, true);
  } catch {
    return remember(zones, timeZone, false);
  }
}

function formatter(locale: string, timeZone: string, style: Style): Intl.DateTimeFormat {
  const key = `${locale}\u0000${timeZone}\u0000${style}`;
  return (
    formatters.get(key) ??
    remember(
      formatters,
      key,
      new Intl.DateTimeFormat(style === 'numeric' ? 'en-US' : locale, { ...STYLES[style], timeZone }),
    )
  );
}

// ICU versions differ in the spaces they put before AM/PM and inside dates (U+202F, U+00A0): one
// plain space keeps the text the same on every runtime.
const ODD_SPACES = /[\u00a0\u202f]/g;

/**
 * Options of {@link formatSlackDate}.
 *
 * @example
 * ```ts
 * const options: SlackDateOptions = { timeZone: 'Europe/Paris', locale: 'fr' };
 * ```
 */
export interface SlackDateOptions {
  /** The IANA time zone to show the time in; an unknown one reads as UTC. Default: `UTC`. */
  timeZone?: string | undefined;
  /** The BCP 47 locale for names and order (`en-US`, `de`, `ja`). Default: `en-US`. */
  locale?: string | undefined;
}

/**
 * Formats a Unix time (seconds) with Slack's date tokens, through `Intl.DateTimeFormat` in the given
 * time zone and locale. In `en-US` and UTC: `{date_num}` 2014-02-18, `{date_slash}` 18/02/2014,
 * `{date}` and `{date_long_full}` February 18, 2014, `{date_short}` Feb 18, 2014, `{date_long}`
 * Tuesday, February 18, 2014, `{time}` 2:39 PM UTC, `{time_secs}` 2:39:42 PM UTC, `{ago}` February
 * 18, 2014 2:39 PM UTC. The "pretty" forms, which depend on the reader's clock, read as their plain
 * forms, so the text depends only on the time, the format, the zone and the locale. Unknown tokens
 * stay as written.
 *
 * @returns The text; `undefined` when the time is outside what a `Date` holds.
 * @throws RangeError when `locale` is not a BCP 47 language tag.
 *
 * @example
 * ```ts
 * formatSlackDate(1392734382, '{date_short} at {time}'); // 'Feb 18, 2014 at 2:39 PM UTC'
 * formatSlackDate(1392734382, '{time}', { timeZone: 'America/New_York' }); // '9:39 AM EST'
 * formatSlackDate(1392734382, '{date}', { locale: 'de' }); // '18. Februar 2014'
 * ```
 */
export function formatSlackDate(timestamp: number, format: string, options: SlackDateOptions = {}): string | undefined {
  const date = new Date(timestamp * 1000);
  if (!Number.isFinite(timestamp) || Number.isNaN(date.getTime())) return undefined;
  const locale = options.locale ?? 'en-US';
  const timeZone = options.timeZone !== undefined && isKnownTimeZone(options.timeZone) ? options.timeZone : 'UTC';
  const show = (style: Style): string => formatter(locale, timeZone, style).format(date).replace(ODD_SPACES, ' ');
  const numeric = (): Record<string, string> =>
    Object.fromEntries(
      formatter(locale, timeZone, 'numeric')
        .formatToParts(date)
        .map((part) => [part.type, part.value]),
    );
  const tokens: Record<string, () => string> = {
    date_num: () => {
      const { year, month, day } = numeric();
      return `${year}-${month}-${day}`;
    },
    date_slash: () => {
      const { year, month, day } = numeric();
      return `${day}/${month}/${year}`;
    },
    date: () => show('long'),
    date_long_full: () => show('long'),
    date_pretty: () => show('long'),
    date_short: () => show('medium'),
    date_short_pretty: () => show('medium'),
    date_long: () => show('full'),
    date_long_pretty: () => show('full'),
    day_divider_pretty: () => show('full'),
    time: () => show('time'),
    time_secs: () => show('seconds'),
    ago: () => `${show('long')} ${show('time')}`,
  };
  return format.replace(/\{([a-z_]+)\}/g, (whole, name: string) =>
    Object.hasOwn(tokens, name) ? tokens[name]!() : whole,
  );
}
