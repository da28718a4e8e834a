import { flatString } from './flat-string.js';

/** A new message's id: a random (version 4) UUID from the runtime's `crypto.randomUUID()`, as one flat string. */
export function newMessageId(): string {
  return flatString(crypto.randomUUID());
}
