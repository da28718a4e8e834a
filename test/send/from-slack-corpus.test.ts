import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Block, validatePayload } from '../../src/index.js';
import { toPlainText } from '../../src/render/index.js';
import { fromSlackPayload } from '../../src/send/index.js';

// The 60 real Block Kit payloads of the corpus, through fromSlackPayload: the 39 the endpoint
// refuses as they are must come out valid (all but the two that hold nothing it can show), with
// every change listed and their visible text kept; the 21 it takes must come out as they went in.
//
// "Visible text" is read with toPlainText, the library's own reader, on both sides: the strings a
// person sees in the Slack payload (header, section and field texts, context texts, button labels,
// image titles, rich_text texts, link targets), each read as Slack reads it (mrkdwn reduced to its
// words, entities decoded, a plain_text object's emoji codes as emoji), must each appear in what
// toPlainText reads from the converted blocks.
// Reading both sides with one reader compares what a person sees, not how it is spelled: a
// plain_text field escaped into mrkdwn (`&amp;`) must still read `&`. Image URLs are not read as
// text (an image shows, it does not read): each must be a context image or a link target.
type Json = Record<string, unknown>;

const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'blockkit');
const corpus = readdirSync(CORPUS)
  .filter((name) => name.endsWith('.json'))
  .map((name) => [name, JSON.parse(readFileSync(join(CORPUS, name), 'utf8')) as Json] as const);
const refused = corpus.filter(([, payload]) => !validatePayload(payload).ok);
const accepted = corpus.filter(([, payload]) => validatePayload(payload).ok);

/** Nothing here can show these: a lone divider, and the mention of a Slack team. */
const NOTHING_USABLE = ['slackdocs-divider-1.json', 'slackdocs-team-1.json'];

const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim();
const readMrkdwn = (text: string): string => normalize(toPlainText({ body: text, blocks: [] }));
const readPlainText = (text: string, emoji: boolean): string =>
  toPlainText({ body: '', blocks: [{ type: 'header', text: { type: 'plain_text', text, emoji } }] });

interface Seen {
  /** What a person reads, as toPlainText reads it. */
  text: string[];
  /** The URLs of images. */
  images: string[];
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** What a person sees in a Slack payload. */
function slackVisible(payload: Json): Seen {
  const seen: Seen = { text: [], images: [] };
  const read = (text: unknown, kind: 'mrkdwn' | 'plain' | 'url') => {
    if (typeof text !== 'string' || text.trim() === '') return;
    seen.text.push(kind === 'mrkdwn' ? readMrkdwn(text) : normalize(text));
  };
  // Slack shows a plain_text object's emoji codes as emoji, unless its `emoji` is false.
  const textObject = (value: unknown) => {
    if (!isObject(value) || typeof value.text !== 'string') return;
    if (value.type === 'mrkdwn') read(value.text, 'mrkdwn');
    else read(readPlainText(value.text, value.emoji !== false), 'plain');
  };
  const button = (element: Json) => {
    textObject(element.text);
    read(element.url, 'url');
  };
  const blocks = (value: unknown) => {
    for (const block of list(value)) {
      switch (block.type) {
        case 'header':
        case 'section':
          textObject(block.text);
          for (const field of list(block.fields)) textObject(field);
          if (isObject(block.accessory) && block.accessory.type === 'button') button(block.accessory);
          if (isObject(block.accessory) && block.accessory.type === 'image')
            seen.images.push(block.accessory.image_url as string);
          break;
        case 'context':
          for (const element of list(block.elements)) {
            if (element.type === 'image') seen.images.push(element.image_url as string);
            else textObject(element);
          }
          break;
        case 'actions':
          for (const element of list(block.elements)) if (element.type === 'button') button(element);
          break;
        case 'image':
          textObject(block.title);
          seen.images.push(block.image_url as string);
          break;
        case 'rich_text':
          for (const container of list(block.elements)) {
            const items =
              container.type === 'rich_text_list'
                ? list(container.elements).flatMap((item) => list(item.elements))
                : list(container.elements);
            for (const inline of items) {
              if (inline.type === 'link') {
                read(inline.text, 'plain');
                read(inline.url, 'url');
              } else {
                // Text, and what shows without words of its own: a mention, an emoji, a date, a colour. The reader
                // reads stored (valid) blocks: an element the endpoint refuses (a date whose timestamp is a string)
                // reads as nothing here.
                const alone = { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [inline] }] };
                if (validatePayload({ text: 'x', blocks: [alone] }).ok)
                  read(toPlainText({ body: '', blocks: [alone as Block] }), 'plain');
              }
            }
          }
          break;
      }
    }
  };
  blocks(payload.blocks);
  for (const attachment of list(payload.attachments)) {
    for (const part of ['pretext', 'text', 'footer'] as const) read(attachment[part], 'mrkdwn');
    read(attachment.title, 'plain');
    read(attachment.title_link, 'url');
    for (const field of list(attachment.fields)) {
      read(field.title, 'plain');
      read(field.value, 'mrkdwn');
    }
    blocks(attachment.blocks);
  }
  return seen;
}

/** What a person sees in a converted payload: its blocks as toPlainText reads them, and its images. */
function convertedVisible(payload: { text?: string; blocks?: Block[] }): { reading: string; images: string[] } {
  const blocks = payload.blocks ?? [];
  const reading = normalize(toPlainText({ body: blocks.length > 0 ? '' : (payload.text ?? ''), blocks }));
  const images = blocks.flatMap((block) =>
    block.type === 'context'
      ? block.elements.flatMap((element) => (element.type === 'image' ? [element.image_url] : []))
      : [],
  );
  // A link to an image counts as showing it: its target is read beside its label.
  return { reading, images };
}

describe('fromSlackPayload over the Block Kit corpus', () => {
  it('the endpoint refuses 39 of the 60 payloads as they are', () => {
    expect([corpus.length, refused.length, accepted.length]).toEqual([60, 39, 21]);
  });

  it('converts 37 of the 39 refused into payloads the endpoint accepts; the other two hold nothing it can show', () => {
    const results = refused.map(([name, payload]) => [name, fromSlackPayload(payload).payload] as const);
    const valid = results
      .filter(([, payload]) => payload !== null && validatePayload(payload).ok)
      .map(([name]) => name);
    const nothing = results.filter(([, payload]) => payload === null).map(([name]) => name);
    expect(nothing).toEqual(NOTHING_USABLE);
    expect(valid).toHaveLength(37);
    expect(valid.length + nothing.length).toBe(39);
  });

  it.each(refused.filter(([name]) => !NOTHING_USABLE.includes(name)))(
    '%s keeps every visible text and image',
    (_, slack) => {
      const { payload } = fromSlackPayload(slack);
      const seen = slackVisible(slack);
      const converted = convertedVisible(payload!);
      expect(seen.text.length).toBeGreaterThan(0);
      for (const text of seen.text)
        expect(converted.reading, `"${text}" is not read in the converted payload`).toContain(text);
      for (const url of seen.images)
        expect(converted.images.includes(url) || converted.reading.includes(url), `image ${url} is not shown`).toBe(
          true,
        );
    },
  );

  it.each(refused.filter(([name]) => !NOTHING_USABLE.includes(name)))(
    '%s: every part left behind is listed with its pointer',
    (_, slack) => {
      const { payload, changes } = fromSlackPayload(slack);
      const pointers = changes.map((change) => change.pointer);
      const listed = (at: string) => pointers.some((pointer) => pointer === at || pointer.startsWith(`${at}/`));
      const blocks = (payload?.blocks ?? []) as unknown[];
      for (const key of Object.keys(slack).filter((key) => !['text', 'blocks', 'eventId'].includes(key)))
        expect(listed(`/${key}`), `/${key}`).toBe(true);
      // A block kept as it was is the very object of the Slack payload; any other was changed or dropped.
      for (const [index, block] of ((slack.blocks as unknown[]) ?? []).entries()) {
        if (!blocks.includes(block)) expect(listed(`/blocks/${index}`), `/blocks/${index}`).toBe(true);
      }
      if (payload !== null && payload.text !== slack.text)
        expect(listed('/text') || changes.some((change) => change.to === '/text')).toBe(true);
    },
  );

  it.each(accepted)('%s, which the endpoint takes, comes back as it is', (_, slack) => {
    expect(fromSlackPayload(slack)).toEqual({ payload: slack, changes: [] });
    expect(fromSlackPayload(slack).payload).toBe(slack);
  });
});
