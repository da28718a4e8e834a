// A failed call to the management API in the reader's words: what happened and what to do next,
// never a bare status. The alert of a failed load, a dialog's failure and a test message's all
// say it the same way.
import { ManagementFailure } from './management-client.js';
import type { SettingsStrings } from './settings-strings.js';

/** `failure` (a {@link ManagementFailure}, or anything a call threw) in `strings`' words, about the channel `channelName`. */
export function describeFailure(failure: unknown, strings: SettingsStrings, channelName: string): string {
  if (!(failure instanceof ManagementFailure)) return strings.errorServer(0);
  switch (failure.kind) {
    case 'signed_out':
      return strings.errorSignedOut;
    case 'not_allowed':
      return strings.errorNotAllowed(channelName);
    case 'webhook_gone':
      return strings.errorWebhookGone;
    case 'refused':
      return strings.errorRefused;
    case 'archived':
      return strings.errorArchived(channelName);
    case 'network':
      return strings.errorNetwork;
    case 'unavailable':
      return strings.historyUnavailable;
    case 'test_unavailable':
      return strings.testUnavailable;
    default:
      return strings.errorServer(failure.status);
  }
}

/** Whether a failure to load leaves the reader nothing to create: signed out, or not allowed to manage the channel. */
export function locksOut(failure: unknown): boolean {
  return failure instanceof ManagementFailure && (failure.kind === 'signed_out' || failure.kind === 'not_allowed');
}

/** Whether a failure is the API's "not yours to manage" (or no such channel): the calm state, not an error. */
export function isNotAllowed(failure: unknown): boolean {
  return failure instanceof ManagementFailure && failure.kind === 'not_allowed';
}
