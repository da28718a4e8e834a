// A confirmation before a change that cannot be taken back (a rotation, a revocation): an
// alertdialog whose focus starts on Cancel, the answer that changes nothing.
import { h } from './build-dom.js';
import { type Dialog, openDialog } from './dialog-shell.js';
import type { PartName } from './part-names.js';

export interface ConfirmOptions {
  title: string;
  message: string;
  confirm: string;
  /** The confirm button's text while the change runs. */
  working: string;
  cancel: string;
  /** Makes the change; a failure stays in the dialog, put into words by `describe`. */
  run: () => Promise<void>;
  describe: (failure: unknown) => string;
  onClosed: () => void;
  /** The dialog's extra part name. */
  part: PartName;
  /** How the confirm button looks: `danger` for what cannot be undone. */
  tone: 'primary' | 'danger';
}

export function openConfirmDialog(root: ShadowRoot, options: ConfirmOptions): Dialog {
  return openDialog(
    root,
    { title: options.title, role: 'alertdialog', part: options.part, onClosed: options.onClosed },
    (dialog) => {
      const message = h('p', { class: 'confirm-message' }, options.message);
      dialog.describedBy(message);
      const failure = h('p', { part: ['error'], class: 'form-error', attrs: { role: 'alert' } });
      const cancel = h(
        'button',
        { part: ['button'], class: 'button', attrs: { type: 'button' }, on: { click: () => dialog.close() } },
        options.cancel,
      );
      const confirm = h(
        'button',
        { part: ['button', options.tone], class: `button ${options.tone}`, attrs: { type: 'button' } },
        options.confirm,
      );
      confirm.addEventListener('click', async () => {
        if (confirm.getAttribute('aria-disabled') === 'true') return;
        confirm.setAttribute('aria-disabled', 'true');
        confirm.textContent = options.working;
        failure.textContent = '';
        try {
          await options.run();
        } catch (error) {
          failure.textContent = options.describe(error);
        } finally {
          confirm.removeAttribute('aria-disabled');
          confirm.textContent = options.confirm;
        }
      });
      dialog.body.append(message, failure, h('div', { class: 'dialog-actions' }, cancel, confirm));
      return cancel;
    },
  );
}
