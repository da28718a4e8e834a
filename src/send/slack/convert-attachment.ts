import { MAX_ALT_TEXT, MAX_BLOCKS, MAX_URL, WEB_URL } from '../../validation/field-rules.js';
import { child } from './change-log.js';
import { convertBlock, type Output } from './convert-blocks.js';
import { isObject, type Json } from './field-rules.js';
import { escapeMrkdwn, mrkdwnLink, plainTextOf } from './mrkdwn.js';

// A legacy attachment becomes blocks, in the order Slack shows its parts: the pretext, the author,
// a section with the title, the text and a line per field, the thumbnail and the image, its own
// blocks, its buttons, the footer. The colour bar has no equivalent and is dropped.

/** An attachment's fallback text, kept for the payload's `text` when the payload has none. */
export interface Fallback {
  at: string;
  text: string;
}

const shows = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
const isWebImage = (url: unknown): url is string =>
  typeof url === 'string' && url.length <= MAX_URL && WEB_URL.test(url);

/** Appends `block` when a message has room for it; its pointer, or `undefined` when it has none. */
function place(out: Output, block: Json): string | undefined {
  if (out.blocks.length >= MAX_BLOCKS) return undefined;
  out.blocks.push(block);
  return `/blocks/${out.blocks.length - 1}`;
}

const section = (lines: string[]): Json => ({ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } });

/** An image as a context element where it can be one (its alt text cut to fit), else as a mrkdwn link. */
function imageElement(url: string, alt: string): Json {
  if (!isWebImage(url)) return { type: 'mrkdwn', text: mrkdwnLink(url, alt) };
  // Whole code points, so that the cut leaves no half of a surrogate pair.
  return {
    type: 'image',
    image_url: url,
    alt_text: alt.length <= MAX_ALT_TEXT ? alt : [...alt].slice(0, MAX_ALT_TEXT / 2).join(''),
  };
}

/** A field `{ title, value }` as a line: the title in bold, then the value (mrkdwn). */
function fieldLine(field: unknown): string | undefined {
  if (!isObject(field)) return undefined;
  const value = typeof field.value === 'number' ? String(field.value) : field.value;
  const title = shows(field.title) ? `*${escapeMrkdwn(field.title)}*` : undefined;
  if (title === undefined) return shows(value) ? value : undefined;
  return shows(value) ? `${title}: ${value}` : title;
}

/** A footer's time: Slack's date token, which reads in the reader's time zone, with UTC as its fallback. */
function footerTime(ts: unknown): string | undefined {
  const seconds =
    typeof ts === 'number' ? ts : typeof ts === 'string' && /^\d{1,15}(?:\.\d+)?$/.test(ts) ? Number(ts) : Number.NaN;
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  const whole = Math.floor(seconds);
  const utc = new Date(whole * 1000).toISOString().replace('T', ' ').slice(0, 16);
  return `<!date^${whole}^{date_short_pretty} at {time}|${utc} UTC>`;
}

const LEFT_OUT: Record<string, string> = {
  color: 'is the colour bar: nothing here shows one',
  // Its only text would be the footer's, which the footer already shows: a renderer that shows an
  // image as its alt text would write the footer twice.
  footer_icon: "is the footer's icon: the footer's text already says what it names",
  mrkdwn_in: 'is not needed: text is always mrkdwn here',
};

// The fields read into blocks below; any other is dropped.
const READ = new Set([
  'pretext',
  'author_name',
  'author_link',
  'author_icon',
  'title',
  'title_link',
  'text',
  'fields',
  'thumb_url',
  'image_url',
  'blocks',
  'actions',
  'footer',
  'ts',
  'fallback',
]);

/** Converts one legacy attachment into blocks appended to `out`; its fallback goes to `fallbacks`. */
export function convertAttachment(attachment: unknown, at: string, out: Output, fallbacks: Fallback[]): void {
  const { log } = out;
  if (!isObject(attachment)) {
    log.dropped(at, 'is not an attachment');
    return;
  }
  const a = attachment;
  const before = log.list.length;
  const full = (part: string) => log.dropped(child(at, part), `would pass the ${MAX_BLOCKS} blocks a message may have`);

  if (shows(a.pretext)) {
    const to = place(out, section([a.pretext]));
    if (to === undefined) full('pretext');
    else log.changed(child(at, 'pretext'), `${to}/text/text`, 'the pretext is now a section before the attachment');
  }

  if (shows(a.author_name)) {
    const name =
      typeof a.author_link === 'string' && a.author_link.trim() !== ''
        ? mrkdwnLink(a.author_link, a.author_name)
        : escapeMrkdwn(a.author_name);
    const elements = [
      ...(isWebImage(a.author_icon) ? [imageElement(a.author_icon, a.author_name)] : []),
      { type: 'mrkdwn', text: name },
    ];
    const to = place(out, { type: 'context', elements });
    if (to === undefined) full('author_name');
    else log.changed(child(at, 'author_name'), to, 'the author is now a context block');
  }

  const lines: string[] = [];
  const parts: string[] = [];
  if (shows(a.title)) {
    lines.push(
      `*${typeof a.title_link === 'string' && a.title_link.trim() !== '' ? mrkdwnLink(a.title_link, a.title) : escapeMrkdwn(a.title)}*`,
    );
    parts.push('title');
  }
  if (shows(a.text)) {
    lines.push(a.text);
    parts.push('text');
  }
  if (Array.isArray(a.fields) && a.fields.length > 0) {
    a.fields.forEach((field, number) => {
      const line = fieldLine(field);
      if (line === undefined)
        log.dropped(child(child(at, 'fields'), number), 'is a field with neither a title nor a value');
      else lines.push(line);
    });
    parts.push('fields');
  }
  if (lines.length > 0) {
    const to = place(out, section(lines));
    for (const part of parts) {
      if (to === undefined) full(part);
      else
        log.changed(
          child(at, part),
          `${to}/text/text`,
          part === 'fields'
            ? "each field is now a line of the section's mrkdwn text, its title in bold"
            : `the ${part} is now part of a section`,
        );
    }
  }

  for (const [part, alt, message] of [
    ['thumb_url', 'thumbnail', 'the thumbnail is now a context block, shown small'],
    ['image_url', 'image', 'the image is now a context block, shown small, with a link to it'],
  ] as const) {
    const url = a[part];
    if (!shows(url)) continue;
    const elements = [imageElement(url, alt)];
    if (part === 'image_url' && isWebImage(url)) elements.push({ type: 'mrkdwn', text: mrkdwnLink(url, '') });
    const to = place(out, { type: 'context', elements });
    if (to === undefined) full(part);
    else
      log.changed(
        child(at, part),
        to,
        isWebImage(url) ? message : 'the image is now a link: a context image needs an http(s) URL',
      );
  }

  if (Array.isArray(a.blocks))
    for (const [number, block] of a.blocks.entries()) convertBlock(block, child(child(at, 'blocks'), number), out);

  if (Array.isArray(a.actions)) {
    const buttons: string[] = [];
    const changed: string[] = [];
    a.actions.forEach((action, number) => {
      const actionAt = child(child(at, 'actions'), number);
      const label = isObject(action) ? (plainTextOf(action.text) ?? '') : '';
      const url =
        isObject(action) && action.type === 'button' && typeof action.url === 'string' && action.url.trim() !== ''
          ? action.url
          : undefined;
      if (url === undefined) log.dropped(actionAt, 'is interactive (it only calls an app): messages here are not');
      else {
        buttons.push(mrkdwnLink(url, label));
        changed.push(actionAt);
      }
    });
    if (buttons.length > 0) {
      const to = place(out, section([buttons.join(' · ')]));
      for (const actionAt of changed) {
        if (to === undefined) log.dropped(actionAt, `would pass the ${MAX_BLOCKS} blocks a message may have`);
        else log.changed(actionAt, `${to}/text/text`, 'the button is now a link in a section');
      }
    }
  }

  const time = footerTime(a.ts);
  if (shows(a.footer) || time !== undefined) {
    const text = [shows(a.footer) ? a.footer : undefined, time].filter((part) => part !== undefined).join(' | ');
    const to = place(out, { type: 'context', elements: [{ type: 'mrkdwn', text }] });
    for (const part of ['footer', 'ts'].filter((key) => a[key] !== undefined)) {
      if (to === undefined) full(part);
      else
        log.changed(
          child(at, part),
          to,
          part === 'ts' ? 'the time is now a date in the footer, a context block' : 'the footer is now a context block',
        );
    }
  }

  if (shows(a.fallback)) fallbacks.push({ at: child(at, 'fallback'), text: a.fallback });
  for (const key of Object.keys(a)) {
    if (Object.hasOwn(LEFT_OUT, key)) log.dropped(child(at, key), LEFT_OUT[key]!);
    else if (!READ.has(key) || (a[key] !== undefined && !carried(a, key, time)))
      log.dropped(child(at, key), 'is not carried: nothing here shows it');
  }
  if (log.list.length === before) log.dropped(at, 'is an attachment with nothing to show');
}

/** Whether a field that the blocks above read was carried into them. */
function carried(a: Json, key: string, time: string | undefined): boolean {
  switch (key) {
    case 'pretext':
    case 'title':
    case 'text':
    case 'footer':
    case 'thumb_url':
    case 'image_url':
    case 'fallback':
      return shows(a[key]);
    case 'author_name':
      return shows(a.author_name);
    case 'author_link':
    case 'author_icon':
      return shows(a.author_name) && (key === 'author_link' ? shows(a.author_link) : isWebImage(a.author_icon));
    case 'title_link':
      return shows(a.title) && shows(a.title_link);
    case 'ts':
      return time !== undefined;
    case 'fields':
    case 'actions':
    case 'blocks':
      // Their items are logged one by one.
      return Array.isArray(a[key]);
    default:
      return false;
  }
}
