// The dialog of a webhook's recent posts: loading, then the posts (history-view.ts) or why they
// could not be read. The focus starts on its Close button.
import { h } from './build-dom.js';
import { type Dialog, openDialog } from './dialog-shell.js';
import type { SettingsPost, SettingsWebhook } from './element-types.js';
import { renderHistory } from './history-view.js';
import type { SettingsStrings } from './settings-strings.js';
import type { TimeFormat } from './time-format.js';

export interface HistoryDialogOptions {
  strings: SettingsStrings;
  webhook: SettingsWebhook;
  /** The dates' format, taken when the posts arrive. */
  format: () => TimeFormat;
  /** Loads the webhook's recent posts. */
  posts: () => Promise<SettingsPost[]>;
  /** Puts a failure to load them into words. */
  describe: (failure: unknown) => string;
  onClosed: () => void;
}

export function openHistoryDialog(root: ShadowRoot, options: HistoryDialogOptions): Dialog {
  const { strings } = options;
  return openDialog(
    root,
    {
      title: strings.historyTitle(options.webhook.name),
      closeLabel: strings.close,
      part: 'history-dialog',
      onClosed: options.onClosed,
    },
    (dialog) => {
      const intro = h('p', { class: 'history-intro' }, strings.historyIntro);
      dialog.describedBy(intro);
      const list = h(
        'div',
        { class: 'history-content', attrs: { 'aria-busy': 'true' } },
        h('p', {}, strings.historyLoading),
      );
      const close = h(
        'button',
        { part: ['button'], class: 'button', attrs: { type: 'button' }, on: { click: () => dialog.close() } },
        strings.close,
      );
      dialog.body.append(intro, list, h('div', { class: 'dialog-actions' }, close));
      options
        .posts()
        .then(
          (posts) => list.replaceChildren(renderHistory(posts, strings, options.format())),
          (failure) => list.replaceChildren(h('p', { class: 'form-error' }, options.describe(failure))),
        )
        .finally(() => list.removeAttribute('aria-busy'));
      return close;
    },
  );
}
