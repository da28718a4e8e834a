import type { Inline } from './ast.js';
import { stripBidiControls } from './escape.js';
import { formatSlackDate } from './format-date.js';
import type { MessageDate, RenderOptions, ResolvedEmoji, ResolvedMention } from './render-types.js';

const PREFIX = { user: '@', channel: '#', usergroup: '@', broadcast: '@' } as const;

/** The mention as the app resolves it, or its inert default; labels lose their bidi controls. */
export function resolveMention(node: Inline & { t: 'mention' }, options: RenderOptions): ResolvedMention {
  const { kind, id, label } = node;
  const resolved = options.mention?.(label === undefined ? { kind, id } : { kind, id, label });
  if (resolved !== undefined) return { text: stripBidiControls(String(resolved.text)), url: resolved.url };
  return { text: stripBidiControls(`${PREFIX[kind]}${label ?? id}`) };
}

function unicodeOf(hex: string | undefined): string | undefined {
  if (hex === undefined || !/^[0-9a-f]{1,6}(?:-[0-9a-f]{1,6}){0,9}$/i.test(hex)) return undefined;
  const points = hex.split('-').map((part) => Number.parseInt(part, 16));
  return points.every((point) => point <= 0x10ffff && (point < 0xd800 || point > 0xdfff)) ? String.fromCodePoint(...points) : undefined;
}

/** The emoji as the app resolves it, or its Unicode form, or `:name:`. */
export function resolveEmoji(node: Inline & { t: 'emoji' }, options: RenderOptions): ResolvedEmoji & { text: string } {
  const fallback = unicodeOf(node.unicode) ?? `:${node.name}:`;
  const answer = options.emoji?.(node.name, node.unicode === undefined ? { name: node.name } : { name: node.name, unicode: node.unicode });
  const resolved: ResolvedEmoji | undefined = typeof answer === 'string' ? { text: answer } : answer;
  return { text: resolved?.text === undefined ? fallback : String(resolved.text), url: resolved?.url };
}

/** The date as the app formats it, or the sender's fallback, or the format applied in UTC. */
export function resolveDate(node: Inline & { t: 'date' }, options: RenderOptions): string {
  const { timestamp, format, fallback, timezone } = node;
  const date: MessageDate = { timestamp, format };
  if (fallback !== undefined) date.fallback = fallback;
  if (timezone !== undefined) date.timezone = timezone;
  const resolved = options.date?.(date);
  if (resolved !== undefined) return String(resolved);
  if (fallback !== undefined && fallback !== '') return fallback;
  return formatSlackDate(timestamp, format) ?? String(timestamp);
}
