import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, createMemoryStore } from '../../src/index.js';
import { runRateLimiterConformance, runStoreConformance, type TestApi } from '../../src/testing/index.js';

/** A framework that records what a suite registers: each test's path, and whether it was skipped. */
function recorder(withSkip = true) {
  const tests: Array<{ name: string; skipped: boolean; run: () => Promise<void> }> = [];
  const path: string[] = [];
  const describe: TestApi['describe'] = (name, body) => {
    path.push(name);
    body();
    path.pop();
  };
  const register = (skipped: boolean) => (name: string, run: () => Promise<void>) =>
    tests.push({ name: [...path, name].join(' > '), skipped, run });
  const it: TestApi['it'] = Object.assign(register(false), withSkip ? { skip: register(true) } : {});
  return { describe, it, tests };
}

// Rule: a test a suite leaves out is registered as skipped, its name saying why, never left out
// unseen; each group runs alone; a framework without it.skip still sees the name.
describe('the conformance suites', () => {
  it('register the tests they leave out as skipped, with the reason', () => {
    const store = recorder();
    runStoreConformance({ ...store, createStore: () => createMemoryStore(), unusualStrings: false });
    expect(store.tests.filter((test) => test.skipped).map((test) => test.name)).toEqual([
      'WebhookStore conformance > messages > U+0000 and lone surrogates come back exactly, in the body, blocks and key (skipped: unusualStrings is false)',
      'WebhookStore conformance > guarded insert > a deleted channel stores nothing (channel_not_found) (skipped: options.deleteChannel is not given)',
    ]);
    const limiter = recorder();
    runRateLimiterConformance({
      ...limiter,
      createRateLimiter: (options) => createMemoryRateLimiter(options),
      checkDefaults: false,
    });
    expect(limiter.tests.filter((test) => test.skipped).map((test) => test.name)).toEqual([
      'RateLimiter conformance > window > without options it allows 60 requests per 60,000 ms (skipped: checkDefaults is false)',
    ]);
  });

  it('name a left-out test for a framework without it.skip too', () => {
    const store = recorder(false);
    runStoreConformance({ ...store, createStore: () => createMemoryStore() });
    expect(store.tests.map((test) => test.name)).toContain(
      'WebhookStore conformance > guarded insert > a deleted channel stores nothing (channel_not_found) (skipped: options.deleteChannel is not given)',
    );
  });

  it('run one group alone', async () => {
    const messages = recorder();
    runStoreConformance({ ...messages, createStore: () => createMemoryStore(), name: 'mine', groups: ['messages'] });
    expect(messages.tests.length).toBeGreaterThan(5);
    expect(messages.tests.every((test) => test.name.startsWith('mine > messages > '))).toBe(true);
    const races = recorder();
    runRateLimiterConformance({
      ...races,
      createRateLimiter: (options) => createMemoryRateLimiter(options),
      groups: ['races'],
    });
    expect(races.tests.map((test) => test.name)).toEqual([
      'RateLimiter conformance > races > 30 concurrent hits on one key allow exactly the limit',
    ]);
    for (const test of [...messages.tests, ...races.tests]) await test.run();
  });

  it('mark the listing test skipped at run time when the store cannot list messages', async () => {
    const store = recorder();
    const { listMessages: _, ...unlisted } = createMemoryStore();
    runStoreConformance({
      ...store,
      createStore: () => unlisted as ReturnType<typeof createMemoryStore>,
      groups: ['messages'],
    });
    const listing = store.tests.find((test) =>
      test.name.endsWith("listMessages returns only the channel's messages, oldest first"),
    )!;
    const notes: string[] = [];
    await listing.run.call({ skip: (note: string) => notes.push(note) });
    expect(notes).toEqual(['the store has no listMessages, and options.listMessages is not given']);
  });
});
