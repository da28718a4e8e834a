/**
 * Every element `toHtml` can produce, with the only attributes it can carry. Nothing else is ever
 * written: apps and tests can check output against this list, and a sanitizer configured from it
 * lets all of it through.
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
export const RENDER_ALLOW_LIST: Readonly<Record<string, readonly string[]>> = Object.freeze({
  a: Object.freeze(['class', 'href', 'rel']),
  blockquote: Object.freeze(['class']),
  br: Object.freeze([]),
  code: Object.freeze([]),
  div: Object.freeze(['class']),
  em: Object.freeze([]),
  h1: Object.freeze(['class']),
  h2: Object.freeze(['class']),
  h3: Object.freeze(['class']),
  h4: Object.freeze(['class']),
  h5: Object.freeze(['class']),
  h6: Object.freeze(['class']),
  hr: Object.freeze(['class']),
  img: Object.freeze(['alt', 'class', 'src']),
  li: Object.freeze([]),
  mark: Object.freeze([]),
  ol: Object.freeze(['class', 'start']),
  p: Object.freeze(['class']),
  pre: Object.freeze(['class']),
  s: Object.freeze([]),
  span: Object.freeze(['class']),
  strong: Object.freeze([]),
  u: Object.freeze([]),
  ul: Object.freeze(['class']),
});

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
