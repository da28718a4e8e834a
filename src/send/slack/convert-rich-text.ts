import {
  LINK_URL,
  MAX_COLOR,
  MAX_DATE_FORMAT,
  MAX_ID,
  MAX_INDENT,
  MAX_NAME,
  MAX_URL,
  WEB_URL,
} from '../../validation/field-rules.js';
import { type ChangeLog, child, createChangeLog } from './change-log.js';
import {
  integerOf,
  isBoolean,
  isObject,
  type Json,
  keepFields,
  oneOf,
  type Rule,
  stringOf,
  urlOf,
} from './field-rules.js';

const STYLE_FLAGS: Record<string, Rule> = Object.fromEntries(
  ['bold', 'italic', 'strike', 'code', 'underline', 'highlight', 'client_highlight', 'unlink'].map((flag) => [
    flag,
    isBoolean,
  ]),
);

/** A text style: its known flags kept, the others dropped one by one. */
const style: Rule = {
  test: (value) =>
    isObject(value) &&
    Object.entries(value).every(([flag, on]) => Object.hasOwn(STYLE_FLAGS, flag) && typeof on === 'boolean'),
  expected: 'an object of style flags',
  repair: (value, at, to, log) =>
    isObject(value) ? keepFields(value, at, to, 'a text style', STYLE_FLAGS, log) : undefined,
};

/** A Unix time that Slack's own SDKs write as a string of digits. */
const timestamp: Rule = {
  ...integerOf(0),
  repair: (value, at, to, log) => {
    if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return undefined;
    log.changed(at, to, 'was a string of digits: now the number it spells');
    return Number(value);
  },
};

const webUrl = urlOf(WEB_URL, MAX_URL, 'an http(s) URL');
const id = stringOf(1, MAX_ID);

interface ElementSpec {
  rules: Record<string, Rule>;
  required: string[];
}

const INLINE: Record<string, ElementSpec> = {
  text: { rules: { text: stringOf(), style }, required: ['text'] },
  link: {
    rules: {
      url: urlOf(LINK_URL, MAX_URL, 'an http(s) or mailto URL'),
      text: stringOf(),
      unsafe: isBoolean,
      from_llm: isBoolean,
      is_slack_url: isBoolean,
      truncated: isBoolean,
      style,
    },
    required: ['url'],
  },
  emoji: {
    rules: {
      name: stringOf(1, MAX_NAME),
      unicode: stringOf(0, MAX_NAME),
      skin_tone: integerOf(1, 6),
      url: webUrl,
      style,
    },
    required: ['name'],
  },
  user: { rules: { user_id: id, from_llm: isBoolean, style }, required: ['user_id'] },
  channel: { rules: { channel_id: id, style }, required: ['channel_id'] },
  usergroup: { rules: { usergroup_id: id, style }, required: ['usergroup_id'] },
  broadcast: { rules: { range: oneOf('here', 'channel', 'everyone'), style }, required: ['range'] },
  date: {
    rules: {
      timestamp,
      format: stringOf(1, MAX_DATE_FORMAT),
      timezone: stringOf(1, MAX_NAME),
      url: webUrl,
      fallback: stringOf(),
      style,
    },
    required: ['timestamp', 'format'],
  },
  color: { rules: { value: stringOf(1, MAX_COLOR), style }, required: ['value'] },
};

const elementsArray: Rule = { test: Array.isArray, expected: 'an array' };
const border = oneOf(0, 1);

const CONTAINERS: Record<string, Record<string, Rule>> = {
  rich_text_section: { elements: elementsArray },
  rich_text_quote: { elements: elementsArray, border },
  rich_text_preformatted: { elements: elementsArray, border, language: stringOf(1, MAX_NAME) },
  rich_text_list: {
    elements: elementsArray,
    style: oneOf('bullet', 'ordered'),
    indent: { ...integerOf(0, MAX_INDENT), repair: (value, at, to, log) => clampIndent(value, at, to, log) },
    offset: integerOf(0),
    border,
  },
};

function clampIndent(value: unknown, at: string, to: string, log: ChangeLog): number | undefined {
  if (!Number.isInteger(value) || (value as number) < 0) return undefined;
  log.changed(at, to, `a list is indented at most ${MAX_INDENT} levels here`);
  return MAX_INDENT;
}

/** A rich_text inline element as the endpoint takes it, or `undefined` (logged) when none is left. */
function convertInline(element: unknown, at: string, to: string, log: ChangeLog): Json | undefined {
  if (!isObject(element)) {
    log.dropped(at, 'is not an element');
    return undefined;
  }
  const type = element.type;
  if (type === 'link' && typeof element.url === 'string' && !INLINE.link!.rules.url!.test(element.url)) {
    // A link target the endpoint refuses is often a template (`${{ github.server_url }}/…`): kept, as text.
    const label =
      typeof element.text === 'string' && element.text.trim() !== '' ? `${element.text} (${element.url})` : element.url;
    log.changed(at, to, 'a link here goes to an http(s) or mailto URL only: its text and target are now text');
    const text: Json = { type: 'text', text: label };
    if (element.style !== undefined) {
      const kept = keepFields({ style: element.style }, at, to, 'a text element', { style }, log);
      if (kept.style !== undefined) text.style = kept.style;
    }
    return text;
  }
  const spec = typeof type === 'string' && Object.hasOwn(INLINE, type) ? INLINE[type]! : undefined;
  if (spec === undefined) {
    log.dropped(
      at,
      type === 'team'
        ? 'a team mention is Slack-only: nothing here can show the team'
        : 'is not a rich_text element here',
    );
    return undefined;
  }
  // What is done to the fields is told only if the element is kept.
  const fields = createChangeLog();
  const kept = keepFields(element, at, to, `a ${type} element`, spec.rules, fields);
  const missing = spec.required.find((field) => !Object.hasOwn(kept, field));
  if (missing !== undefined) {
    log.dropped(at, `has no valid ${missing}`);
    return undefined;
  }
  log.list.push(...fields.list);
  return kept;
}

/** A section, list, quote or preformatted element of a rich_text block, or `undefined` (logged). */
function convertContainer(element: unknown, at: string, to: string, log: ChangeLog): Json | undefined {
  const type = isObject(element) ? element.type : undefined;
  const rules = typeof type === 'string' && Object.hasOwn(CONTAINERS, type) ? CONTAINERS[type]! : undefined;
  if (!isObject(element) || rules === undefined) {
    log.dropped(at, 'is not a rich_text section, list, quote or preformatted element');
    return undefined;
  }
  if (!Array.isArray(element.elements)) {
    log.dropped(at, 'has no elements');
    return undefined;
  }
  // What is done inside is told only if the element is kept.
  const inside = createChangeLog();
  const kept = keepFields(element, at, to, `a ${type} element`, rules, inside);
  const items: Json[] = [];
  element.elements.forEach((item, index) => {
    const itemAt = child(child(at, 'elements'), index);
    const itemTo = child(child(to, 'elements'), items.length);
    const converted =
      type !== 'rich_text_list'
        ? convertInline(item, itemAt, itemTo, inside)
        : isObject(item) && item.type === 'rich_text_section'
          ? convertContainer(item, itemAt, itemTo, inside)
          : (inside.dropped(itemAt, 'is not a rich_text_section: a list item here is one'), undefined);
    if (converted !== undefined) items.push(converted);
  });
  kept.elements = items;
  if (type === 'rich_text_list') {
    if (items.length === 0) {
      log.dropped(at, 'is a list with no items left');
      return undefined;
    }
    if (!Object.hasOwn(kept, 'style')) {
      kept.style = 'bullet';
      inside.added(
        at,
        child(to, 'style'),
        'a list here says whether it is "bullet" or "ordered": "bullet", as Slack shows a list that does not say',
      );
    }
  }
  log.list.push(...inside.list);
  return kept;
}

/** The elements of a rich_text block as the endpoint takes them; those that cannot be carried are logged. */
export function convertRichTextElements(elements: unknown[], at: string, to: string, log: ChangeLog): Json[] {
  const converted: Json[] = [];
  elements.forEach((element, index) => {
    const kept = convertContainer(element, child(at, index), child(to, converted.length), log);
    if (kept !== undefined) converted.push(kept);
  });
  return converted;
}
