// The soak's load generator, a process of its own so that its CPU is not the instances': sends the
// mix below at SOAK_RATE requests a second (open loop: on schedule, whatever the answers' pace) to
// the instances in SOAK_ORIGINS in turn for SOAK_SECONDS, and writes one line per answer to
// SOAK_ANSWERS_FILE.
import { createWriteStream, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { type AnswerRecord, type RequestKind, textOf } from './world.js';

const origins = process.env.SOAK_ORIGINS!.split(',');
const { paths } = JSON.parse(readFileSync(process.env.SOAK_WEBHOOKS_FILE!, 'utf8')) as { paths: string[] };
const rate = Number(process.env.SOAK_RATE);
const endAt = Date.now() + Number(process.env.SOAK_SECONDS) * 1_000;
const out = createWriteStream(process.env.SOAK_ANSWERS_FILE!);
/** Longer than the servers' own 15 s request deadline: an answer this late is a hung request. */
const CLIENT_TIMEOUT_MS = 20_000;
const MAX_IN_FLIGHT = 1_000;

interface Request {
  seq: number;
  kind: RequestKind;
  of: number;
  instance: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const json = { 'content-type': 'application/json' };
const HOT = paths[0]!;
const hookOf = (seq: number) => paths[1 + ((seq * 7919) % (paths.length - 1))]!;
const valid = (seq: number, keyed: boolean) => ({
  headers: keyed ? { ...json, 'idempotency-key': `k${seq}` } : json,
  body: JSON.stringify({
    text: textOf(seq),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `*event* ${seq}` } }],
  }),
});

/**
 * Request `seq` of the mix, by its place in each run of 20: 45% valid posts with a key of their own,
 * 5% without a key, 10% resends of an earlier key of the same run through the other instance (a
 * client's retry, often while the first is in flight), 10% to one webhook far over 60 a minute, and
 * 30% refused: bad JSON, an unknown field, a wrong media type, a wrong secret, bad blocks, a GET.
 */
function requestOf(seq: number): Request {
  const slot = seq % 20;
  const base = { seq, of: seq, instance: seq % origins.length, method: 'POST', path: hookOf(seq) };
  if (slot < 9) return { ...base, kind: 'valid', ...valid(seq, true) };
  if (slot === 9) return { ...base, kind: 'unkeyed', ...valid(seq, false) };
  if (slot < 12) {
    const of = seq - 10;
    return {
      ...base,
      kind: 'duplicate',
      of,
      instance: (of + 1) % origins.length,
      path: hookOf(of),
      ...valid(of, true),
    };
  }
  if (slot < 14) return { ...base, kind: 'over-limit', path: HOT, ...valid(seq, true) };
  const invalid = { ...base, kind: 'invalid' as const, headers: json };
  switch (slot) {
    case 14:
      return { ...invalid, body: '{"text":' };
    case 15:
      return { ...invalid, body: '{"text":"x","unknown":true}' };
    case 16:
      return { ...invalid, headers: { 'content-type': 'text/plain' }, body: 'plain' };
    case 17:
      return {
        ...invalid,
        path: base.path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        body: '{"text":"wrong secret"}',
      };
    case 18:
      return { ...invalid, body: '{"blocks":"not a list"}' };
    default:
      return { ...invalid, method: 'GET', headers: {}, body: '' };
  }
}

let inFlight = 0;
let shed = 0;

function send(r: Request): Promise<void> {
  inFlight++;
  const sent = Date.now();
  const finish = (status: number, id: string | null, error: string | null) => {
    inFlight--;
    const record: AnswerRecord = {
      seq: r.seq,
      kind: r.kind,
      of: r.of,
      instance: r.instance,
      sent,
      answered: Date.now(),
      status,
      id,
      error,
    };
    out.write(`${JSON.stringify(record)}\n`);
  };
  return new Promise((resolve) => {
    // A connection per request: a reused keep-alive socket the server has just closed would look
    // like a lost answer outside any fault.
    const req = request(
      `${origins[r.instance]}${r.path}`,
      { method: r.method, agent: false, headers: { ...r.headers, 'content-length': Buffer.byteLength(r.body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          let id: string | null = null;
          try {
            id = (JSON.parse(Buffer.concat(chunks).toString()) as { message?: { id?: string } }).message?.id ?? null;
          } catch {
            // A refusal's body may be anything; only a message's id matters here.
          }
          finish(res.statusCode ?? 0, id, null);
          resolve();
        });
        res.on('error', (error) => {
          finish(0, null, error.message);
          resolve();
        });
      },
    );
    req.setTimeout(CLIENT_TIMEOUT_MS, () => req.destroy(new Error('client timeout')));
    req.on('error', (error) => {
      finish(0, null, (error as NodeJS.ErrnoException).code ?? error.message);
      resolve();
    });
    req.end(r.body);
  });
}

const started = Date.now();
const pending = new Set<Promise<void>>();
let seq = 0;
while (Date.now() < endAt) {
  const due = Math.floor(((Date.now() - started) * rate) / 1_000);
  for (; seq < due; seq++) {
    if (inFlight >= MAX_IN_FLIGHT) {
      shed++;
      continue;
    }
    const sending = send(requestOf(seq));
    pending.add(sending);
    void sending.then(() => pending.delete(sending));
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
}
await Promise.all(pending);
await new Promise<void>((resolve) => out.end(resolve));
process.stdout.write(`${JSON.stringify({ sent: seq - shed, shed })}\n`);
