import type { ProblemBody } from '../http/problem.js';
import type { Message } from '../ports.js';
import { discard, readAnswer } from './read-answer.js';
import { requestedWait } from './retry-timing.js';
import { scrubCause } from './scrub.js';
import type { SendErrorCause } from './send-types.js';

/** What one attempt came to. */
export type AttemptResult =
  | { kind: 'stored'; status: 200 | 201; message: Message; duplicate: boolean }
  | { kind: 'refused'; status: number; problem: ProblemBody | null }
  /** A 3xx; `status` is `null` where fetch hides it (a browser's opaque redirect). */
  | { kind: 'redirected'; status: number | null }
  | { kind: 'answer_too_large'; status: number }
  | {
      kind: 'transient';
      status: number | null;
      problem: ProblemBody | null;
      error: 'no_connection' | 'network' | 'timeout' | 'bad_response' | null;
      /** What the answer asked to wait, or `null`. */
      waitMs: number | null;
      cause?: SendErrorCause;
    }
  /** `sent`: whether the request had left when the signal stopped it. */
  | { kind: 'aborted'; sent: boolean };

export interface Attempt {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  now: () => number;
  /** Takes the URL's secret out of a text: the answer's, and an error's. */
  scrub: (text: string) => string;
}

/**
 * One POST, abandoned after `timeoutMs` (the answer's body included) or when `signal` aborts.
 * A 5xx, 408 and 429 are transient: with the same key a retry is safe and may succeed. A redirect
 * is never followed (it would carry the body, the key and the secret URL to wherever it points), and
 * at most `MAX_ANSWER_BYTES` of an answer are read. Every other answer but 200 and 201 is a refusal
 * that the same request would meet again.
 */
export async function postOnce(attempt: Attempt): Promise<AttemptResult> {
  const { signal } = attempt;
  if (signal?.aborted) return { kind: 'aborted', sent: false };
  const controller = new AbortController();
  const forward = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, attempt.timeoutMs);
  try {
    const response = await attempt.fetch(attempt.url, {
      method: 'POST',
      headers: attempt.headers,
      body: attempt.body,
      // Node's fetch answers a 3xx as it is; a browser's answers an opaque redirect of status 0.
      redirect: 'manual',
      signal: controller.signal,
    });
    if (
      response.type === 'opaqueredirect' ||
      response.redirected ||
      (response.status >= 300 && response.status < 400)
    ) {
      discard(response);
      return { kind: 'redirected', status: response.status >= 300 && response.status < 400 ? response.status : null };
    }
    const text = await readAnswer(response);
    if (text === null) return { kind: 'answer_too_large', status: response.status };
    return judge(response.status, parseJson(attempt.scrub(text)), response.headers, attempt.now());
  } catch (error) {
    if (signal?.aborted) return { kind: 'aborted', sent: true };
    const cause = scrubCause(error, attempt.scrub);
    return {
      kind: 'transient',
      status: null,
      problem: null,
      error: timedOut ? 'timeout' : connectionError(cause),
      waitMs: null,
      cause,
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
}

// Codes of errors met before a connection was made, so before anything was sent: refused, no such
// host, no route, a certificate the client does not trust. Node's and Bun's names; a runtime that
// gives no code (Deno, browsers) gets `network`, the cautious answer.
const NO_CONNECTION = new Set([
  'ECONNREFUSED',
  'ConnectionRefused',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const CERTIFICATE = /CERT|^ERR_TLS_/;

function connectionError(cause: SendErrorCause): 'no_connection' | 'network' {
  for (let link: SendErrorCause | undefined = cause; link !== undefined; link = link.cause) {
    if (link.code !== undefined && (NO_CONNECTION.has(link.code) || CERTIFICATE.test(link.code)))
      return 'no_connection';
  }
  return 'network';
}

function judge(status: number, body: unknown, headers: Headers, now: number): AttemptResult {
  if (status === 200 || status === 201) {
    const stored = body as { message?: { id?: unknown }; duplicate?: unknown } | undefined;
    if (typeof stored?.message?.id === 'string' && typeof stored.duplicate === 'boolean') {
      return { kind: 'stored', status, message: stored.message as Message, duplicate: stored.duplicate };
    }
  }
  const problem = asProblem(body);
  if (status === 408 || status === 429 || status >= 500) {
    return { kind: 'transient', status, problem, error: null, waitMs: requestedWait(headers, now) };
  }
  // A 2xx without a stored message (a proxy's answer, a cut body): asking again with the same key is safe.
  if (status >= 200 && status < 300) return { kind: 'transient', status, problem, error: 'bad_response', waitMs: null };
  return { kind: 'refused', status, problem };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function asProblem(body: unknown): ProblemBody | null {
  const problem = body as Partial<ProblemBody> | undefined;
  return typeof problem === 'object' && problem !== null && typeof problem.code === 'string'
    ? (problem as ProblemBody)
    : null;
}
