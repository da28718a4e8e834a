// The channel's webhooks as a list, or the empty state that says what a webhook is. Every button
// carries a `data-focus` key (focus-keys.ts), so that focus can come back to it after a dialog or a
// reload.
import { h } from './build-dom.js';
import type { SettingsWebhook } from './element-types.js';
import { actionKey } from './focus-keys.js';
import type { SettingsStrings } from './settings-strings.js';
import type { TimeFormat } from './time-format.js';

export type WebhookAction = 'history' | 'rotate' | 'revoke';

export interface ListOptions {
  strings: SettingsStrings;
  format: TimeFormat;
  channelName: string;
  onAction: (action: WebhookAction, webhook: SettingsWebhook) => void;
  onNew: () => void;
}

/** Active webhooks first, then revoked ones, each group oldest first as the API lists them. */
export function renderWebhooks(webhooks: readonly SettingsWebhook[], options: ListOptions): HTMLElement {
  if (webhooks.length === 0) return renderEmpty(options);
  const sorted = [
    ...webhooks.filter((webhook) => webhook.status === 'active'),
    ...webhooks.filter((webhook) => webhook.status !== 'active'),
  ];
  return h(
    'ul',
    { part: ['list'], class: 'list', attrs: { 'aria-labelledby': 'title' } },
    ...sorted.map((webhook) => renderWebhook(webhook, options)),
  );
}

function renderWebhook(webhook: SettingsWebhook, { strings, format, onAction }: ListOptions): HTMLElement {
  const active = webhook.status === 'active';
  const nameId = `name-${webhook.id}`;
  const action = (kind: WebhookAction, label: string, extra?: 'danger') =>
    h(
      'button',
      {
        part: extra === undefined ? ['button'] : ['button', extra],
        class: extra === undefined ? 'button' : `button ${extra}`,
        attrs: { type: 'button', 'data-focus': actionKey(kind, webhook.id), 'aria-describedby': nameId },
        on: { click: () => onAction(kind, webhook) },
      },
      label,
    );
  const dates: Node[] = [
    h('span', {}, ...template(strings.createdAt, format.time(webhook.createdAt))),
    webhook.rotatedAt === null ? null : h('span', {}, ...template(strings.rotatedAt, format.time(webhook.rotatedAt))),
    webhook.revokedAt === null ? null : h('span', {}, ...template(strings.revokedAt, format.time(webhook.revokedAt))),
    webhook.lastPostAt === null
      ? h('span', {}, strings.noPostYet)
      : h('span', {}, ...template(strings.lastPostAt, format.time(webhook.lastPostAt))),
  ].filter((node): node is HTMLElement => node !== null);
  return h(
    'li',
    {
      part: ['item', active ? 'item-active' : 'item-revoked'],
      class: `item ${active ? 'active' : 'revoked'}`,
      attrs: { 'data-id': webhook.id },
    },
    avatar(webhook),
    h(
      'div',
      { class: 'item-main' },
      h(
        'div',
        { class: 'item-head' },
        h('h3', { part: ['name'], class: 'name', attrs: { id: nameId } }, webhook.name),
        h(
          'span',
          {
            part: ['status', active ? 'status-active' : 'status-revoked'],
            class: `status ${active ? 'active' : 'revoked'}`,
          },
          active ? strings.active : strings.revoked,
        ),
      ),
      webhook.description === null || webhook.description === undefined
        ? null
        : h('p', { part: ['description'], class: 'description' }, webhook.description),
      h('p', { part: ['meta'], class: 'meta' }, ...dates),
    ),
    h(
      'div',
      { part: ['actions'], class: 'actions' },
      action('history', strings.history),
      active ? action('rotate', strings.rotate) : null,
      active ? action('revoke', strings.revoke, 'danger') : null,
    ),
  );
}

/** The webhook's avatar, or its initial when it has none or the image does not load. Decorative: the name is beside it. */
function avatar(webhook: SettingsWebhook): HTMLElement {
  const initial = [...webhook.name.trim()][0]?.toUpperCase() ?? '?';
  let hash = 0;
  for (const char of webhook.id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const box = h(
    'span',
    { part: ['avatar'], class: `avatar tone-${hash % 6}`, attrs: { 'aria-hidden': 'true' } },
    initial,
  );
  if (typeof webhook.avatarUrl === 'string' && webhook.avatarUrl.startsWith('https://')) {
    const image = h('img', {
      attrs: { alt: '', src: webhook.avatarUrl, referrerpolicy: 'no-referrer', decoding: 'async' },
    });
    image.addEventListener('load', () => box.replaceChildren(image), { once: true });
  }
  return box;
}

function renderEmpty({ strings, channelName, onNew }: ListOptions): HTMLElement {
  return h(
    'div',
    { part: ['empty'], class: 'empty' },
    h('h3', { class: 'empty-title' }, strings.emptyTitle),
    h('p', {}, strings.emptyWhat(channelName)),
    h('p', {}, strings.emptyHow),
    h('pre', { part: ['example'], class: 'example' }, strings.emptyExample),
    h(
      'button',
      {
        part: ['button', 'primary'],
        class: 'button primary',
        attrs: { type: 'button', 'data-focus': 'new-empty' },
        on: { click: onNew },
      },
      strings.newWebhook,
    ),
  );
}

/** A string with one date in it, as nodes: the text around the date's `<time>`. */
function template(text: (date: string) => string, time: HTMLTimeElement): Node[] {
  const marker = '\u0000';
  const [before = '', after = ''] = text(marker).split(marker);
  return [document.createTextNode(before), time, document.createTextNode(after)];
}
