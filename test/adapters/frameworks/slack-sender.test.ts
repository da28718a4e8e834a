import { IncomingWebhook, IncomingWebhookHTTPError } from '@slack/webhook';
import { beforeEach, describe, expect, it } from 'vitest';
import { frameworkTargets } from '../../support/frameworks.js';
import type { Listening } from '../../support/http.js';
import { setup, type World } from '../../support/setup.js';

const targets = frameworkTargets.filter((target) => target.name === 'Express 5' || target.name === 'fetch (Hono)');

describe.each(targets)('the official Slack sender (@slack/webhook) posting through $name', (target) => {
  let fixture: World;
  let app: Listening;
  let webhook: IncomingWebhook;

  beforeEach(async () => {
    fixture = await setup();
    app = await target.start(fixture.handle);
    webhook = new IncomingWebhook(`${app.origin}/api${fixture.path}`);
    return () => app.close();
  });

  it('sees a text post succeed', async () => {
    const result = await webhook.send('Build 42 passed');
    const [stored] = await fixture.messages();
    expect(stored!.body).toBe('Build 42 passed');
    expect(JSON.parse(result.text!)).toEqual({ message: stored, duplicate: false });
  });

  it('sees a post with text and blocks succeed', async () => {
    const blocks = [
      { type: 'header' as const, text: { type: 'plain_text' as const, text: 'Deploy' } },
      { type: 'section' as const, text: { type: 'mrkdwn' as const, text: '*prod* is on `v2.3.0`' } },
      { type: 'divider' as const },
    ];
    const result = await webhook.send({ text: 'Deploy: prod is on v2.3.0', blocks });
    const [stored] = await fixture.messages();
    expect(stored!.blocks).toEqual(blocks);
    expect(JSON.parse(result.text!)).toEqual({ message: stored, duplicate: false });
  });

  it('gets an HTTP error for a contract violation (an unknown field)', async () => {
    const failure = await webhook.send({ text: 'hi', username: 'deploy-bot' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(IncomingWebhookHTTPError);
    const { statusCode, body } = failure as IncomingWebhookHTTPError;
    expect(statusCode).toBe(400);
    expect(JSON.parse(body as string)).toMatchObject({
      status: 400,
      code: 'invalid_payload',
      errors: [{ pointer: '/username', message: expect.any(String) }],
    });
    expect(await fixture.messages()).toEqual([]);
  });
});
