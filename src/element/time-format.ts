// Dates in the reader's locale (or the element's `locale`), from the epoch milliseconds (or ISO
// strings) the management API answers with. Absolute dates only: the element never reads the clock.

export interface TimeFormat {
  /** A `<time>` element showing `value`. */
  time(value: number | string): HTMLTimeElement;
  /** A number in the locale, e.g. a body's size. */
  number(value: number): string;
}

export function createTimeFormat(locale: string | undefined): TimeFormat {
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const numbers = new Intl.NumberFormat(locale);
  return {
    time(value) {
      const date = new Date(value);
      const node = document.createElement('time');
      if (Number.isNaN(date.getTime())) {
        node.textContent = String(value);
        return node;
      }
      node.dateTime = date.toISOString();
      node.textContent = dates.format(date);
      return node;
    },
    number: (value) => numbers.format(value),
  };
}
