// A modal dialog in the element's shadow root, on the native <dialog> and showModal(): the browser
// makes the rest of the page inert, keeps Tab inside and closes it on Escape. What the WAI-ARIA
// dialog pattern adds is done here: a title that names it, the focus placed on open, and the
// removal of its content once closed (so nothing it showed, a URL least of all, stays in the DOM).
import { h } from './build-dom.js';
import type { PartName } from './part-names.js';

let opened = 0;

export interface DialogOptions {
  /** The dialog's title (its accessible name). */
  title: string;
  /** `alertdialog` for a confirmation that needs an answer. */
  role?: 'dialog' | 'alertdialog';
  /** A close button in the title bar, labelled with this text; none when absent. */
  closeLabel?: string;
  /** An extra part name of the <dialog>, after `dialog`. */
  part?: PartName;
  /** Called once when the dialog has closed (by a button, Escape or `close()`), before it is removed. */
  onClosed: () => void;
}

export interface Dialog {
  readonly element: HTMLDialogElement;
  /** Where the content goes. */
  readonly body: HTMLElement;
  /** Gives its id to a node that describes the dialog (`aria-describedby`). */
  describedBy(node: HTMLElement): void;
  close(): void;
}

/** Opens a modal dialog in `root`: `fill` puts its content in and returns what gets the focus once it shows. */
export function openDialog(root: ShadowRoot, options: DialogOptions, fill: (dialog: Dialog) => HTMLElement): Dialog {
  const id = `dialog-${++opened}`;
  const title = h('h2', { part: ['dialog-title'], class: 'dialog-title', attrs: { id: `${id}-title` } }, options.title);
  const body = h('div', { class: 'dialog-body' });
  const element = h(
    'dialog',
    {
      part: options.part === undefined ? ['dialog'] : ['dialog', options.part],
      class: 'dialog',
      attrs: { 'aria-labelledby': `${id}-title`, role: options.role === 'alertdialog' ? 'alertdialog' : null },
    },
    h(
      'div',
      { class: 'dialog-head' },
      title,
      options.closeLabel === undefined
        ? null
        : h(
            'button',
            {
              part: ['button', 'close'],
              class: 'button icon',
              attrs: { type: 'button', 'aria-label': options.closeLabel },
              on: { click: () => dialog.close() },
            },
            '×',
          ),
    ),
    body,
  );
  let closed = false;
  const dialog: Dialog = {
    element,
    body,
    describedBy(node) {
      node.id = `${id}-description`;
      element.setAttribute('aria-describedby', node.id);
    },
    close() {
      if (element.open) element.close();
      // The close event comes a task later: finish now, so that what follows sees it closed.
      finish();
    },
  };
  const finish = () => {
    if (closed) return;
    closed = true;
    options.onClosed();
    element.remove();
  };
  element.addEventListener('close', finish);
  const initialFocus = fill(dialog);
  root.append(element);
  element.showModal();
  initialFocus.focus();
  return dialog;
}
