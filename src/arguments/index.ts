/**
 * The option-checking rules: what every factory of the package (the core's, the adapters', the
 * stores') uses to refuse an argument it cannot work with when the app is built, with code
 * `invalid_argument`, a message that names the factory, and the option meant for a typo.
 *
 * @module
 */
export {
  BOOLEAN,
  EPOCH_MS,
  HTTP_URL,
  MILLISECONDS,
  POSITIVE_MS,
  fn,
  integer,
  oneOf,
  port,
  required,
  rule,
  type ArgumentRule,
} from './argument-rules.js';
export { checkArgument, checkOptions, invalidArgument, type OptionsShape } from './check-options.js';
export { CLOCK, HANDLE, HANDLER_STORE, HIT_TIME, MANAGER_STORE, RATE_LIMITER } from './port-rules.js';
