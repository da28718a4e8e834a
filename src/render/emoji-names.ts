import { EMOJI_TABLE } from './emoji-table.js';

// Slack's emoji names (`tada`, `+1`, `+1::skin-tone-2`) as Unicode, from the generated table. Read
// into a map the first time a name is looked up, so that a message without emoji costs nothing.

const SKIN_TONE = /^(.+)::skin-tone-([2-6])$/;
/** The modifiers Slack's `skin-tone-2` … `skin-tone-6` stand for (U+1F3FB … U+1F3FF). */
const TONE_BASE = 0x1f3fb - 2;

interface Entry {
  points: number[];
  toned: boolean;
}

let table: Map<string, Entry> | undefined;

/** The code points of the table's form (emoji-table.ts): `389` is U+1F389, `_` a joiner, `!` U+FE0F. */
function codePoints(written: string): number[] {
  const points: number[] = [];
  for (const part of written.split(/([-_!])/)) {
    if (part === '_') points.push(0x200d);
    else if (part === '!') points.push(0xfe0f);
    else if (part !== '-' && part !== '') points.push(Number.parseInt(part, 16) + (part.length === 3 ? 0x1f000 : 0));
  }
  return points;
}

function read(): Map<string, Entry> {
  const map = new Map<string, Entry>();
  for (const line of EMOJI_TABLE.split('\n')) {
    const colon = line.lastIndexOf(':');
    if (colon === -1) continue;
    const toned = line.endsWith('*');
    const hex = line.slice(colon + 1, toned ? -1 : undefined);
    const entry = { points: codePoints(hex), toned };
    for (const name of line.slice(0, colon).split(',')) map.set(name, entry);
  }
  return map;
}

/** The code points with a skin tone: after the first, in place of the presentation selector (FE0F) that may follow it. */
function withTone([first, ...rest]: number[], tone: number): number[] {
  return [first!, tone, ...(rest[0] === 0xfe0f ? rest.slice(1) : rest)];
}

/**
 * The Unicode form of one of Slack's emoji names, `undefined` for a name it does not have (a
 * workspace's custom emoji). A skin tone on an emoji that takes none leaves the emoji as it is.
 */
export function emojiByName(name: string): string | undefined {
  table ??= read();
  const exact = table.get(name);
  if (exact !== undefined) return String.fromCodePoint(...exact.points);
  const tone = SKIN_TONE.exec(name);
  if (tone === null) return undefined;
  const base = table.get(tone[1]!);
  if (base === undefined) return undefined;
  return String.fromCodePoint(...(base.toned ? withTone(base.points, TONE_BASE + Number(tone[2])) : base.points));
}
