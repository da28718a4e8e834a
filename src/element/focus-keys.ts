// Every control the element may give the focus back to carries a key (`data-focus`): `new`, the
// empty state's `new-empty`, `retry`, and `history:<id>`, `rotate:<id>`, `revoke:<id>` for a
// webhook's buttons. A dialog remembers its opener's key rather than its node, because the list
// behind it is drawn again while it is open.
/** The key of a webhook's button. */
export function actionKey(action: 'history' | 'rotate' | 'revoke', webhookId: string): string {
  return `${action}:${webhookId}`;
}

/**
 * Where the focus goes for `key`, best first: that control; when it is gone (a revoked webhook has
 * no Rotate or Revoke), its webhook's Recent posts; else New webhook. Past them all, the title.
 */
export function focusCandidates(key: string): string[] {
  const separator = key.indexOf(':');
  return separator === -1 ? [key, 'new'] : [key, `history:${key.slice(separator + 1)}`, 'new'];
}
