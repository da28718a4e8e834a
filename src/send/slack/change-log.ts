/**
 * What `fromSlackPayload` did to one part of a Slack payload: `dropped` (not carried: nothing
 * here can show it), `changed` (carried in another form, at `to`) or `added` (made from other parts,
 * at `to`, because the endpoint needs it).
 *
 * @example
 * ```ts
 * const change: SlackChange = {
 *   pointer: '/blocks/1/fields',
 *   action: 'changed',
 *   to: '/blocks/1/text/text',
 *   message: "each field is now a line of the section's mrkdwn text",
 * };
 * ```
 */
export interface SlackChange {
  /** A JSON Pointer into the Slack payload: the part this change is about (`""` is the whole payload). */
  pointer: string;
  action: 'dropped' | 'changed' | 'added';
  /**
   * A JSON Pointer into the converted payload: where the part went. Absent for `dropped`, and for
   * a repair of characters made in place, before the part was converted.
   */
  to?: string;
  /** What happened and why, in words. */
  message: string;
}

/** The changes of one conversion, in the order of the Slack payload. */
export interface ChangeLog {
  readonly list: SlackChange[];
  dropped(pointer: string, message: string): void;
  changed(pointer: string, to: string, message: string): void;
  /** A change made in place, before the part is converted: it has no `to`. */
  repaired(pointer: string, message: string): void;
  added(pointer: string, to: string, message: string): void;
}

export function createChangeLog(): ChangeLog {
  const list: SlackChange[] = [];
  return {
    list,
    dropped: (pointer, message) => list.push({ pointer, action: 'dropped', message }),
    changed: (pointer, to, message) => list.push({ pointer, action: 'changed', to, message }),
    repaired: (pointer, message) => list.push({ pointer, action: 'changed', message }),
    added: (pointer, to, message) => list.push({ pointer, action: 'added', to, message }),
  };
}

/** `pointer` with one more reference token, escaped as RFC 6901 says. */
export const child = (pointer: string, token: string | number): string =>
  `${pointer}/${typeof token === 'number' ? token : token.replace(/~/g, '~0').replace(/\//g, '~1')}`;
