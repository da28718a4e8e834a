// The soak's verdict, from the answers the load generator saw, the messages the store holds, the
// fault windows and the memory samples. Pure: the test plants faults in its inputs.
import type { Message } from '../../src/index.js';
import { ANSWER_DEADLINE_MS, type AnswerRecord, seqOf } from './world.js';

/** From a fault's start until the target answered again, plus the grace. Epoch ms. */
export interface FaultWindow {
  kind: string;
  start: number;
  recovered: number;
  end: number;
}

/** One sample of the run: each instance's memory (null while it is down) and the answers since the last. */
export interface Sample {
  at: number;
  /** `youngMiB`: what V8's young generation holds, counted in RSS (see memory-probe.ts). */
  instances: Array<{ heapMiB: number; rssMiB: number; youngMiB: number } | null>;
  p99Ms: number | null;
  answersPerSecond: number;
  inFault: boolean;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/**
 * What "flat" means: the least-squares slope per hour of the steady part of the run within these.
 * RSS is judged without V8's young generation, which grows in steps to a fixed cap under load: a
 * reserve that would read as a leak in the first half hour of any Node process.
 */
export const FLAT = { rssMiBPerHour: 16, heapMiBPerHour: 8, p99ShareOfMedianPerHour: 0.5 };

const EXPECTED: Record<AnswerRecord['kind'], number[]> = {
  // A resend through the other instance may overtake its first send: the first then answers 200.
  valid: [200, 201],
  unkeyed: [201],
  // A resend racing its first send may be the one stored.
  duplicate: [200, 201],
  'over-limit': [201, 429],
  invalid: [400, 404, 405, 415],
};

const overlaps = (answer: AnswerRecord, windows: FaultWindow[]) =>
  windows.some((w) => answer.sent <= w.end && answer.answered >= w.start);
const lost = (answer: AnswerRecord) => answer.status === 0 || answer.status >= 500;
const list = (items: string[]) =>
  items.length <= 5 ? items.join('; ') : `${items.slice(0, 5).join('; ')}; … ${items.length - 5} more`;
const verdict = (name: string, failures: string[], okDetail: string): Check => ({
  name,
  ok: failures.length === 0,
  detail: failures.length === 0 ? okDetail : list(failures),
});

/**
 * Exactly once: every `201` names a message stored exactly once, and that message is its own
 * request's; every `200` names a stored message of its key; no request is stored twice; every stored
 * message is one that a `201` or `200` named, or else one whose request (or a resend of its key) lost
 * its answer (no answer, or a 5xx) while a fault window was open: such a post may or may not have been
 * stored, once at most.
 */
export function checkExactlyOnce(answers: AnswerRecord[], messages: Message[], windows: FaultWindow[]): Check {
  const failures: string[] = [];
  const byId = new Map<string, Message[]>();
  const bySeq = new Map<number, Message[]>();
  for (const message of messages) {
    byId.set(message.id, [...(byId.get(message.id) ?? []), message]);
    const seq = seqOf(message.body);
    if (seq === null) failures.push(`message ${message.id} ("${message.body.slice(0, 40)}") is no request of the load`);
    else bySeq.set(seq, [...(bySeq.get(seq) ?? []), message]);
  }
  const byOf = new Map<number, AnswerRecord[]>();
  for (const answer of answers)
    if (answer.kind !== 'invalid') byOf.set(answer.of, [...(byOf.get(answer.of) ?? []), answer]);

  for (const answer of answers) {
    if (answer.status !== 201 && answer.status !== 200) continue;
    const stored = answer.id === null ? [] : (byId.get(answer.id) ?? []);
    if (answer.status === 201 && stored.length !== 1)
      failures.push(`request ${answer.seq} answered 201 with ${answer.id}, stored ${stored.length} times`);
    if (answer.status === 200 && stored.length === 0)
      failures.push(`request ${answer.seq} answered 200 with ${answer.id}, which is not stored`);
    const named = stored[0];
    if (named !== undefined && seqOf(named.body) !== answer.of)
      failures.push(`request ${answer.seq} was answered with ${answer.id}, the message of another request`);
  }
  for (const [seq, stored] of bySeq) {
    if (stored.length > 1)
      failures.push(`request ${seq} stored ${stored.length} times (${stored.map((m) => m.id).join(', ')})`);
    const sends = byOf.get(seq) ?? [];
    for (const message of stored) {
      const answered = sends.some((send) => (send.status === 201 || send.status === 200) && send.id === message.id);
      const lostInFault = sends.some((send) => lost(send) && overlaps(send, windows));
      if (!answered && !lostInFault)
        failures.push(
          `message ${message.id} of request ${seq} was stored, but no 201 or 200 named it and no send of it lost its answer in a fault`,
        );
    }
  }
  const answered201 = answers.filter((answer) => answer.status === 201).length;
  return verdict(
    'every 201 stored exactly once, nothing stored unanswered',
    failures,
    `${answered201} answers 201, ${messages.length} messages stored`,
  );
}

export function checkNoFailureOutsideFaults(answers: AnswerRecord[], windows: FaultWindow[]): Check[] {
  const outside = answers.filter((answer) => !overlaps(answer, windows));
  const describe = (answer: AnswerRecord) =>
    `request ${answer.seq} (${answer.kind}) sent at ${new Date(answer.sent).toISOString()}: ${answer.status === 0 ? answer.error : answer.status}`;
  return [
    verdict(
      'no 500 outside a fault window',
      outside.filter((answer) => answer.status >= 500).map(describe),
      `${answers.filter((a) => a.status >= 500).length} answers 5xx, all inside fault windows`,
    ),
    verdict(
      'no answer lost outside a fault window',
      outside.filter((answer) => answer.status === 0).map(describe),
      `${answers.filter((a) => a.status === 0).length} lost, all inside fault windows`,
    ),
    verdict(
      'every status as expected outside fault windows',
      outside
        .filter(
          (answer) => answer.status !== 0 && answer.status < 500 && !EXPECTED[answer.kind].includes(answer.status),
        )
        .map(describe),
      'valid 201, resends 200 or 201, over the limit 201 or 429, refused 400/404/405/415',
    ),
  ];
}

export function checkDeadlines(answers: AnswerRecord[]): Check {
  const late = answers.filter(
    (answer) => answer.answered - answer.sent > ANSWER_DEADLINE_MS || answer.error === 'client timeout',
  );
  const slowest = answers.reduce((most, answer) => Math.max(most, answer.answered - answer.sent), 0);
  return verdict(
    `no answer slower than ${ANSWER_DEADLINE_MS / 1_000} s`,
    late.map((answer) => `request ${answer.seq}: ${answer.answered - answer.sent} ms`),
    `slowest ${slowest} ms`,
  );
}

/** Least-squares slope of `y` over `x`, in y-units per x-unit; null with fewer than 3 points. */
export function slope(points: Array<[number, number]>): number | null {
  if (points.length < 3) return null;
  const n = points.length;
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const sxx = points.reduce((sum, [x]) => sum + (x - mx) ** 2, 0);
  const sxy = points.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0);
  return sxx === 0 ? null : sxy / sxx;
}

export interface Trend {
  rssMiBPerHour: number | null;
  /** RSS less the young generation: what the flat check judges. */
  rssOutsideYoungMiBPerHour: number | null;
  heapMiBPerHour: number | null;
  p99MsPerHour: number | null;
  medianP99Ms: number | null;
  fromSecond: number;
  seconds: number;
}

/**
 * The trends of instance 0 (never killed) and of p99, from the samples after warm-up (the first
 * tenth of the run, at least 60 s when the run is long enough), p99 only from samples that no fault
 * window touches.
 */
export function trendOf(samples: Sample[], runSeconds: number): Trend {
  const fromSecond = Math.min(Math.max(60, runSeconds / 10), runSeconds / 5);
  const steady = samples.filter((sample) => sample.at >= fromSecond);
  const hours = (at: number) => at / 3_600;
  const memory = steady.filter((sample) => sample.instances[0] !== null && sample.instances[0] !== undefined);
  const p99s = steady.filter((sample) => !sample.inFault && sample.p99Ms !== null);
  const sorted = p99s.map((sample) => sample.p99Ms!).sort((a, b) => a - b);
  return {
    rssMiBPerHour: slope(memory.map((sample) => [hours(sample.at), sample.instances[0]!.rssMiB])),
    rssOutsideYoungMiBPerHour: slope(
      memory.map((sample) => [hours(sample.at), sample.instances[0]!.rssMiB - sample.instances[0]!.youngMiB]),
    ),
    heapMiBPerHour: slope(memory.map((sample) => [hours(sample.at), sample.instances[0]!.heapMiB])),
    p99MsPerHour: slope(p99s.map((sample) => [hours(sample.at), sample.p99Ms!])),
    medianP99Ms: sorted.length === 0 ? null : sorted[Math.floor(sorted.length / 2)]!,
    fromSecond,
    seconds: steady.length === 0 ? 0 : steady[steady.length - 1]!.at - steady[0]!.at,
  };
}

/** Flat, or not judged when the steady part is shorter than `minSeconds` (a slope over a minute says little). */
export function checkFlat(trend: Trend, minSeconds: number): Check {
  const name = `RSS outside V8's young generation, heap and p99 flat (≤ ${FLAT.rssMiBPerHour} MiB/h, ≤ ${FLAT.heapMiBPerHour} MiB/h, ≤ ${FLAT.p99ShareOfMedianPerHour * 100}% of the median p99 per hour)`;
  const figures = `RSS outside the young generation ${fmt(trend.rssOutsideYoungMiBPerHour)} MiB/h (RSS ${fmt(trend.rssMiBPerHour)}), heap ${fmt(trend.heapMiBPerHour)} MiB/h, p99 ${fmt(trend.p99MsPerHour)} ms/h (median p99 ${fmt(trend.medianP99Ms)} ms), over ${Math.round(trend.seconds)} s from ${Math.round(trend.fromSecond)} s`;
  if (trend.seconds < minSeconds)
    return {
      name,
      ok: true,
      detail: `not judged: ${Math.round(trend.seconds)} s of steady samples, under ${minSeconds} s; ${figures}`,
    };
  const failures: string[] = [];
  if (trend.rssOutsideYoungMiBPerHour === null || trend.rssOutsideYoungMiBPerHour > FLAT.rssMiBPerHour)
    failures.push(`RSS outside the young generation ${fmt(trend.rssOutsideYoungMiBPerHour)} MiB/h`);
  if (trend.heapMiBPerHour === null || trend.heapMiBPerHour > FLAT.heapMiBPerHour)
    failures.push(`heap ${fmt(trend.heapMiBPerHour)} MiB/h`);
  const p99Bound = FLAT.p99ShareOfMedianPerHour * (trend.medianP99Ms ?? 0);
  if (trend.p99MsPerHour === null || trend.p99MsPerHour > p99Bound)
    failures.push(`p99 ${fmt(trend.p99MsPerHour)} ms/h over ${fmt(p99Bound)}`);
  return failures.length === 0
    ? { name, ok: true, detail: figures }
    : { name, ok: false, detail: `${failures.join('; ')} (${figures})` };
}

const fmt = (value: number | null) => (value === null ? 'n/a' : value.toFixed(1));
