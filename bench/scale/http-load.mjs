// Load over node:http from this process with autocannon: every request goes to a webhook the
// caller picks, with the idempotency key it gives.

import autocannon from 'autocannon';
import { SMOKE_LOAD } from '../internal.mjs';
import { SMALL } from '../payloads.mjs';

const body = Buffer.from(SMALL);

/**
 * Posts to `port` for `seconds` over `connections` keep-alive connections. `next()` returns
 * `{ path, key? }` for each request; `onAnswer(post, status)`, when given, hears every answer.
 * Returns posts/s and p50/p99. Requests still in flight at the end are not answered nor counted.
 * @template {{ path: string; key?: string | undefined }} Post
 * @param {{ port: number; seconds: number; connections: number; next: () => Post; onAnswer?: (post: Post, status: number) => void }} options
 */
export async function httpLoad({ port, seconds, connections, next, onAnswer }) {
  const result = await autocannon({
    ...SMOKE_LOAD,
    url: `http://127.0.0.1:${port}`,
    connections,
    pipelining: 1,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        body,
        setupRequest: (request, /** @type {{ post?: Post }} */ context) => {
          const post = next();
          const { path, key } = post;
          context.post = post;
          request.path = path;
          request.headers =
            key === undefined
              ? { 'content-type': 'application/json' }
              : { 'content-type': 'application/json', 'idempotency-key': key };
          return request;
        },
        // Only when asked: reading every answer costs the load generator a third of its rate.
        onResponse:
          onAnswer === undefined
            ? undefined
            : (status, _body, context) => onAnswer(/** @type {{ post: Post }} */ (context).post, status),
      },
    ],
  });
  const answered = result['2xx'] + result.non2xx;
  return {
    posts: answered,
    perSecond: Math.round(result['2xx'] / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
  };
}
