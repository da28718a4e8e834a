// The confirmations before a change that cannot be taken back: a rotation (a new URL, the old one
// answering 404 at once) and a revocation. One dialog (confirm-dialog.ts) asks both; what sets them
// apart is here: their words and look, the call each makes, and what follows it.
import type { SettingsWebhook } from './element-types.js';
import type { ManagementClient } from './management-client.js';
import type { PartName } from './part-names.js';
import type { SettingsEventType } from './settings-events.js';
import type { SettingsStrings } from './settings-strings.js';

export type ConfirmedChange = 'rotate' | 'revoke';

/** What follows a change, done by the element. */
export interface AfterChange {
  /** Closes the confirmation for the dialog that follows it, which takes the focus. */
  handOver(): void;
  /** The list shows the change, the app hears of it (`type`), the status region says `announcement`. */
  changed(type: SettingsEventType, webhook: SettingsWebhook, announcement: string): void;
  /** Shows the URL the change made, the one time it is seen. */
  showUrl(webhook: SettingsWebhook, url: string, rotated: boolean): void;
  /** Closes the confirmation: the focus goes back to the control that opened it. */
  close(): void;
}

/** A confirmation as its dialog asks it, and the change it confirms. */
export interface Confirmation {
  title: string;
  message: string;
  confirm: string;
  /** The confirm button's text while the change runs. */
  working: string;
  cancel: string;
  /** The dialog's extra part name. */
  part: PartName;
  /** How the confirm button looks: `danger` for what cannot be undone. */
  tone: 'primary' | 'danger';
  /** Makes the change, then what follows it; a failed call throws, and nothing follows. */
  run: () => Promise<void>;
}

export interface ConfirmationOptions {
  strings: SettingsStrings;
  /** The client at the moment of the change (the element's `api` and `fetch` then). */
  client: () => ManagementClient;
  after: AfterChange;
}

/** The confirmation of `change` to `webhook`. */
export function confirmationOf(
  change: ConfirmedChange,
  webhook: SettingsWebhook,
  { strings, client, after }: ConfirmationOptions,
): Confirmation {
  if (change === 'rotate')
    return {
      title: strings.rotateTitle(webhook.name),
      message: strings.rotateConfirm(webhook.name),
      confirm: strings.rotateYes,
      working: strings.rotating,
      cancel: strings.cancel,
      part: 'rotate-dialog',
      tone: 'primary',
      run: async () => {
        const rotated = await client().rotate(webhook.id);
        after.handOver();
        after.changed('webhook-rotated', rotated.webhook, strings.announceRotated(rotated.webhook.name));
        after.showUrl(rotated.webhook, rotated.url, true);
      },
    };
  return {
    title: strings.revokeTitle(webhook.name),
    message: strings.revokeConfirm(webhook.name),
    confirm: strings.revokeYes,
    working: strings.revoking,
    cancel: strings.cancel,
    part: 'revoke-dialog',
    tone: 'danger',
    run: async () => {
      const revoked = await client().revoke(webhook.id);
      after.changed('webhook-revoked', revoked, strings.announceRevoked(revoked.name));
      after.close();
    },
  };
}
