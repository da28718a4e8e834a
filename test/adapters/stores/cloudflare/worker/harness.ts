// The smallest test framework the conformance suites need (`describe`, `it`, `it.skip`), so that
// they run inside workerd; the vitest test runs each registered test with one request and reads its
// outcome.
import type { TestApi } from '../../../../../src/testing/index.js';

export interface RegisteredTest {
  name: string;
  run: ((context: { skip: (reason?: string) => void }) => Promise<void>) | null;
}

export interface TestOutcome {
  status: 'passed' | 'failed' | 'skipped';
  error?: string;
}

/** Collects the tests `register` declares, with their `describe` names joined by ` > `. */
export function registerTests(register: (api: TestApi) => void): RegisteredTest[] {
  const tests: RegisteredTest[] = [];
  const path: string[] = [];
  const describe = (name: string, body: () => void) => {
    path.push(name);
    body();
    path.pop();
  };
  const it = Object.assign(
    (name: string, run: RegisteredTest['run']) => {
      tests.push({ name: [...path, name].join(' > '), run });
    },
    {
      skip: (name: string) => {
        tests.push({ name: [...path, name].join(' > '), run: null });
      },
    },
  );
  register({ describe, it });
  return tests;
}

export async function runRegisteredTest(test: RegisteredTest): Promise<TestOutcome> {
  if (test.run === null) return { status: 'skipped' };
  let skipped: string | undefined;
  try {
    await test.run({ skip: (reason) => (skipped = reason ?? 'skipped') });
  } catch (error) {
    return {
      status: 'failed',
      error: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error),
    };
  }
  return skipped === undefined ? { status: 'passed' } : { status: 'skipped', error: skipped };
}
