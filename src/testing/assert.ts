/**
 * Thrown by the conformance suites' checks. Its message says what was expected and what came.
 *
 * @example
 * ```text
 * ConformanceError: number of callers told created: true: expected 1, got 2
 * ```
 */
export class ConformanceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConformanceError';
  }
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ConformanceError(message);
}

/** Strict equality of primitives (`Object.is`). */
export function checkEqual(actual: unknown, expected: unknown, what: string): void {
  if (!Object.is(actual, expected)) {
    throw new ConformanceError(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  }
}

/**
 * Deep equality of JSON-like values: same types, same array items in order, same own keys with
 * deeply equal values (a key set to `undefined` differs from a missing key).
 */
export function checkDeepEqual(actual: unknown, expected: unknown, what: string): void {
  const difference = findDifference(actual, expected, '');
  if (difference !== null) {
    throw new ConformanceError(
      `${what}: differs at ${difference.path || '(root)'}: expected ${show(difference.expected)}, got ${show(difference.actual)}`,
    );
  }
}

/** Awaits `work` and checks that it rejected. */
export async function checkRejects(work: () => unknown, what: string): Promise<void> {
  let result: unknown;
  try {
    result = await work();
  } catch {
    return;
  }
  throw new ConformanceError(`${what}: expected a failure (throw or rejection), got ${show(result)}`);
}

interface Difference {
  path: string;
  actual: unknown;
  expected: unknown;
}

function findDifference(actual: unknown, expected: unknown, path: string): Difference | null {
  if (Object.is(actual, expected)) return null;
  if (typeof actual !== 'object' || typeof expected !== 'object' || actual === null || expected === null) {
    return { path, actual, expected };
  }
  if (Array.isArray(actual) !== Array.isArray(expected)) return { path, actual, expected };
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length)
      return { path: `${path}.length`, actual: actual.length, expected: expected.length };
    for (let i = 0; i < expected.length; i++) {
      const inner = findDifference(actual[i], expected[i], `${path}[${i}]`);
      if (inner !== null) return inner;
    }
    return null;
  }
  const actualRecord = actual as Record<string, unknown>;
  const expectedRecord = expected as Record<string, unknown>;
  for (const key of Object.keys(expectedRecord)) {
    if (!Object.hasOwn(actualRecord, key))
      return { path: `${path}.${key}`, actual: '(missing)', expected: expectedRecord[key] };
    const inner = findDifference(actualRecord[key], expectedRecord[key], `${path}.${key}`);
    if (inner !== null) return inner;
  }
  for (const key of Object.keys(actualRecord)) {
    if (!Object.hasOwn(expectedRecord, key))
      return { path: `${path}.${key}`, actual: actualRecord[key], expected: '(missing)' };
  }
  return null;
}

function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  try {
    const text = JSON.stringify(value);
    return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  } catch {
    return String(value);
  }
}
