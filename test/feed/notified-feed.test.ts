import { describe, expect, it } from 'vitest';
import type { FeedNotifier, FeedNotifierListener } from '../../src/ports.js';
import { createNotifiedFeed } from '../../src/store-kit/index.js';

/** A notifier of one process whose state the test drives: what it announces, and when it is up or down. */
function createTestNotifier() {
  const listeners = new Set<FeedNotifierListener>();
  const announced: string[][] = [];
  let failing: Error | null = null;
  const notifier: FeedNotifier = {
    async announce(channelIds) {
      if (failing !== null) throw failing;
      announced.push([...channelIds]);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    notifier,
    announced,
    listeners,
    ready: () => {
      for (const listener of listeners) listener.ready();
    },
    down: (error: Error) => {
      for (const listener of listeners) listener.down(error);
    },
    wake: (channelIds?: string[]) => {
      for (const listener of listeners) listener.wake(channelIds);
    },
    failAnnouncements: (error: Error | null) => {
      failing = error;
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createNotifiedFeed', () => {
  it('subscribes while anything watches and passes each announced channel on, once per channel', () => {
    const test = createTestNotifier();
    const feed = createNotifiedFeed({ notifier: test.notifier, pollMs: 60_000, report: () => {} });
    const heard: Array<string | undefined> = [];
    const unwatch = feed.watch((channelId) => heard.push(channelId));
    expect(test.listeners.size).toBe(1);
    test.ready();
    test.wake(['general', 'random', 'general']);
    test.wake();
    expect(heard).toEqual([undefined, 'general', 'random', undefined]);
    unwatch();
    expect(test.listeners.size).toBe(0);
    test.wake(['general']);
    expect(heard).toHaveLength(4);
  });

  it('announces the channels of the commits of one tick in one announcement, after waking its own watchers', async () => {
    const test = createTestNotifier();
    const feed = createNotifiedFeed({ notifier: test.notifier, pollMs: 60_000, report: () => {} });
    const heard: Array<string | undefined> = [];
    const unwatch = feed.watch((channelId) => heard.push(channelId));
    feed.stored('general');
    feed.stored('random');
    feed.stored('general');
    expect(heard).toEqual(['general', 'random', 'general']);
    await tick();
    feed.stored('general');
    await tick();
    expect(test.announced).toEqual([['general', 'random'], ['general']]);
    unwatch();
  });

  it('polls until the notifier is ready and while it is down, reporting the outage, and wakes once when it is back', async () => {
    const test = createTestNotifier();
    const reports: Array<[unknown, string]> = [];
    const feed = createNotifiedFeed({
      notifier: test.notifier,
      pollMs: 20,
      report: (error, stage) => reports.push([error, stage]),
    });
    let wakes = 0;
    const unwatch = feed.watch(() => wakes++);
    await expect.poll(() => wakes, { interval: 5 }).toBeGreaterThanOrEqual(3);
    test.ready();
    const atReady = wakes;
    await sleep(110);
    expect(wakes).toBe(atReady);

    const outage = new Error('Redis is gone');
    test.down(outage);
    expect(reports).toEqual([[outage, 'feed notifier']]);
    await expect.poll(() => wakes - atReady, { interval: 5 }).toBeGreaterThanOrEqual(3);
    const polled = wakes - atReady;
    test.ready();
    expect(wakes).toBe(atReady + polled + 1);
    await sleep(110);
    expect(wakes).toBe(atReady + polled + 1);
    unwatch();
  });

  it('with a poll of its own, wakes the watchers only when it says something moved, and on a failed poll', async () => {
    const test = createTestNotifier();
    const answers: Array<boolean | Error> = [true, false, false, new Error('database down'), false];
    const reports: string[] = [];
    const feed = createNotifiedFeed({
      notifier: test.notifier,
      pollMs: 10,
      poll: async () => {
        const answer = answers.shift() ?? false;
        if (answer instanceof Error) throw answer;
        return answer;
      },
      report: (_, stage) => reports.push(stage),
    });
    let wakes = 0;
    const unwatch = feed.watch(() => wakes++);
    await expect.poll(() => answers.length, { interval: 5 }).toBe(0);
    expect(wakes).toBe(2);
    expect(reports).toEqual(['feed poll']);
    // The poll goes on while anything watches: this file leaves no timer running for the next.
    unwatch();
  });

  it('reports the first announcement that fails, not the rest of that outage, and the first after one that went', async () => {
    const test = createTestNotifier();
    const reports: string[] = [];
    const feed = createNotifiedFeed({
      notifier: test.notifier,
      pollMs: 60_000,
      report: (error, stage) => reports.push(`${stage}: ${(error as Error).message}`),
    });
    test.failAnnouncements(new Error('PUBLISH failed'));
    for (let i = 0; i < 3; i++) {
      feed.stored('general');
      await tick();
    }
    expect(reports).toEqual(['feed announce: PUBLISH failed']);
    test.failAnnouncements(null);
    await expect.poll(() => test.announced, { timeout: 3_000 }).toEqual([['general']]);
    test.failAnnouncements(new Error('PUBLISH failed again'));
    feed.stored('general');
    await tick();
    expect(reports).toEqual(['feed announce: PUBLISH failed', 'feed announce: PUBLISH failed again']);
    expect(test.announced).toEqual([['general']]);
    // And that one goes too once the notifier takes it: no resend is left running after the test.
    test.failAnnouncements(null);
    await expect.poll(() => test.announced, { timeout: 3_000 }).toEqual([['general'], ['general']]);
  });

  it('sends the channels of a failed announcement again, with those of later commits, once the notifier takes them', async () => {
    const test = createTestNotifier();
    const feed = createNotifiedFeed({ notifier: test.notifier, pollMs: 60_000, report: () => {} });
    test.failAnnouncements(new Error('PUBLISH failed'));
    feed.stored('general');
    await tick();
    feed.stored('random');
    await tick();
    expect(test.announced).toEqual([]);
    test.failAnnouncements(null);
    await expect.poll(() => test.announced, { timeout: 3_000 }).toEqual([['general', 'random']]);
    await sleep(600);
    expect(test.announced).toEqual([['general', 'random']]);
  });
});
