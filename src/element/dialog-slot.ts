// The element shows one dialog at a time. Opening one closes the one before; when one closes, the
// focus goes back to the control that opened it, found by its key (focus-keys.ts), unless it was
// closed for a dialog that follows from it (the URL a change made), which takes the focus itself.
import type { Dialog } from './dialog-shell.js';

export interface DialogSlot {
  /** Opens a dialog, closing the open one; once it closes, `focus(opener)`. */
  open(opener: string, open: (onClosed: () => void) => Dialog): void;
  /** Closes the open dialog for one that follows it: no focus moves. */
  handOver(): void;
  /** Closes the open dialog, if any. */
  close(): void;
}

export function createDialogSlot(focus: (key: string) => void): DialogSlot {
  let current: Dialog | null = null;
  let handingOver = false;
  return {
    open(opener, open) {
      current?.close();
      const dialog = open(() => {
        if (current === dialog) current = null;
        if (!handingOver) focus(opener);
      });
      current = dialog;
    },
    handOver() {
      handingOver = true;
      try {
        current?.close();
      } finally {
        handingOver = false;
      }
    },
    close() {
      current?.close();
    },
  };
}
