// The element's one way to make DOM: elements and text nodes, never HTML parsed from strings, so a
// webhook's name, description or a refusal's message can never become markup.
import type { PartName } from './part-names.js';

type Child = Node | string | null | undefined | false;

interface Props {
  /** Space-separated class names. */
  class?: string;
  /** Part names, for `::part()`. */
  part?: readonly PartName[];
  /** Other attributes; `false` and `null` leave one out, `true` sets it empty. */
  attrs?: Record<string, string | boolean | null | undefined>;
  /** Event listeners. */
  on?: Record<string, (event: Event) => void>;
}

/** An element with its attributes, listeners and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.class !== undefined) node.className = props.class;
  if (props.part !== undefined) node.setAttribute('part', props.part.join(' '));
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === true) node.setAttribute(name, '');
    else if (typeof value === 'string') node.setAttribute(name, value);
  }
  for (const [type, listener] of Object.entries(props.on ?? {})) node.addEventListener(type, listener);
  append(node, children);
  return node;
}

/** Appends children, strings as text. */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/**
 * A text with its `backtick` spans as `<code>`: the form of the refusals' messages and hints.
 */
export function withCode(text: string): Node[] {
  return text
    .split('`')
    .map((piece, index) => (index % 2 === 1 ? h('code', {}, piece) : document.createTextNode(piece)));
}
