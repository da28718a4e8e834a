import type { FieldError } from '../http/problem.js';
import type { WebhookResponse } from '../http/http-types.js';
import { bodyBytes, declaredLength, decodeBody, readFailed } from '../handler/read-body.js';
import { boundPointer } from '../validation/text.js';
import { describeError, type Checker } from '../validation/compile.js';
import type { ManagementRequest } from './management-types.js';
import { managementProblem } from './management-problems.js';

/** Largest body the management API reads, in bytes: a webhook's name and profile at their longest fit with room to spare. */
export const MAX_MANAGEMENT_BODY_BYTES = 32_768;

/** Most field errors a 400 lists. */
const MAX_FIELD_ERRORS = 10;

/** What reading a body came to: its JSON object, or the answer to give instead (and, for a 500, what to report). */
export type BodyRead =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; response: WebhookResponse; failure?: unknown };

/**
 * Reads a write's body: at most {@link MAX_MANAGEMENT_BODY_BYTES}, UTF-8 JSON, an object of the
 * shape `checker` states (no body at all counts as `{}`); `refusals` says why a field is refused,
 * by its pointer, where "is not an allowed property" would say too little. An `untyped` request
 * (no `Content-Type`, let through for a route that takes nothing) must bring no body at all: any
 * byte of one is 415, as its missing type would have been. Never throws.
 */
export async function readJsonBody(
  request: ManagementRequest,
  checker: Checker,
  refusals: Readonly<Record<string, string>> = {},
  untyped = false,
): Promise<BodyRead> {
  const declared = declaredLength(request.headers);
  if (declared !== null && declared > MAX_MANAGEMENT_BODY_BYTES) return refused(managementProblem('payload_too_large'));
  let raw: Awaited<ReturnType<ManagementRequest['body']>>;
  try {
    raw = await request.body(MAX_MANAGEMENT_BODY_BYTES, declared);
  } catch (error) {
    const failed = readFailed(error);
    if (failed.kind === 'too_large') return refused(managementProblem('payload_too_large'));
    if (failed.kind === 'misconfigured')
      return { ok: false, response: managementProblem('misconfigured', failed.error.message), failure: failed.error };
    return refused(managementProblem('body_read_failed'));
  }
  const size = bodyBytes(raw);
  if (untyped && size !== 0) return refused(managementProblem('unsupported_media_type'));
  if ((size ?? 0) > MAX_MANAGEMENT_BODY_BYTES) return refused(managementProblem('payload_too_large'));
  const decoded = decodeBody(raw);
  if (decoded.kind === 'misconfigured')
    return { ok: false, response: managementProblem('misconfigured', decoded.error.message), failure: decoded.error };
  if (decoded.kind !== 'text') return refused(managementProblem('invalid_json', 'The body is not UTF-8 JSON.'));
  let value: unknown;
  try {
    value = decoded.text.trim() === '' ? {} : JSON.parse(decoded.text);
  } catch {
    // Never the parser's message: it quotes the body.
    return refused(
      managementProblem('invalid_json', undefined, { errors: [{ pointer: '', message: 'must be valid JSON' }] }),
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refused(
      managementProblem('invalid_json', undefined, { errors: [{ pointer: '', message: 'must be an object' }] }),
    );
  }
  if (!checker.check(value)) return refused(invalidFields(fieldErrors(checker, value, refusals)));
  return { ok: true, value: value as Record<string, unknown> };
}

/** A 400 `invalid_argument` listing `errors`. */
export function invalidFields(errors: FieldError[]): WebhookResponse {
  const detail =
    errors.length === 1 ? 'One field is invalid; see errors.' : `${errors.length} fields are invalid; see errors.`;
  return managementProblem('invalid_argument', detail, { errors });
}

function fieldErrors(checker: Checker, value: unknown, refusals: Readonly<Record<string, string>>): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const error of checker.errors(value)) {
    const pointer = boundPointer(error.path);
    if (seen.has(pointer)) continue;
    seen.add(pointer);
    const message =
      refusals[pointer] ?? (isStringOrNull(error.schema) ? 'must be a string or null' : describeError(error));
    errors.push({ pointer, message });
    if (errors.length === MAX_FIELD_ERRORS) break;
  }
  return errors;
}

const refused = (response: WebhookResponse): BodyRead => ({ ok: false, response });

// The profile's fields: a string, or null to clear one.
function isStringOrNull(schema: unknown): boolean {
  const anyOf = (schema as { anyOf?: Array<{ type?: unknown }> }).anyOf;
  return anyOf?.length === 2 && anyOf[0]!.type === 'string' && anyOf[1]!.type === 'null';
}
