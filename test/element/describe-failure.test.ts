import { describe, expect, it } from 'vitest';
import { describeFailure, locksOut } from '../../src/element/describe-failure.js';
import { type FailureKind, ManagementFailure } from '../../src/element/management-client.js';
import { DEFAULT_STRINGS } from '../../src/element/settings-strings.js';

// Rule: every failure the element meets is told in words that say what happened and what to do,
// about the channel by its name; a failure that is not the API's (a defect, a throw of the app's
// fetch) reads as the server's, never as nothing.
const failure = (kind: FailureKind, status: number, code: string | null = null) =>
  new ManagementFailure(kind, status, code, 'the detail');

describe('a failure into words', () => {
  it.each([
    [failure('signed_out', 401, 'unauthenticated'), 'You are signed out. Sign in again, then retry.'],
    [
      failure('not_allowed', 404, 'channel_not_found'),
      'You may not manage the webhooks of #general, or it no longer exists. Ask its owner or an organization admin.',
    ],
    [
      failure('webhook_gone', 409, 'webhook_revoked'),
      'This webhook was revoked or removed meanwhile, or you may no longer manage it. The list is up to date again.',
    ],
    [
      failure('refused', 403, 'cross_site_request'),
      'The server refused this page: its management API answers pages of its own site only.',
    ],
    [
      failure('archived', 409, 'channel_archived'),
      '#general is archived: it takes no new webhook. Unarchive it first.',
    ],
    [failure('network', 0), 'The server could not be reached. Check the connection, then retry.'],
    [failure('unavailable', 501, 'history_unavailable'), 'This server keeps no history of posts.'],
    [
      failure('test_unavailable', 501, 'test_unavailable'),
      'This server cannot send a test message: run the curl line instead.',
    ],
    [failure('server', 500, 'internal_error'), 'The server could not do it (500). Retry in a moment.'],
    [failure('invalid', 400, 'invalid_name'), 'The server could not do it (400). Retry in a moment.'],
    [new TypeError('x is not a function'), 'The server could not do it (0). Retry in a moment.'],
    [undefined, 'The server could not do it (0). Retry in a moment.'],
  ])('%o reads: %s', (given, words) => {
    expect(describeFailure(given, DEFAULT_STRINGS, '#general')).toBe(words);
  });

  it("names the channel the element shows, in the app's own strings", () => {
    const strings = {
      ...DEFAULT_STRINGS,
      errorNotAllowed: (channel: string) => `Pas de droits sur ${channel}.`,
      errorServer: (status: number) => `Erreur ${status}.`,
    };
    expect(describeFailure(failure('not_allowed', 404), strings, '#déploiements')).toBe(
      'Pas de droits sur #déploiements.',
    );
    expect(describeFailure(failure('server', 502), strings, '#déploiements')).toBe('Erreur 502.');
  });

  it('only a reader signed out or not allowed is left with nothing to create', () => {
    const kinds: FailureKind[] = [
      'signed_out',
      'not_allowed',
      'webhook_gone',
      'refused',
      'archived',
      'invalid',
      'unavailable',
      'test_unavailable',
      'network',
      'server',
    ];
    expect(kinds.filter((kind) => locksOut(failure(kind, 400)))).toEqual(['signed_out', 'not_allowed']);
    expect([locksOut(null), locksOut(new Error('signed_out'))]).toEqual([false, false]);
  });
});
