// A webhook's recent posts, newest first: what each answer was and, for a refusal, every field it
// named, its message and what to send instead.
import { h, withCode } from './build-dom.js';
import type { FieldError, SettingsPost } from './element-types.js';
import type { SettingsStrings } from './settings-strings.js';
import type { TimeFormat } from './time-format.js';

export function renderHistory(
  posts: readonly SettingsPost[],
  strings: SettingsStrings,
  format: TimeFormat,
): HTMLElement {
  if (posts.length === 0) return h('p', { class: 'history-empty' }, strings.historyEmpty);
  return h('ol', { part: ['history'], class: 'history' }, ...posts.map((post) => renderPost(post, strings, format)));
}

function renderPost(post: SettingsPost, strings: SettingsStrings, format: TimeFormat): HTMLElement {
  const accepted = post.status === 200 || post.status === 201;
  const details = [
    post.idempotencyKey === null ? null : strings.postKey(post.idempotencyKey),
    post.messageId === null ? null : strings.postMessage(post.messageId),
    post.bodyBytes === null ? null : strings.postBytes(format.number(post.bodyBytes)),
  ].filter((detail): detail is string => detail !== null);
  return h(
    'li',
    { part: ['post', accepted ? 'post-accepted' : 'post-refused'], class: `post ${accepted ? 'accepted' : 'refused'}` },
    h(
      'div',
      { class: 'post-head' },
      h('span', { class: `badge ${accepted ? 'accepted' : 'refused'}` }, String(post.status)),
      post.code === null ? null : h('code', { class: 'post-code' }, post.code),
      format.time(post.at),
    ),
    h('p', { class: 'outcome' }, strings.postOutcome(post.status, post.count)),
    post.errors.length === 0
      ? null
      : h('ul', { class: 'errors' }, ...post.errors.map((error) => renderError(error, strings))),
    details.length === 0 ? null : h('p', { class: 'meta' }, details.join(' · ')),
  );
}

function renderError(error: FieldError, strings: SettingsStrings): HTMLElement {
  // A pointer to the whole body is empty: the message alone says it (`is not valid JSON`).
  const where = error.pointer ?? error.header ?? '';
  return h(
    'li',
    { class: 'error-entry' },
    h(
      'p',
      {},
      where === '' ? null : h('code', { class: 'pointer' }, where),
      where === '' ? null : ' ',
      ...withCode(error.message),
    ),
    error.hint === undefined ? null : renderHint(error.hint, strings),
  );
}

/** A hint's sentence, and its closing "See <url>" as a link when the URL is https. */
function renderHint(hint: string, strings: SettingsStrings): HTMLElement {
  const match = /^([\s\S]*?)\s*See (https:\/\/\S+)$/.exec(hint);
  const sentence = match?.[1] ?? hint;
  const link = match?.[2];
  return h(
    'p',
    { part: ['hint'], class: 'hint' },
    h('strong', {}, strings.sendInstead),
    ' ',
    ...withCode(sentence),
    link === undefined ? null : ' ',
    link === undefined
      ? null
      : h('a', { attrs: { href: link, target: '_blank', rel: 'noopener noreferrer' } }, strings.hintLink),
  );
}
