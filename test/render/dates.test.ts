import { describe, expect, it } from 'vitest';
import { formatSlackDate, toHtml, toPlainText } from '../../src/render/index.js';

// 2014-02-19 00:00:00 UTC: still the 18th in New York.
const MIDNIGHT_UTC = 1392768000;
const richDate = (element: Record<string, unknown>) => ({
  body: '',
  blocks: [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'date', ...element }] }] }],
});

describe('dates', () => {
  it('a rich_text date reads in its own time zone (it read in UTC)', () => {
    const message = richDate({ timestamp: MIDNIGHT_UTC, format: '{date_num} {time}', timezone: 'America/New_York' });
    expect(toPlainText(message)).toBe('2014-02-18 7:00 PM EST');
    expect(toHtml(message)).toBe(
      '<div class="cw-rich-text"><p class="cw-rich-text-section"><span class="cw-date">2014-02-18 7:00 PM EST</span></p></div>',
    );
    expect(
      toPlainText(richDate({ timestamp: MIDNIGHT_UTC, format: '{date_short} {time_secs}', timezone: 'Asia/Tokyo' })),
    ).toBe('Feb 19, 2014 9:00:00 AM GMT+9');
  });

  it('reads in the locale the app gives', () => {
    const message = richDate({ timestamp: MIDNIGHT_UTC, format: '{date_long}', timezone: 'Europe/Berlin' });
    expect(toPlainText(message, { locale: 'de-DE' })).toBe('Mittwoch, 19. Februar 2014');
    expect(toPlainText(message)).toBe('Wednesday, February 19, 2014');
  });

  it('is the same text every time for a given zone and locale', () => {
    const message = richDate({
      timestamp: 1392734382,
      format: '{date} {time} {ago} {date_slash}',
      timezone: 'Australia/Adelaide',
    });
    const first = toPlainText(message, { locale: 'fr' });
    expect(first).toBe('19 février 2014 01:09 UTC+10:30 19 février 2014 01:09 UTC+10:30 19/02/2014');
    for (let i = 0; i < 3; i++) expect(toPlainText(message, { locale: 'fr' })).toBe(first);
  });

  it('reads a zone the runtime does not know, and a mrkdwn date, in UTC', () => {
    expect(toPlainText(richDate({ timestamp: MIDNIGHT_UTC, format: '{time}', timezone: '../../etc/passwd' }))).toBe(
      '12:00 AM UTC',
    );
    expect(toPlainText({ body: `<!date^${MIDNIGHT_UTC}^{date_num} {time}>`, blocks: [] })).toBe(
      '2014-02-19 12:00 AM UTC',
    );
    expect(formatSlackDate(MIDNIGHT_UTC, '{time}', { timeZone: 'Not/AZone' })).toBe('12:00 AM UTC');
  });

  it('gives the date resolver only a zone the runtime knows, so an Intl call on it cannot throw', () => {
    const seen: (string | undefined)[] = [];
    const date = ({ timezone }: { timezone?: string }) => (
      seen.push(timezone), new Date(0).toLocaleString('en-US', { timeZone: timezone })
    );
    for (const timezone of ['Europe/Paris', '../../etc/passwd', 'Mars/Olympus'])
      toPlainText(richDate({ timestamp: 0, format: '{date}', timezone }), { date });
    expect(seen).toEqual(['Europe/Paris', undefined, undefined]);
  });

  it('refuses a locale that is not a language tag', () => {
    expect(() => toHtml({ body: 'x', blocks: [] }, { locale: 'not a locale!' })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(() => toPlainText({ body: 'x', blocks: [] }, { locale: 42 as never })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});
