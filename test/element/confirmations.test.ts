import { describe, expect, it } from 'vitest';
import { type AfterChange, confirmationOf } from '../../src/element/confirmations.js';
import type { ManagementClient } from '../../src/element/management-client.js';
import { DEFAULT_STRINGS } from '../../src/element/settings-strings.js';
import { world } from './management-world.js';

// The two confirmations, rotate and revoke, against the real management API: what each asks, how
// its button looks, and what follows the change, in order: a rotation hands its dialog over to the
// new URL's, a revocation closes its own. A failed change is followed by nothing.
async function confirming() {
  const w = await world();
  const { webhook, url } = await w.client.create('general', { name: 'Deploys' });
  const steps: unknown[][] = [];
  const after: AfterChange = {
    handOver: () => steps.push(['handOver']),
    changed: (type, changed, announcement) => steps.push(['changed', type, changed, announcement]),
    showUrl: (shown, shownUrl, rotated) => steps.push(['showUrl', shown, shownUrl, rotated]),
    close: () => steps.push(['close']),
  };
  let clients = 0;
  const clientNow = (): ManagementClient => {
    clients += 1;
    return w.client;
  };
  return { ...w, webhook, url, steps, after, clientNow, clients: () => clients };
}

describe('the confirmation of a rotation', () => {
  it('asks in its own words, on a primary button, in the rotate-dialog part', async () => {
    const c = await confirming();
    const { run, ...asked } = confirmationOf('rotate', c.webhook, {
      strings: DEFAULT_STRINGS,
      client: c.clientNow,
      after: c.after,
    });
    expect(asked).toEqual({
      title: 'Rotate the URL of “Deploys”?',
      message:
        'You get a new URL, shown once. The current URL stops working at once (it answers 404), so the sending system needs the new one.',
      confirm: 'Rotate URL',
      working: 'Rotating…',
      cancel: 'Cancel',
      part: 'rotate-dialog',
      tone: 'primary',
    });
    expect([typeof run, c.clients(), c.steps]).toEqual(['function', 0, []]);
  });

  it('rotates, hands its dialog over, shows the change and then the new URL, which posts while the old one is 404', async () => {
    const c = await confirming();
    await confirmationOf('rotate', c.webhook, { strings: DEFAULT_STRINGS, client: c.clientNow, after: c.after }).run();
    expect(c.clients()).toBe(1);
    const [listed] = await c.client.list('general');
    expect(listed?.rotatedAt).not.toBeNull();
    const newUrl = c.steps[2]?.[2] as string;
    expect(c.steps).toEqual([
      ['handOver'],
      ['changed', 'webhook-rotated', listed, 'The URL of “Deploys” was rotated.'],
      ['showUrl', listed, newUrl, true],
    ]);
    expect((await c.client.test(c.webhook.id, newUrl, 'new')).status).toBe(201);
    expect((await c.client.test(c.webhook.id, c.url, 'old')).status).toBe(404);
  });
});

describe('the confirmation of a revocation', () => {
  it('asks in its own words, on a danger button, in the revoke-dialog part', async () => {
    const c = await confirming();
    const { run: _, ...asked } = confirmationOf('revoke', c.webhook, {
      strings: DEFAULT_STRINGS,
      client: c.clientNow,
      after: c.after,
    });
    expect(asked).toEqual({
      title: 'Revoke “Deploys”?',
      message:
        'This cannot be undone. Its URL stops working at once and for good (it answers 404). To post again, create a new webhook.',
      confirm: 'Revoke for good',
      working: 'Revoking…',
      cancel: 'Cancel',
      part: 'revoke-dialog',
      tone: 'danger',
    });
  });

  it('revokes, shows the change in the strings it was opened with, and closes: no URL is shown', async () => {
    const c = await confirming();
    const strings = { ...DEFAULT_STRINGS, announceRevoked: (name: string) => `« ${name} » révoqué.` };
    await confirmationOf('revoke', c.webhook, { strings, client: c.clientNow, after: c.after }).run();
    const [listed] = await c.client.list('general');
    expect(listed?.status).toBe('revoked');
    expect(c.steps).toEqual([['changed', 'webhook-revoked', listed, '« Deploys » révoqué.'], ['close']]);
    expect((await c.client.test(c.webhook.id, c.url, 'after')).status).toBe(404);
  });
});

describe('a change that fails', () => {
  it.each(['rotate', 'revoke'] as const)('%s: throws the API’s failure, and nothing follows', async (change) => {
    const c = await confirming();
    const unknown = { ...c.webhook, id: 'wh_0000000000000000000000' };
    const run = confirmationOf(change, unknown, {
      strings: DEFAULT_STRINGS,
      client: c.clientNow,
      after: c.after,
    }).run();
    await expect(run).rejects.toMatchObject({
      name: 'ManagementFailure',
      kind: 'webhook_gone',
      code: 'webhook_not_found',
    });
    expect(c.steps).toEqual([]);
  });
});
