import {
  MAX_ALT_TEXT,
  MAX_BLOCK_ID,
  MAX_BLOCKS,
  MAX_CONTEXT_ELEMENTS,
  MAX_MARKDOWN_TOTAL,
  MAX_URL,
  WEB_URL,
} from '../../validation/field-rules.js';
import { codePointLength } from '../../validation/text.js';
import { child, type ChangeLog } from './change-log.js';
import { convertRichTextElements } from './convert-rich-text.js';
import { blockIdOf, isBoolean, isObject, type Json, keepFields, REPLACED, type Rule, stringOf } from './field-rules.js';
import { escapeMrkdwn, mrkdwnLink, plainTextOf, textObjectAsMrkdwn } from './mrkdwn.js';

/** The converted payload's blocks as they are built, and what the conversion did. */
export interface Output {
  blocks: Json[];
  /** Code points of the markdown blocks so far: all of them together have a limit. */
  markdown: number;
  log: ChangeLog;
}

const blockId = blockIdOf(MAX_BLOCK_ID);
const blockAt = (index: number): string => `/blocks/${index}`;
const room = (out: Output): number => MAX_BLOCKS - out.blocks.length;

/** A block built here, with the `block_id` of the Slack block it comes from when that one is valid. */
function built(block: Json, from: Json, at: string, log: ChangeLog): Json {
  if (blockId.test(from.block_id)) block.block_id = from.block_id;
  else if (from.block_id !== undefined) log.dropped(child(at, 'block_id'), `must be ${blockId.expected}`);
  return block;
}

/** Logs every field of `block` but `used` as dropped: the block was rebuilt from those alone. */
function dropOthers(block: Json, at: string, used: string[], what: string, log: ChangeLog): void {
  for (const key of Object.keys(block))
    if (key !== 'type' && key !== 'block_id' && !used.includes(key))
      log.dropped(child(at, key), `is not carried: ${what}`);
}

function isImageElement(url: unknown, alt: unknown): boolean {
  return typeof url === 'string' && url.length <= MAX_URL && WEB_URL.test(url) && stringOf(1, MAX_ALT_TEXT).test(alt);
}

// Text objects -----------------------------------------------------------------------------------

/** A header's text: a `plain_text` object. */
function headerText(value: unknown, at: string, to: string, log: ChangeLog): Json | undefined {
  if (typeof value === 'string') {
    log.changed(at, to, 'was a string: now a plain_text text object');
    return { type: 'plain_text', text: value };
  }
  if (!isObject(value) || typeof value.text !== 'string') return undefined;
  if (value.type === 'plain_text')
    return keepFields(value, at, to, 'a plain_text text', { text: REPLACED, emoji: isBoolean }, log);
  if (value.type !== 'mrkdwn') return undefined;
  log.changed(
    child(at, 'type'),
    child(to, 'type'),
    "was mrkdwn: a header's text is plain_text here (as in Slack), so its markup shows as typed",
  );
  return { type: 'plain_text', text: value.text };
}

/** A section's text: a `mrkdwn` object. */
function sectionText(value: unknown, at: string, to: string, log: ChangeLog): Json | undefined {
  if (typeof value === 'string') {
    log.changed(at, to, 'was a string: now a mrkdwn text object');
    return { type: 'mrkdwn', text: value };
  }
  if (!isObject(value) || typeof value.text !== 'string') return undefined;
  if (value.type === 'mrkdwn')
    return keepFields(value, at, to, 'a mrkdwn text', { text: REPLACED, verbatim: isBoolean }, log);
  if (value.type !== 'plain_text') return undefined;
  log.changed(
    child(at, 'type'),
    child(to, 'type'),
    'was plain_text: now mrkdwn, with &, < and > escaped so that it reads the same',
  );
  return { type: 'mrkdwn', text: escapeMrkdwn(value.text) };
}

// Blocks the endpoint takes ----------------------------------------------------------------------

function header(block: Json, at: string, out: Output): void {
  const to = blockAt(out.blocks.length);
  const text = headerText(block.text, child(at, 'text'), child(to, 'text'), out.log);
  if (text === undefined) {
    out.log.dropped(at, 'is a header without a text: it shows nothing');
    return;
  }
  const kept = keepFields(block, at, to, 'a header block', { text: REPLACED, block_id: blockId }, out.log);
  kept.text = text;
  out.blocks.push(kept);
}

function section(block: Json, at: string, out: Output): void {
  const { log } = out;
  const index = out.blocks.length;
  const to = blockAt(index);
  const textTo = `${to}/text/text`;
  const lines: string[] = [];
  let verbatim: unknown;
  if (block.text !== undefined) {
    const text = sectionText(block.text, child(at, 'text'), child(to, 'text'), log);
    if (text === undefined) log.dropped(child(at, 'text'), 'is not a text object');
    else {
      lines.push(text.text as string);
      verbatim = text.verbatim;
    }
  }
  if (block.fields !== undefined) {
    const fieldsAt = child(at, 'fields');
    const fields = Array.isArray(block.fields) ? block.fields : [];
    const texts: string[] = [];
    fields.forEach((field, number) => {
      const text = textObjectAsMrkdwn(field);
      if (text === undefined) log.dropped(child(fieldsAt, number), 'is not a text object');
      else texts.push(text);
    });
    // Fields of several lines each read as paragraphs: a blank line keeps one from running into the next.
    if (texts.length > 0) lines.push(texts.join(texts.some((text) => text.includes('\n')) ? '\n\n' : '\n'));
    if (texts.length === 0) log.dropped(fieldsAt, 'holds no text object');
    else
      log.changed(
        fieldsAt,
        textTo,
        "Slack's two columns of fields: each field is now a line of the section's mrkdwn text",
      );
  }
  const after: Json[] = [];
  if (block.accessory !== undefined) {
    const accessoryAt = child(at, 'accessory');
    const accessory = isObject(block.accessory) ? block.accessory : {};
    const { type } = accessory;
    if (type === 'image' && typeof accessory.image_url === 'string') {
      // Beside a section Slack shows the image small: a context image is that, where one fits.
      if (isImageElement(accessory.image_url, accessory.alt_text) && room(out) >= (lines.length > 0 ? 2 : 1)) {
        after.push({
          type: 'context',
          elements: [{ type: 'image', image_url: accessory.image_url, alt_text: accessory.alt_text }],
        });
        log.changed(
          accessoryAt,
          `${blockAt(index + (lines.length > 0 ? 1 : 0))}/elements/0`,
          'the image is now a context block after the section, shown small',
        );
      } else {
        lines.push(mrkdwnLink(accessory.image_url, typeof accessory.alt_text === 'string' ? accessory.alt_text : ''));
        log.changed(
          accessoryAt,
          textTo,
          "the image is now a link in the section's text: a context image needs an http(s) URL, an alt text and room for a block",
        );
      }
    } else if (type === 'button' && buttonText(accessory) !== undefined) {
      lines.push(buttonText(accessory)!);
      log.changed(accessoryAt, textTo, buttonChange(accessory, 'section'));
    } else {
      log.dropped(
        accessoryAt,
        type === 'image'
          ? 'is a Slack-hosted image (slack_file): nothing here can show it'
          : 'is interactive: messages here are not',
      );
    }
  }
  dropOthers(block, at, ['text', 'fields', 'accessory'], 'a section here has only a type, a text and a block_id', log);
  if (lines.length > 0) {
    const text: Json = { type: 'mrkdwn', text: lines.join('\n') };
    if (typeof verbatim === 'boolean') text.verbatim = verbatim;
    out.blocks.push(built({ type: 'section', text }, block, at, log));
  } else if (after.length === 0) {
    log.dropped(at, 'is a section with no text left: it shows nothing');
  }
  out.blocks.push(...after);
}

function markdown(block: Json, at: string, out: Output): void {
  const to = blockAt(out.blocks.length);
  if (typeof block.text !== 'string') {
    out.log.dropped(at, 'is a markdown block without a text: it shows nothing');
    return;
  }
  const left = MAX_MARKDOWN_TOTAL - out.markdown;
  if (left === 0) {
    out.log.dropped(
      at,
      `would pass the ${MAX_MARKDOWN_TOTAL.toLocaleString('en-US')} characters all markdown blocks together may have`,
    );
    return;
  }
  const kept = keepFields(block, at, to, 'a markdown block', { text: REPLACED, block_id: blockId }, out.log);
  const length = codePointLength(block.text);
  if (length > left) {
    kept.text = [...block.text].slice(0, left).join('');
    out.log.changed(
      child(at, 'text'),
      child(to, 'text'),
      `cut to ${left.toLocaleString('en-US')} characters: all markdown blocks together have at most ${MAX_MARKDOWN_TOTAL.toLocaleString('en-US')}`,
    );
  }
  out.markdown += Math.min(length, left);
  out.blocks.push(kept);
}

function divider(block: Json, at: string, out: Output): void {
  out.blocks.push(keepFields(block, at, blockAt(out.blocks.length), 'a divider block', { block_id: blockId }, out.log));
}

/** A context element, or an image turned into a link when it cannot be a context image. */
function contextElement(element: unknown, at: string, to: string, log: ChangeLog): Json | undefined {
  if (!isObject(element)) {
    log.dropped(at, 'is not an element');
    return undefined;
  }
  switch (element.type) {
    case 'plain_text':
    case 'mrkdwn': {
      if (typeof element.text !== 'string') break;
      const flags: Record<string, Rule> =
        element.type === 'plain_text' ? { emoji: isBoolean } : { verbatim: isBoolean };
      return keepFields(element, at, to, `a ${element.type} text`, { text: REPLACED, ...flags }, log);
    }
    case 'image': {
      if (typeof element.image_url !== 'string') {
        log.dropped(at, 'is a Slack-hosted image (slack_file): nothing here can show it');
        return undefined;
      }
      if (isImageElement(element.image_url, element.alt_text))
        return keepFields(element, at, to, 'an image element', { image_url: REPLACED, alt_text: REPLACED }, log);
      log.changed(at, to, 'the image is now a link: a context image needs an http(s) URL and an alt text');
      return {
        type: 'mrkdwn',
        text: mrkdwnLink(element.image_url, typeof element.alt_text === 'string' ? element.alt_text : ''),
      };
    }
  }
  log.dropped(at, 'is not a context element here: those are plain_text, mrkdwn and image');
  return undefined;
}

function context(block: Json, at: string, out: Output): void {
  const index = out.blocks.length;
  if (!Array.isArray(block.elements)) {
    out.log.dropped(at, 'is a context block without elements: it shows nothing');
    return;
  }
  const elementsAt = child(at, 'elements');
  // More than a context block holds go on in the next ones, as far as there is room.
  const fits = room(out) * MAX_CONTEXT_ELEMENTS;
  const elements: Json[] = [];
  block.elements.forEach((element, number) => {
    const n = elements.length;
    const to = `${blockAt(index + Math.floor(n / MAX_CONTEXT_ELEMENTS))}/elements/${n % MAX_CONTEXT_ELEMENTS}`;
    if (n === fits)
      out.log.dropped(child(elementsAt, number), `would pass the ${MAX_BLOCKS} blocks a message may have`);
    else {
      const kept = contextElement(element, child(elementsAt, number), to, out.log);
      if (kept !== undefined) elements.push(kept);
    }
  });
  if (elements.length === 0) {
    out.log.dropped(at, 'is a context block with no element left: it shows nothing');
    return;
  }
  const kept = keepFields(
    block,
    at,
    blockAt(index),
    'a context block',
    { elements: REPLACED, block_id: blockId },
    out.log,
  );
  kept.elements = elements.slice(0, MAX_CONTEXT_ELEMENTS);
  out.blocks.push(kept);
  for (let start = MAX_CONTEXT_ELEMENTS; start < elements.length; start += MAX_CONTEXT_ELEMENTS) {
    out.blocks.push({ type: 'context', elements: elements.slice(start, start + MAX_CONTEXT_ELEMENTS) });
  }
  if (elements.length > MAX_CONTEXT_ELEMENTS)
    out.log.changed(
      child(elementsAt, MAX_CONTEXT_ELEMENTS),
      blockAt(index + 1),
      `a context block holds at most ${MAX_CONTEXT_ELEMENTS} elements: the others follow in more context blocks`,
    );
}

function richText(block: Json, at: string, out: Output): void {
  const to = blockAt(out.blocks.length);
  if (!Array.isArray(block.elements)) {
    out.log.dropped(at, 'is a rich_text block without elements: it shows nothing');
    return;
  }
  const elements = convertRichTextElements(block.elements, child(at, 'elements'), child(to, 'elements'), out.log);
  if (elements.length === 0) {
    out.log.dropped(at, 'is a rich_text block with no element left: it shows nothing');
    return;
  }
  const kept = keepFields(block, at, to, 'a rich_text block', { elements: REPLACED, block_id: blockId }, out.log);
  kept.elements = elements;
  out.blocks.push(kept);
}

// Slack-only blocks ------------------------------------------------------------------------------

/** A button as mrkdwn: a link to its URL reading its label, or its label alone; `undefined` with neither. */
function buttonText(button: Json): string | undefined {
  const label = plainTextOf(button.text) ?? '';
  if (typeof button.url === 'string' && button.url.trim() !== '') return mrkdwnLink(button.url, label);
  return label.trim() === '' ? undefined : escapeMrkdwn(label);
}

const buttonChange = (button: Json, where: string): string =>
  typeof button.url === 'string' && button.url.trim() !== ''
    ? `the button is now a link in the ${where}'s text`
    : `the button has no URL (it only calls an app): its label is now text in the ${where}`;

function image(block: Json, at: string, out: Output): void {
  const to = blockAt(out.blocks.length);
  if (typeof block.image_url !== 'string') {
    out.log.dropped(at, 'is a Slack-hosted image (slack_file): nothing here can show it');
    return;
  }
  const title = plainTextOf(block.title);
  const label = title ?? (typeof block.alt_text === 'string' ? block.alt_text : '');
  const elements: Json[] = [];
  if (isImageElement(block.image_url, block.alt_text))
    elements.push({ type: 'image', image_url: block.image_url, alt_text: block.alt_text });
  elements.push({ type: 'mrkdwn', text: mrkdwnLink(block.image_url, label) });
  out.log.changed(
    at,
    to,
    elements.length === 2
      ? 'an image block is now a context block: the image shown small, and a link to it'
      : 'an image block is now a context block with a link to the image: a context image needs an http(s) URL and an alt text',
  );
  dropOthers(
    block,
    at,
    ['image_url', 'alt_text', 'title'],
    'an image here has only a URL, an alt text and a title',
    out.log,
  );
  out.blocks.push(built({ type: 'context', elements }, block, at, out.log));
}

function actions(block: Json, at: string, out: Output): void {
  const to = blockAt(out.blocks.length);
  const elementsAt = child(at, 'elements');
  const parts: string[] = [];
  (Array.isArray(block.elements) ? block.elements : []).forEach((element, number) => {
    const text = isObject(element) && element.type === 'button' ? buttonText(element) : undefined;
    if (text === undefined) out.log.dropped(child(elementsAt, number), 'is interactive: messages here are not');
    else {
      parts.push(text);
      out.log.changed(child(elementsAt, number), `${to}/text/text`, buttonChange(element as Json, 'section'));
    }
  });
  if (parts.length === 0) {
    out.log.dropped(at, 'is an actions block with nothing left to show');
    return;
  }
  out.log.changed(at, to, 'an actions block is now a section of links: messages here are not interactive');
  dropOthers(block, at, ['elements'], 'a section here has only a type, a text and a block_id', out.log);
  out.blocks.push(built({ type: 'section', text: { type: 'mrkdwn', text: parts.join(' · ') } }, block, at, out.log));
}

function video(block: Json, at: string, out: Output): void {
  const to = blockAt(out.blocks.length);
  const url = [block.title_url, block.video_url].find(
    (candidate) => typeof candidate === 'string' && candidate.trim() !== '',
  ) as string | undefined;
  if (url === undefined) {
    out.log.dropped(at, 'is a video without a URL: nothing here can show it');
    return;
  }
  const lines = [
    mrkdwnLink(url, plainTextOf(block.title) ?? (typeof block.alt_text === 'string' ? block.alt_text : '')),
  ];
  const description = plainTextOf(block.description);
  if (description !== undefined && description.trim() !== '') lines.push(escapeMrkdwn(description));
  out.log.changed(at, to, 'a video block is now a section with a link to the video and its description');
  dropOthers(
    block,
    at,
    ['title', 'title_url', 'video_url', 'alt_text', 'description'],
    'a video here is a link and a description',
    out.log,
  );
  out.blocks.push(built({ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } }, block, at, out.log));
}

const CONVERTERS: Record<string, (block: Json, at: string, out: Output) => void> = {
  header,
  section,
  markdown,
  divider,
  context,
  rich_text: richText,
  image,
  actions,
  video,
};

const LEFT_OUT: Record<string, string> = {
  input: 'is an input block: it needs a Slack app, and messages here are not interactive',
  file: 'is a Slack file: nothing here can show it',
  call: 'is a Slack call: nothing here can show it',
};

/** Converts one Slack block into the blocks the endpoint takes, appending them to `out`. */
export function convertBlock(block: unknown, at: string, out: Output): void {
  if (room(out) === 0) {
    out.log.dropped(at, `would pass the ${MAX_BLOCKS} blocks a message may have`);
    return;
  }
  if (!isObject(block)) {
    out.log.dropped(at, 'is not a block');
    return;
  }
  const { type } = block;
  const convert = typeof type === 'string' && Object.hasOwn(CONVERTERS, type) ? CONVERTERS[type]! : undefined;
  if (convert === undefined) {
    out.log.dropped(
      at,
      typeof type === 'string' && Object.hasOwn(LEFT_OUT, type) ? LEFT_OUT[type]! : 'is not a block type here',
    );
    return;
  }
  const changes = out.log.list.length;
  const first = out.blocks.length;
  convert(block, at, out);
  // A block that needed no change is the one that was written, its fields in their order.
  if (out.log.list.length === changes && out.blocks.length === first + 1) out.blocks[first] = block;
}
