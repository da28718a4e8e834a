import { describe, expect, it } from 'vitest';
import type { Dialog } from '../../src/element/dialog-shell.js';
import { createDialogSlot } from '../../src/element/dialog-slot.js';

// Rule: one dialog at a time; when a dialog closes, however it closes, the focus goes back to the
// control that opened it, once; a dialog closed for the one that follows from it moves no focus.
function dialogs() {
  const focused: string[] = [];
  const slot = createDialogSlot((key) => focused.push(key));
  const opened: string[] = [];
  /** Opens a dialog as dialog-shell.ts makes one: closed by a button, Escape or close(), it calls onClosed once. */
  const open = (name: string, opener: string): Dialog => {
    let dialog = null as unknown as Dialog;
    slot.open(opener, (onClosed) => {
      let open = true;
      opened.push(name);
      dialog = {
        close() {
          if (!open) return;
          open = false;
          onClosed();
        },
      } as Dialog;
      return dialog;
    });
    return dialog;
  };
  return { slot, open, focused, opened };
}

describe('the dialog slot', () => {
  it('gives the focus back to the opener when the dialog closes by itself, or is closed', () => {
    const d = dialogs();
    d.open('history', 'history:wh_1').close();
    d.open('create', 'new');
    d.slot.close();
    d.slot.close();
    expect(d.focused).toEqual(['history:wh_1', 'new']);
  });

  it('closes the open dialog when another opens: focus to the first opener, then the new dialog takes it', () => {
    const d = dialogs();
    d.open('history', 'history:wh_1');
    d.open('rotate', 'rotate:wh_2');
    expect([d.opened, d.focused]).toEqual([['history', 'rotate'], ['history:wh_1']]);
    d.slot.close();
    expect(d.focused).toEqual(['history:wh_1', 'rotate:wh_2']);
  });

  it('hands over without moving the focus; the dialog that follows gives it back to the first opener', () => {
    const d = dialogs();
    d.open('rotate confirmation', 'rotate:wh_1');
    d.slot.handOver();
    expect(d.focused).toEqual([]);
    d.open('new URL', 'rotate:wh_1');
    d.slot.close();
    expect(d.focused).toEqual(['rotate:wh_1']);
    d.slot.handOver();
    d.slot.close();
    expect(d.focused).toEqual(['rotate:wh_1']);
  });
});
