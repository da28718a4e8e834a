import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createNodeListener } from '../../adapters/frameworks/node/index.js';
import {
  createMemoryRateLimiter,
  createMemoryStore,
  createWebhookHandler,
  createWebhookManager,
  type MemoryStore,
} from '../../src/index.js';
import { listen, type Listening } from '../support/http.js';

/**
 * What the proxy does with one request:
 * - `pass`: forwards it to the real endpoint and relays the answer; `pieces`: relays the answer with its
 *   body cut inside each character of several bytes, one piece at a time;
 * - `drop`: closes the connection without forwarding; `drop_after`: forwards it (the message may be
 *   stored), then closes the connection instead of answering;
 * - `stall`: never answers; `stall_after`: forwards it, then never answers;
 * - `500`, `429` (with `Retry-After: 2`): answers so itself, as an overloaded endpoint would;
 * - `408`: answers so itself, as a proxy in front of the endpoint does when a request was slow to arrive;
 * - `400`, `404`, `409`, `413`, `415`: answers with that refusal.
 */
export type Fault =
  | 'pass'
  | 'pieces'
  | 'drop'
  | 'drop_after'
  | 'stall'
  | 'stall_after'
  | '500'
  | '429'
  | '408'
  | Refusal;
export type Refusal = '400' | '404' | '409' | '413' | '415';
export const REFUSALS: readonly Refusal[] = ['400', '404', '409', '413', '415'];
export const TRANSIENT_FAULTS: readonly Fault[] = ['drop', 'drop_after', 'stall', 'stall_after', '500', '429', '408'];

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** One request the proxy saw. */
export interface Seen {
  key: string | undefined;
  body: string;
  fault: Fault;
}

export interface FaultyEndpoint {
  store: MemoryStore;
  /** The webhook URL through the proxy. */
  url: string;
  /** The webhook URL of the real endpoint. */
  directUrl: string;
  /** Faults for the next requests, in order; once used up, every request passes. */
  inject(faults: Fault[]): void;
  seen: Seen[];
  close(): Promise<void>;
}

/** The real handler over real HTTP, on the memory store, behind a proxy that injects faults. */
export async function startFaultyEndpoint(): Promise<FaultyEndpoint> {
  const store = createMemoryStore();
  store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
  const handle = createWebhookHandler({ store, rateLimiter: createMemoryRateLimiter({ limit: 1_000_000 }) });
  const real = await listen(createServer(createNodeListener(handle)));
  const { url } = await manager.create({ userId: 'u1', role: 'member' }, { channelId: 'general', name: 'CI' });
  const path = new URL(url).pathname;
  let faults: Fault[] = [];
  const seen: Seen[] = [];

  const forward = async (req: IncomingMessage, body: string) =>
    fetch(`${real.origin}${req.url}`, {
      method: req.method,
      headers: {
        'content-type': String(req.headers['content-type']),
        ...(req.headers['idempotency-key'] ? { 'idempotency-key': String(req.headers['idempotency-key']) } : {}),
      },
      body,
    });
  const problem = (res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}) =>
    res
      .writeHead(status, { 'content-type': 'application/problem+json', ...headers })
      .end(JSON.stringify({ type: 'about:blank', title: code, status, detail: `injected ${status}`, code }));

  const proxy: Listening = await listen(
    createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of req) chunks.push(chunk as Buffer);
      } catch {
        // The client gave up before its body arrived: no request to record.
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const fault = faults.shift() ?? 'pass';
      // One connection per request: a client that reuses a connection may resend on it by itself
      // when the proxy drops it (Deno's does), and each attempt is to reach the proxy once.
      res.shouldKeepAlive = false;
      seen.push({ key: req.headers['idempotency-key'] as string | undefined, body, fault });
      switch (fault) {
        case 'pass': {
          const answer = await forward(req, body);
          const headers: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (!HOP_BY_HOP.has(name)) headers[name] = value;
          });
          res.writeHead(answer.status, headers).end(await answer.text());
          return;
        }
        case 'pieces': {
          const answer = await forward(req, body);
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          const bytes = Buffer.from(await answer.arrayBuffer());
          let from = 0;
          for (let at = 1; at < bytes.length; at++) {
            // A continuation byte: the piece ends inside a character.
            if ((bytes[at]! & 0xc0) !== 0x80 || (bytes[at - 1]! & 0xc0) === 0x80) continue;
            res.write(bytes.subarray(from, at));
            from = at;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          res.end(bytes.subarray(from));
          return;
        }
        case 'drop_after':
          await (await forward(req, body)).text();
          res.socket?.destroy();
          return;
        case 'drop':
          res.socket?.destroy();
          return;
        case 'stall_after':
          await (await forward(req, body)).text();
          return;
        case 'stall':
          return;
        case '500':
          return problem(res, 500, 'store_failed');
        case '429':
          return problem(res, 429, 'rate_limited', { 'retry-after': '2', ratelimit: '"default";r=0;t=2' });
        case '408':
          return problem(res, 408, 'request_timeout');
        default:
          return problem(res, Number(fault), `refused_${fault}`);
      }
    }),
  );
  return {
    store,
    url: `${proxy.origin}${path}`,
    directUrl: `${real.origin}${path}`,
    inject: (next) => {
      faults = [...next];
    },
    seen,
    close: async () => {
      await proxy.close();
      await real.close();
    },
  };
}
