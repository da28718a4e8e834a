// How the handler's steps follow one another: a step calls a port and names the step that goes on
// from its answer and the one that goes on from its failure. An answer that is a value goes on at
// once, so that a post over in-process ports makes no promise and no timer; only a thenable is
// waited for. A defect in a step is answered 500 through `crashed`, never thrown, so no promise of
// the handler rejects.
import type { WebhookResponse } from '../http/http-types.js';
import { isThenable, type MaybePromise } from '../waiting/maybe-promise.js';

/** A step that goes on from a port's answer, or from its failure. */
export type Step<C, T> = (context: C, value: T) => MaybePromise<WebhookResponse>;

export interface StepChain {
  /**
   * Calls a port, then goes on with `next` when it answers or with `failed` when it throws or
   * rejects: at once when the answer is a value, and once it settles when it is a thenable.
   */
  after<C, T>(
    context: C,
    call: (context: C) => MaybePromise<T>,
    next: Step<C, T>,
    failed: Step<C, unknown>,
  ): MaybePromise<WebhookResponse>;
  /** Runs a step; a throw is answered by `crashed`. */
  guarded<C, T>(step: Step<C, T>, context: C, value: T): MaybePromise<WebhookResponse>;
}

/** The two links of a handler whose defects `crashed` answers (and reports). */
export function createStepChain(crashed: (error: unknown) => WebhookResponse): StepChain {
  function after<C, T>(
    context: C,
    call: (context: C) => MaybePromise<T>,
    next: Step<C, T>,
    failed: Step<C, unknown>,
  ): MaybePromise<WebhookResponse> {
    let value: MaybePromise<T>;
    try {
      value = call(context);
    } catch (error) {
      return failed(context, error);
    }
    if (!isThenable(value)) return next(context, value);
    return Promise.resolve(value).then(
      (settled) => guarded(next, context, settled),
      (error: unknown) => guarded(failed, context, error),
    );
  }

  function guarded<C, T>(step: Step<C, T>, context: C, value: T): MaybePromise<WebhookResponse> {
    try {
      return step(context, value);
    } catch (error) {
      return crashed(error);
    }
  }

  return { after, guarded };
}
