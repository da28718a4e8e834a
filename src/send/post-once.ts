import type { ProblemBody } from '../http/problem.js';
import type { Message } from '../ports.js';
import { requestedWait } from './retry-timing.js';

/** What one attempt came to. */
export type AttemptResult =
  | { kind: 'stored'; status: 200 | 201; message: Message; duplicate: boolean }
  | { kind: 'refused'; status: number; problem: ProblemBody | null }
  | {
      kind: 'transient';
      status: number | null;
      problem: ProblemBody | null;
      error: 'network' | 'timeout' | 'bad_response' | null;
      /** What the answer asked to wait, or `null`. */
      waitMs: number | null;
      cause?: unknown;
    }
  | { kind: 'aborted' };

export interface Attempt {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  url: string;
  body: string;
  key: string;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  now: () => number;
}

/**
 * One POST, abandoned after `timeoutMs` (the answer's body included) or when `signal` aborts.
 * A 5xx, 408 and 429 are transient: with the same key a retry is safe and may succeed. Every other
 * answer but 200 and 201 is a refusal that the same request would meet again.
 */
export async function postOnce(attempt: Attempt): Promise<AttemptResult> {
  const { signal } = attempt;
  if (signal?.aborted) return { kind: 'aborted' };
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
      headers: { 'content-type': 'application/json', 'idempotency-key': attempt.key },
      body: attempt.body,
      signal: controller.signal,
    });
    return judge(response.status, parseJson(await response.text()), response.headers, attempt.now());
  } catch (cause) {
    if (signal?.aborted) return { kind: 'aborted' };
    return { kind: 'transient', status: null, problem: null, error: timedOut ? 'timeout' : 'network', waitMs: null, cause };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
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
  return typeof problem === 'object' && problem !== null && typeof problem.code === 'string' ? (problem as ProblemBody) : null;
}
