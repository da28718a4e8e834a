// The element's own screen, under its dialogs: the header (the title, New webhook), the alert of a
// failed load (with Retry), the content (loading, the list, the empty state, or the sentence for a reader who
// may not manage the channel) and the status region
// changes are announced in. Drawn again whole on every change; the focus stays on the control it
// was on, found again by its key (focus-keys.ts), or on the nearest one left.
import { h } from './build-dom.js';
import { describeFailure, isNotAllowed, locksOut } from './describe-failure.js';
import type { SettingsWebhook } from './element-types.js';
import { focusCandidates } from './focus-keys.js';
import type { SettingsStrings } from './settings-strings.js';
import { createTimeFormat } from './time-format.js';
import { renderWebhooks, type WebhookAction } from './webhook-list.js';

/** What the screen shows. */
export interface ViewState {
  strings: SettingsStrings;
  locale: string | undefined;
  channelName: string;
  /** The webhooks as last loaded or changed; `null` before a load succeeded. */
  webhooks: readonly SettingsWebhook[] | null;
  /** Why the last load failed; `null` when it did not. */
  loadFailure: unknown;
}

/** What the screen's controls ask for. */
export interface ViewActions {
  /** New webhook, from the control with key `opener` (`new`, or the empty state's `new-empty`). */
  onNew(opener: string): void;
  onRetry(): void;
  onAction(action: WebhookAction, webhook: SettingsWebhook): void;
}

export interface SettingsView {
  render(state: ViewState): void;
  /** Marks the content as loading, for assistive technology. */
  setBusy(busy: boolean): void;
  announce(text: string): void;
  /** Moves the focus to the control with this key, or to the nearest one that still exists. */
  focus(key: string): void;
}

export function createSettingsView(root: ShadowRoot, actions: ViewActions): SettingsView {
  const title = h('h2', { part: ['title'], class: 'title', attrs: { id: 'title', tabindex: '-1' } });
  const newButton = h('button', {
    part: ['button', 'primary', 'new'],
    class: 'button primary',
    attrs: { type: 'button', 'data-focus': 'new' },
    on: { click: () => actions.onNew('new') },
  });
  const alert = h('div', { part: ['alert'], class: 'alert', attrs: { role: 'alert' } });
  const status = h('p', { class: 'visually-hidden', attrs: { role: 'status' } });
  const content = h('div', { part: ['content'], class: 'content' });
  root.append(
    h(
      'section',
      { part: ['base'], class: 'base', attrs: { 'aria-labelledby': 'title' } },
      h('div', { part: ['header'], class: 'header' }, title, newButton),
      alert,
      content,
      status,
    ),
  );
  let shownFailure: unknown = null;

  function focus(key: string): void {
    for (const candidate of focusCandidates(key)) {
      const target = root.querySelector<HTMLElement>(`[data-focus="${CSS.escape(candidate)}"]`);
      if (target !== null) {
        target.focus();
        return;
      }
    }
    title.focus();
  }

  function showFailure(failure: unknown, strings: SettingsStrings, channelName: string): void {
    const retry = h(
      'button',
      {
        part: ['button'],
        class: 'button',
        attrs: { type: 'button', 'data-focus': 'retry' },
        on: { click: actions.onRetry },
      },
      strings.retry,
    );
    alert.replaceChildren(h('p', { class: 'alert-text' }, describeFailure(failure, strings, channelName)), retry);
  }

  return {
    render({ strings, locale, channelName, webhooks, loadFailure }) {
      title.textContent = strings.title;
      newButton.textContent = strings.newWebhook;
      const focused = (root.activeElement as HTMLElement | null)?.dataset.focus;
      // A reader who may not manage this channel's webhooks is told so in a plain sentence, not an
      // alert: nothing failed, and nothing to retry or create until that changes.
      const notAllowed = webhooks === null && isNotAllowed(loadFailure);
      // The alert is written only when its failure changes, so that it is announced once.
      if (loadFailure !== shownFailure) {
        shownFailure = loadFailure;
        if (loadFailure === null || notAllowed) alert.replaceChildren();
        else showFailure(loadFailure, strings, channelName);
      }
      newButton.hidden = webhooks === null && locksOut(loadFailure);
      if (notAllowed) {
        content.replaceChildren(
          h('p', { part: ['not-allowed'], class: 'not-allowed' }, strings.errorNotAllowed(channelName)),
        );
      } else if (webhooks === null) {
        content.replaceChildren(loadFailure === null ? h('p', { class: 'loading' }, strings.loading) : '');
      } else {
        content.replaceChildren(
          renderWebhooks(webhooks, {
            strings,
            format: createTimeFormat(locale),
            channelName,
            onAction: actions.onAction,
            onNew: () => actions.onNew('new-empty'),
          }),
        );
      }
      if (focused !== undefined) focus(focused);
    },
    setBusy(busy) {
      if (busy) content.setAttribute('aria-busy', 'true');
      else content.removeAttribute('aria-busy');
    },
    announce(text) {
      status.textContent = '';
      // A new text node is announced even when it says what the last one said.
      queueMicrotask(() => (status.textContent = text));
    },
    focus,
  };
}
