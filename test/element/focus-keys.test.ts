import { describe, expect, it } from 'vitest';
import { actionKey, focusCandidates } from '../../src/element/focus-keys.js';

// Rule: the focus goes back to the control that had it or opened a dialog; when that control is
// gone (Rotate and Revoke of a webhook just revoked), to the same webhook's Recent posts, then to
// New webhook (the title, in the element, past every key).
describe('where the focus goes back to', () => {
  it("a webhook's button, then its Recent posts, then New webhook", () => {
    expect(focusCandidates(actionKey('revoke', 'wh_5kQ2'))).toEqual(['revoke:wh_5kQ2', 'history:wh_5kQ2', 'new']);
    expect(focusCandidates(actionKey('history', 'wh_5kQ2'))).toEqual(['history:wh_5kQ2', 'history:wh_5kQ2', 'new']);
  });

  it('a control of the screen, then New webhook', () => {
    expect(focusCandidates('new-empty')).toEqual(['new-empty', 'new']);
    expect(focusCandidates('retry')).toEqual(['retry', 'new']);
  });

  it('a webhook id is everything after the first colon', () => {
    expect(focusCandidates('rotate:wh:odd')).toEqual(['rotate:wh:odd', 'history:wh:odd', 'new']);
  });
});
