import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../../support/http.js';
import { hasMiniflare, startTestWorker, workerdTitle, type TestWorker } from './support.js';

// Both conformance suites, run inside workerd against the Durable Object store and limiter of
// channel-webhooks/cloudflare (two store instances on the same objects): the suites are bundled
// into the test worker, and each of their tests is one request to it.
let worker: TestWorker;
let names: string[] = [];
if (hasMiniflare) {
  worker = await startTestWorker();
  names = (await send(`${worker.base}/__conformance`, { method: 'GET' })).json as string[];
}

describe.skipIf(!hasMiniflare)(
  workerdTitle('Durable Object store and rate limiter conformance, inside workerd'),
  () => {
    beforeAll(() => undefined);
    afterAll(() => worker?.dispose());

    it('registers both suites', () => {
      expect(names.filter((name) => name.startsWith('Durable Object store conformance')).length).toBeGreaterThanOrEqual(
        28,
      );
      expect(
        names.filter((name) => name.startsWith('Durable Object rate limiter conformance')).length,
      ).toBeGreaterThanOrEqual(8);
    });

    names.forEach((name, index) => {
      it(name, async (context) => {
        const outcome = (await send(`${worker.base}/__conformance`, { body: { index } })).json as {
          status: string;
          error?: string;
        };
        if (outcome.status === 'skipped') return context.skip(outcome.error);
        expect(outcome, outcome.error).toEqual({ status: 'passed' });
      });
    });
  },
);
