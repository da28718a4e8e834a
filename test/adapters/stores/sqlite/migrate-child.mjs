// One process of the SQLite concurrent-migration test, on the built package: it opens SQLITE_FILE,
// waits for START_AT (epoch ms) and creates a store, which migrates, then prints one JSON line.
import Database from 'better-sqlite3';
import { createSqliteStore } from 'channel-webhooks/sqlite';

const database = new Database(process.env.SQLITE_FILE);
while (Date.now() < Number(process.env.START_AT)) await new Promise((resolve) => setTimeout(resolve, 1));
try {
  createSqliteStore({ database });
  console.log(JSON.stringify({ migrated: true }));
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message }));
  process.exitCode = 1;
}
