// A confirmation before a change that cannot be taken back (a rotation, a revocation): an
// alertdialog whose focus starts on Cancel, the answer that changes nothing.
import { h } from './build-dom.js';
import type { Confirmation } from './confirmations.js';
import { type Dialog, openDialog } from './dialog-shell.js';

export interface ConfirmOptions extends Confirmation {
  /** Puts a failure of `run` into words; it stays in the dialog. */
  describe: (failure: unknown) => string;
  onClosed: () => void;
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
