import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../../src/index.js';
import type { WebhookStore } from '../../../src/ports.js';
import { frameworkTargets } from '../../support/frameworks.js';
import { abortMidBody, send, type Listening } from '../../support/http.js';
import { setup, type World } from '../../support/setup.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe.each(frameworkTargets)('a client that misbehaves mid-body through $name', (target) => {
  let fixture: World;
  let app: Listening;
  let requests: IncomingMessage[];

  beforeEach(async () => {
    fixture = await setup();
    app = await target.start(fixture.handle);
    requests = [];
    app.server.on('request', (req: IncomingMessage) => requests.push(req));
    return () => app.close();
  });

  it('aborting mid-body stores nothing, leaves no listener behind, and the server keeps serving', async () => {
    await abortMidBody(`${app.origin}/api${fixture.path}`, 40_000, 10_000);
    await settle();
    expect(await fixture.messages()).toEqual([]);
    const [aborted] = requests;
    expect(aborted!.destroyed).toBe(true);
    expect(['data', 'end', 'error'].map((event) => aborted!.listenerCount(event))).toEqual([0, 0, 0]);

    const after = await send(`${app.origin}/api${fixture.path}`, { body: { text: 'still here' } });
    expect(after.status).toBe(201);
    expect((await fixture.messages()).map((message) => message.body)).toEqual(['still here']);
  });

  // A hung-up request's stream is destroyed, which also looks like a stream a body parser drained:
  // the client leaving during a slow lookup must not be reported as a mounting mistake.
  it('a client that hangs up while its webhook is looked up is not reported as a misconfiguration', async () => {
    const reports: unknown[] = [];
    const slowStore: WebhookStore = {
      ...fixture.store,
      getWebhook: (id) => new Promise((resolve) => setTimeout(() => resolve(fixture.store.getWebhook(id)), 150)),
    };
    const slow = await target.start(
      createWebhookHandler({ store: slowStore, onError: (error) => reports.push(error) }),
    );
    try {
      const body = JSON.stringify({ text: 'sent, then gone' });
      const socket = connect(Number(new URL(slow.origin).port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(
        `POST /api${fixture.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 30));
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(reports.filter((error) => (error as { code?: string }).code === 'misconfigured')).toEqual([]);
      expect((await send(`${slow.origin}/api${fixture.path}`, { body: { text: 'next' } })).status).toBe(201);
    } finally {
      await slow.close();
    }
  });

  it('aborting a chunked body stores nothing and the server keeps serving', async () => {
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${app.origin}/api${fixture.path}`, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      req.on('error', () => undefined);
      req.on('close', () => resolve());
      req.write('{"text":"never finished', () => setTimeout(() => req.destroy(), 50));
    });
    await settle();
    expect(await fixture.messages()).toEqual([]);
    expect((await send(`${app.origin}/api${fixture.path}`, { body: { text: 'next' } })).status).toBe(201);
  });

  it('a slow client that sends its body in pauses is answered normally', async () => {
    const body = Buffer.from(JSON.stringify({ text: 'slowly but surely' }));
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        `${app.origin}/api${fixture.path}`,
        {
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      let offset = 0;
      const tick = () => {
        req.write(body.subarray(offset, offset + 8));
        offset += 8;
        if (offset < body.length) setTimeout(tick, 30);
        else req.end();
      };
      tick();
    });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.text).message.body).toBe('slowly but surely');
  });
});
