import { ChannelWebhookError } from '../../../src/store-kit/index.js';

/**
 * Runs `lookup` in one of the gate's slots. `proven` lookups are those of a credential (webhook id
 * and secret hash) that this store saw accepted: they wait in a lane of their own, and every freed
 * slot goes to them before any other lookup.
 */
export type LookupGate = <T>(proven: boolean, lookup: () => Promise<T>) => Promise<T>;

/**
 * Bounds the webhook lookups one store runs at once. Each post to an unknown (but well-formed) id
 * costs a lookup, so a flood of random ids would otherwise take every pool connection and make
 * legitimate posts wait behind it. At most `concurrent` lookups run, at most `queued` more wait in
 * each lane, and past that a lookup fails at once with `store_failed` (the poster gets a 500 and
 * retries) instead of queuing without bound. `store` names the store in that error.
 *
 * A flood keeps the open lane full, so a post there is refused most of the time; a post whose
 * credential was accepted before waits in the proven lane, which a flood without credentials cannot
 * reach, for the next freed slot. The lane is chosen by the whole credential, never by the id alone:
 * a wrong secret for a real id goes where an unknown id goes, and meets the same odds.
 *
 * Lookups of one id are deliberately not shared: a lookup that joined one sent before a revocation
 * completed would read the webhook as it was before it.
 */
export function createLookupGate(concurrent: number, queued: number, store: string): LookupGate {
  const provenWaiting: Array<() => void> = [];
  const openWaiting: Array<() => void> = [];
  let running = 0;

  return async (proven, lookup) => {
    const waiting = proven ? provenWaiting : openWaiting;
    if (running < concurrent) running++;
    else if (waiting.length < queued) await new Promise<void>((resolve) => waiting.push(resolve));
    else throw new ChannelWebhookError('store_failed', `${store}: too many webhook lookups at once; retry later`);
    try {
      return await lookup();
    } finally {
      // Hand the slot straight to the next waiter, so a lookup arriving meanwhile cannot jump the queue.
      const next = provenWaiting.shift() ?? openWaiting.shift();
      if (next === undefined) running--;
      else next();
    }
  };
}

/**
 * The credentials (webhook id → secret hash) this store saw accepted or issued lately: those that
 * stored a message, and those it created or rotated. At most `capacity`, the least recently proven
 * forgotten first; a revocation, or an insert refused for that hash, forgets the id at once.
 * Being proven only chooses the lookup's lane: the lookup still reads the database, and the guarded
 * insert still checks the credential against the newest committed row.
 */
export function createProvenCredentials(capacity: number) {
  const hashes = new Map<string, string>();
  return {
    // `===` may stop at the first differing character, which says how far two SHA-256 digests agree:
    // nothing about a secret.
    has: (webhookId: string, secretHash: string | undefined): boolean =>
      secretHash !== undefined && hashes.get(webhookId) === secretHash,
    prove(webhookId: string, secretHash: string): void {
      hashes.delete(webhookId);
      hashes.set(webhookId, secretHash);
      if (hashes.size > capacity) hashes.delete(hashes.keys().next().value!);
    },
    forget(webhookId: string, secretHash?: string): void {
      if (secretHash === undefined || hashes.get(webhookId) === secretHash) hashes.delete(webhookId);
    },
  };
}
