/** Largest accepted request body, in bytes (the contract's 64 KiB). */
export const MAX_BODY_BYTES = 65_536;
/** Requests per webhook per window, by default. */
export const DEFAULT_RATE_LIMIT = 60;
/** The rate-limit window, by default, in ms. */
export const DEFAULT_RATE_WINDOW_MS = 60_000;
