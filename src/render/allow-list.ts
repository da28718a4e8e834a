// The HTML emitter writes elements only through this table: a tag it does not list, or an attribute
// it does not list for that tag, does not compile, and at run time only listed attributes are read.
const ALLOWED = {
  a: ['class', 'href', 'rel'],
  blockquote: ['class'],
  br: [],
  code: [],
  div: ['class'],
  em: [],
  h1: ['class'],
  h2: ['class'],
  h3: ['class'],
  h4: ['class'],
  h5: ['class'],
  h6: ['class'],
  hr: ['class'],
  img: ['class', 'src', 'alt'],
  li: [],
  mark: [],
  ol: ['class', 'start'],
  p: ['class'],
  pre: ['class'],
  s: [],
  span: ['class'],
  strong: [],
  u: [],
  ul: ['class'],
} as const;

/** An element `toHtml` may write. */
export type RenderTag = keyof typeof ALLOWED;

/** An attribute element `T` may carry. */
type RenderAttribute<T extends RenderTag> = (typeof ALLOWED)[T][number];

type MentionKind = 'user' | 'channel' | 'usergroup' | 'broadcast';

/** Every class `toHtml` writes: a fixed set, all starting with `cw-`. */
export type RenderClassName =
  | 'cw-header'
  | 'cw-section'
  | 'cw-markdown'
  | 'cw-divider'
  | 'cw-context'
  | 'cw-context-item'
  | 'cw-rich-text'
  | 'cw-rich-text-section'
  | 'cw-list'
  | `cw-list-indent-${0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8}`
  | 'cw-quote'
  | 'cw-pre'
  | 'cw-border'
  | 'cw-mention'
  | `cw-mention-${MentionKind}`
  | 'cw-emoji'
  | 'cw-date'
  | 'cw-color'
  | 'cw-image'
  | 'cw-image-alt'
  | 'cw-truncated';

/**
 * Every element `toHtml` can produce, with the only attributes it can carry. Nothing else is ever
 * written (the emitter writes through this very table): apps and tests can check output against
 * it, and a sanitizer configured from it lets all of it through.
 *
 * `href` is always `http:`, `https:` or `mailto:` and comes with `rel="noopener noreferrer nofollow"`;
 * `src` is only ever what the app's `image` option returned; `class` values all start with `cw-`.
 *
 * @example
 * ```ts
 * import { RENDER_ALLOW_LIST } from 'channel-webhooks/render';
 * const allowed = (tag: string, attribute: string) => RENDER_ALLOW_LIST[tag]?.includes(attribute) ?? false;
 * allowed('a', 'href'); // true
 * allowed('img', 'onerror'); // false
 * ```
 */
export const RENDER_ALLOW_LIST: Readonly<Record<string, readonly string[]>> = ALLOWED;
for (const attributes of Object.values(ALLOWED)) Object.freeze(attributes);
Object.freeze(ALLOWED);

/** The attributes element `T` may carry, with the type of value each takes. */
export type RenderAttributes<T extends RenderTag> = {
  [A in RenderAttribute<T>]?: {
    class: readonly RenderClassName[];
    href: string;
    rel: string;
    src: string;
    alt: string;
    start: number;
  }[A];
};

/** The attributes of `tag` that are set, in the allow-list's order, as text still to be escaped. */
export function attributesOf<T extends RenderTag>(
  tag: T,
  attributes: RenderAttributes<T>,
): [RenderAttribute<T>, string][] {
  const out: [RenderAttribute<T>, string][] = [];
  for (const name of ALLOWED[tag] as readonly RenderAttribute<T>[]) {
    const value = attributes[name] as readonly string[] | string | number | undefined;
    if (value !== undefined) out.push([name, Array.isArray(value) ? value.join(' ') : String(value)]);
  }
  return out;
}

/**
 * The `rel` every link `toHtml` writes carries: no `window.opener`, no referrer, no ranking credit.
 *
 * @example
 * ```ts
 * import { LINK_REL } from 'channel-webhooks/render';
 * for (const a of element.querySelectorAll('a')) console.assert(a.rel === LINK_REL);
 * ```
 */
export const LINK_REL = 'noopener noreferrer nofollow';
