// One process of the SQLite multi-process tests, on the built package. It opens the file given in
// SQLITE_FILE and, from the moment START_AT (epoch ms), does what MODE says, writing one JSON line
// per answer to stdout with a synchronous write, so a line seen by the parent was written before
// any kill.
import { writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { createMemoryRateLimiter, createWebhookHandler } from 'channel-webhooks';
import { createSqliteRateLimiter, createSqliteStore } from 'channel-webhooks/sqlite';

const { MODE, SQLITE_FILE, HOOK_PATH, START_AT, COUNT, HOLD_MS } = process.env;
const database = new Database(SQLITE_FILE);
const say = (line) => writeSync(1, `${JSON.stringify(line)}\n`);
const waitForStart = async () => {
  while (Date.now() < Number(START_AT)) await new Promise((resolve) => setTimeout(resolve, 1));
};
const post = (handle, text, key) =>
  handle({
    method: 'POST',
    url: HOOK_PATH,
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'idempotency-key': key }) },
    body: JSON.stringify({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `*${text}*` } }] }),
  });

if (MODE === 'hold') {
  // Holds the file's write lock for HOLD_MS, as a long transaction of another app would.
  database.exec('BEGIN IMMEDIATE');
  say({ locked: true });
  await new Promise((resolve) => setTimeout(resolve, Number(HOLD_MS)));
  database.exec('COMMIT');
  say({ released: true });
} else {
  // GROUP_COMMIT=1: the store and limiter with group commit, and IN_FLIGHT posts at a time.
  const groupCommit = process.env.GROUP_COMMIT === '1';
  const inFlight = Number(process.env.IN_FLIGHT ?? 1);
  const store = createSqliteStore({ database, groupCommit });
  const rateLimiter =
    MODE === 'limit'
      ? createSqliteRateLimiter({ database, groupCommit })
      : createMemoryRateLimiter({ limit: 1_000_000 });
  const handle = createWebhookHandler({ store, rateLimiter });
  say({ ready: true });
  await waitForStart();
  const postOne = async (i) => {
    // race: every process posts the same keys in the same order; limit and stay: no keys; load: until killed.
    const key = MODE === 'race' ? `race-${i}` : MODE === 'load' ? `load-${process.pid}-${i}` : null;
    const answer = await post(
      handle,
      MODE === 'load' ? `load ${process.pid} ${i}` : `${MODE} ${i} from ${process.pid}`,
      key,
    );
    say({ i, key, status: answer.status, id: answer.body.message?.id ?? null, code: answer.body.code ?? null });
  };
  for (let i = 0; MODE === 'load' || i < Number(COUNT); i += inFlight) {
    const count = MODE === 'load' ? inFlight : Math.min(inFlight, Number(COUNT) - i);
    await Promise.all(Array.from({ length: count }, (_, j) => postOne(i + j)));
  }
  // stay: after its posts, the process lives on (its file open) until it is killed.
  if (MODE === 'stay') await new Promise(() => setInterval(() => {}, 60_000));
}
database.close();
