import type { MysqlPool, MysqlQuery } from '../../../../adapters/stores/mysql/index.js';

/**
 * A pool whose statements, on the pool and in transactions, are written down in `sent`, in order,
 * each one the server refused followed by `failed <errno>`; `setUp` runs on each connection checked
 * out for a transaction, unrecorded.
 */
export function recordingPool(pool: MysqlPool, sent: string[], setUp: string | null = null): MysqlPool {
  const record = (query: MysqlQuery, send: () => Promise<[unknown, unknown]>) => {
    sent.push(query.sql);
    return send().catch((error: unknown) => {
      sent.push(`failed ${(error as { errno?: number }).errno}`);
      throw error;
    });
  };
  return {
    query: (query) => record(query, () => pool.query(query)),
    async getConnection() {
      const connection = await pool.getConnection();
      if (setUp !== null) await connection.query({ sql: setUp });
      return {
        query: (query) => record(query, () => connection.query(query)),
        release: () => connection.release(),
        destroy: () => connection.destroy(),
      };
    },
  };
}
