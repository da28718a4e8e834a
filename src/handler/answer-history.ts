// The handler's side of the post history: a post that proved its secret has its answer, whatever
// it is, recorded once it is known, and the answer goes out unchanged. The recorder batches the
// records off the answer's path; nothing here waits, and a failure is reported, never answered.
import type { WebhookResponse } from '../http/http-types.js';
import { createPostRecorder } from '../history/create-post-recorder.js';
import { postRecordOf } from '../history/post-record.js';
import type { Clock, PostHistoryStore } from '../ports.js';
import type { Deadline } from '../waiting/deadline.js';
import { isThenable, type MaybePromise } from '../waiting/maybe-promise.js';
import type { ErrorContext } from './handler-types.js';

/** What the history keeps of a post besides its answer, as the steps learnt it. */
export interface RecordedPost {
  readonly webhook: { readonly id: string };
  readonly key: string | null;
  readonly bodyBytes: number | null;
}

/** Records `response` once it is known, and hands it back unchanged. */
export type RecordAnswer = (
  post: RecordedPost,
  response: MaybePromise<WebhookResponse>,
) => MaybePromise<WebhookResponse>;

export interface AnswerHistoryOptions {
  store: Partial<PostHistoryStore>;
  /** The handler's deadline for the store. */
  deadline: Deadline;
  clock: Clock;
  report: (error: unknown, context: ErrorContext) => void;
}

/** The recording of answers into `store`'s history; `null` when the store keeps none (no `recordPosts`). */
export function createAnswerHistory({ store, deadline, clock, report }: AnswerHistoryOptions): RecordAnswer | null {
  if (store.recordPosts === undefined) return null;
  const recorder = createPostRecorder({
    recordPosts: (records) => store.recordPosts!(records),
    deadline,
    report: (error) => report(error, { stage: 'history' }),
  });

  function keep(post: RecordedPost, response: WebhookResponse): WebhookResponse {
    try {
      recorder.record(postRecordOf(post.webhook.id, clock.now(), response, post.key, post.bodyBytes));
    } catch (error) {
      report(error, { stage: 'history', webhookId: post.webhook.id });
    }
    return response;
  }

  return (post, response) => {
    if (!isThenable(response)) return keep(post, response);
    return Promise.resolve(response).then((settled) => keep(post, settled));
  };
}
