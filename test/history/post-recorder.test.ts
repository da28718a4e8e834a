import { describe, expect, it, vi } from 'vitest';
import { createPostRecorder, HOLD_MS, LINGER_MS, MAX_WAITING_RECORDS } from '../../src/history/create-post-recorder.js';
import type { PostRecord } from '../../src/ports.js';
import { createDeadline } from '../../src/waiting/deadline.js';
import { settle } from '../support/setup.js';

const T0 = Date.UTC(2026, 0, 1, 12);

function record(webhookId: string, at: number, status = 201, count = 1): PostRecord {
  return {
    webhookId,
    at,
    status,
    code: status === 201 ? null : 'rate_limited',
    errors: [],
    idempotencyKey: null,
    messageId: null,
    bodyBytes: null,
    count,
  };
}

/** A store write that settles when the test says so, and the batches it was given. */
function controlledWrite() {
  const batches: PostRecord[][] = [];
  const pending: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  const recordPosts = (records: readonly PostRecord[]) => {
    batches.push(structuredClone([...records]));
    return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
  };
  return { batches, pending, recordPosts };
}

function recorderOver(recordPosts: (records: readonly PostRecord[]) => unknown, deadlineMs = 60_000) {
  const reported: unknown[] = [];
  const recorder = createPostRecorder({
    recordPosts: recordPosts as never,
    deadline: createDeadline(deadlineMs, 'store_timeout', 'the store did not answer in time'),
    report: (error) => reported.push(error),
  });
  return { recorder, reported };
}

describe('the post recorder', () => {
  it('hands over nothing in the tick it is given records, then all of them in one batch, in order', async () => {
    const batches: PostRecord[][] = [];
    const { recorder } = recorderOver((records) => void batches.push([...records]));
    const records = [record('wh_a', T0), record('wh_b', T0 + 1), record('wh_a', T0 + 2, 400)];
    for (const each of records) recorder.record(each);
    expect(batches).toEqual([]);
    await settle();
    expect(batches).toEqual([records]);
  });

  it(`gathers what arrives while a batch is being written, and writes it once that write settles and ${LINGER_MS} ms have passed`, async () => {
    const write = controlledWrite();
    const { recorder } = recorderOver(write.recordPosts);
    recorder.record(record('wh_a', T0));
    await settle();
    for (let i = 1; i <= 50; i++) recorder.record(record('wh_a', T0 + i));
    await settle();
    expect(write.batches.map((batch) => batch.length)).toEqual([1]);
    write.pending[0]!.resolve();
    await settle();
    await settle();
    // A store that answers with a promise is a network away: the next batch lingers to gather more.
    expect(write.batches.map((batch) => batch.length)).toEqual([1]);
    await new Promise((resolve) => setTimeout(resolve, LINGER_MS + 20));
    expect(write.batches.map((batch) => batch.length)).toEqual([1, 50]);
    expect(write.batches[1]!.map((each) => each.at)).toEqual(Array.from({ length: 50 }, (_, i) => T0 + i + 1));
  });

  it('writes a full batch for a store that answers with a promise without waiting out the linger', async () => {
    const write = controlledWrite();
    const { recorder } = recorderOver(write.recordPosts);
    recorder.record(record('wh_a', T0));
    await settle();
    write.pending[0]!.resolve();
    await settle();
    for (let i = 1; i <= 499; i++) recorder.record(record(`wh_${i}`, T0 + i));
    await settle();
    expect(write.batches.map((batch) => batch.length)).toEqual([1]);
    recorder.record(record('wh_500', T0 + 500));
    await settle();
    expect(write.batches.map((batch) => batch.length)).toEqual([1, 500]);
  });

  it("makes one record of a webhook's 429s of one minute among those waiting: count summed, at the first", async () => {
    const batches: PostRecord[][] = [];
    const { recorder } = recorderOver((records) => void batches.push(structuredClone([...records])));
    const minute = Math.ceil(T0 / 60_000) * 60_000;
    recorder.record(record('wh_a', minute + 5, 429));
    recorder.record(record('wh_a', minute + 10, 201));
    recorder.record(record('wh_a', minute + 20, 429, 2));
    recorder.record(record('wh_b', minute + 30, 429));
    recorder.record(record('wh_a', minute + 60_000, 429));
    recorder.record(record('wh_a', minute + 59_999, 429));
    await settle();
    expect(batches).toEqual([
      [
        record('wh_a', minute + 5, 429, 4),
        record('wh_a', minute + 10, 201),
        record('wh_b', minute + 30, 429),
        record('wh_a', minute + 60_000, 429),
      ],
    ]);
  });

  it("makes one record of a webhook's 415s of one minute too, apart from its 429s, and holds those that come later", async () => {
    const batches: PostRecord[][] = [];
    const { recorder } = recorderOver((records) => void batches.push(structuredClone([...records])));
    const minute = Math.ceil(T0 / 60_000) * 60_000;
    recorder.record(record('wh_a', minute + 5, 415));
    recorder.record(record('wh_a', minute + 10, 429));
    recorder.record(record('wh_a', minute + 20, 415, 2));
    recorder.record(record('wh_b', minute + 30, 415));
    await settle();
    for (let i = 0; i < 300; i++) recorder.record(record('wh_a', minute + 100 + i, 415));
    await settle();
    expect(batches).toEqual([
      [record('wh_a', minute + 5, 415, 3), record('wh_a', minute + 10, 429), record('wh_b', minute + 30, 415)],
    ]);
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS + 100));
    expect(batches.slice(1)).toEqual([[record('wh_a', minute + 100, 415, 300)]]);
  });

  it(`holds the 429s of a minute whose record was handed over, and writes their count as one record ${HOLD_MS} ms later`, async () => {
    const batches: PostRecord[][] = [];
    const { recorder } = recorderOver((records) => void batches.push(structuredClone([...records])));
    const minute = Math.ceil(T0 / 60_000) * 60_000;
    recorder.record(record('wh_a', minute + 1, 429));
    await settle();
    for (let i = 2; i <= 500; i++) recorder.record(record('wh_a', minute + i, 429));
    recorder.record(record('wh_b', minute + 600, 201));
    await settle();
    expect(batches).toEqual([[record('wh_a', minute + 1, 429)], [record('wh_b', minute + 600, 201)]]);
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS + 100));
    expect(batches.slice(2)).toEqual([[record('wh_a', minute + 2, 429, 499)]]);
  });

  it('a 429 that comes once the held count was released, before it is written, joins that record: no extra one', async () => {
    const write = controlledWrite();
    const { recorder, reported } = recorderOver(write.recordPosts);
    const resolveAll = () => {
      for (const each of write.pending.splice(0)) each.resolve();
    };
    const minute = Math.ceil(T0 / 60_000) * 60_000;
    recorder.record(record('wh_a', minute + 1, 429));
    await settle();
    // The first record's write stays open, so the held count, once released, waits behind it.
    for (let i = 2; i <= 10; i++) recorder.record(record('wh_a', minute + i, 429));
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS + 100));
    recorder.record(record('wh_a', minute + 11, 429));
    resolveAll();
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS + LINGER_MS + 100));
    resolveAll();
    await new Promise((resolve) => setTimeout(resolve, LINGER_MS + 50));
    expect(write.batches).toEqual([[record('wh_a', minute + 1, 429)], [record('wh_a', minute + 2, 429, 10)]]);
    expect(reported).toEqual([]);
  });

  it(`keeps at most ${MAX_WAITING_RECORDS.toLocaleString('en-US')} webhook minutes of 429s: a flood over more webhooks is dropped past them, and reported`, async () => {
    const written: PostRecord[] = [];
    const { recorder, reported } = recorderOver((records) => void written.push(...records));
    const minute = Math.ceil(T0 / 60_000) * 60_000;
    const webhooks = MAX_WAITING_RECORDS + 5_000;
    for (let i = 0; i < webhooks; i++) {
      recorder.record(record(`wh_${i}`, minute + 1, 429));
      // Written as they come: what bounds them is the minutes kept, not the records waiting.
      if (i % 1_000 === 999) await settle();
    }
    await settle();
    expect(written).toHaveLength(MAX_WAITING_RECORDS);
    expect(new Set(written.map((each) => each.webhookId)).size).toBe(MAX_WAITING_RECORDS);
    // Once the minute is over and written, its places are free again; the drops are reported with that write.
    recorder.record(record('wh_late', minute + 60_000, 429));
    await settle();
    expect(written.slice(MAX_WAITING_RECORDS)).toEqual([record('wh_late', minute + 60_000, 429)]);
    expect(reported).toEqual([
      expect.objectContaining({
        name: 'ChannelWebhookError',
        code: 'history_unavailable',
        message: expect.stringContaining(`${webhooks - MAX_WAITING_RECORDS} post records`),
      }),
    ]);
  });

  it('forgets the 429 minutes that are over, so webhooks limited minute after minute are never dropped', async () => {
    const batches: PostRecord[][] = [];
    const { recorder, reported } = recorderOver((records) => void batches.push([...records]));
    const minute = Math.ceil(T0 / 60_000) * 60_000;
    const webhooks = (MAX_WAITING_RECORDS * 3) / 5;
    for (let m = 0; m < 3; m++) {
      for (let i = 0; i < webhooks; i++) recorder.record(record(`wh_${i}`, minute + m * 60_000 + i, 429));
      await settle();
    }
    recorder.record(record('wh_a', minute + 3 * 60_000));
    await settle();
    expect(reported).toEqual([]);
    expect(batches.map((batch) => batch.length)).toEqual([webhooks, webhooks, webhooks, 1]);
  });

  it('drops nothing for a store that answers at once when the posts never let a timer run', async () => {
    // A loop of awaited posts in one process on the memory store: each answer settles by microtasks
    // alone, so a write on a timer would wait for the loop's end, with records past the bound dropped.
    const batches: number[] = [];
    const { recorder, reported } = recorderOver((records) => void batches.push(records.length));
    const posts = 2 * MAX_WAITING_RECORDS + 7;
    for (let i = 0; i < posts; i++) {
      recorder.record(record(`wh_${i % 100}`, T0 + i));
      await Promise.resolve();
    }
    expect(batches.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(posts - 500);
    await settle();
    expect(reported).toEqual([]);
    expect(batches.reduce((sum, n) => sum + n, 0)).toBe(posts);
    expect(Math.max(...batches)).toBeLessThanOrEqual(500);
  });

  it(`keeps at most ${MAX_WAITING_RECORDS.toLocaleString('en-US')} records waiting, and reports how many it dropped`, async () => {
    const write = controlledWrite();
    const { recorder, reported } = recorderOver(write.recordPosts);
    recorder.record(record('wh_a', T0));
    await settle();
    for (let i = 0; i < MAX_WAITING_RECORDS + 250; i++) recorder.record(record(`wh_${i}`, T0 + i));
    // A 429 of a minute that has no record yet would need a place of its own: dropped too.
    recorder.record(record('wh_c', T0, 429));
    expect(reported).toEqual([]);
    write.pending[0]!.resolve();
    await settle();
    await settle();
    expect(write.batches[1]).toHaveLength(MAX_WAITING_RECORDS);
    expect(reported).toEqual([
      expect.objectContaining({
        name: 'ChannelWebhookError',
        code: 'history_unavailable',
        message: expect.stringContaining('251 post records'),
      }),
    ]);
  });

  it.each([
    [
      'throws',
      () => (): never => {
        throw new Error('disk full');
      },
    ],
    ['rejects', () => () => Promise.reject(new Error('disk full'))],
  ])('a write that %s loses its batch, is reported, and the next batch is written', async (_, make) => {
    const batches: number[] = [];
    const failing = make();
    let calls = 0;
    const { recorder, reported } = recorderOver((records) =>
      calls++ === 0 ? failing() : void batches.push(records.length),
    );
    recorder.record(record('wh_a', T0));
    await settle();
    await settle();
    recorder.record(record('wh_a', T0 + 1));
    recorder.record(record('wh_a', T0 + 2));
    // Waited for, not slept on: on a loaded machine the next batch may come well after LINGER_MS.
    await vi.waitFor(() => expect(batches).toEqual([2]), { timeout: 5_000 });
    expect(reported).toEqual([new Error('disk full')]);
  });

  it("a write that does not settle is abandoned at the store's deadline, reported, and the next batch is written", async () => {
    const write = controlledWrite();
    const { recorder, reported } = recorderOver(write.recordPosts, 50);
    recorder.record(record('wh_a', T0));
    await settle();
    recorder.record(record('wh_a', T0 + 1));
    await vi.waitFor(() => expect(write.batches.map((batch) => batch.length)).toEqual([1, 1]), { timeout: 5_000 });
    expect(reported[0]).toMatchObject({ code: 'store_timeout' });
  });
});
