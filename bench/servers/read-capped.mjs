/**
 * Reads a Node request body, keeping at most `max + 1` bytes: one byte more than the limit is
 * enough to know the answer is 413. The hand-written routes of the node:http, Express and Koa pairs
 * read the body with this function; the library reads it with its adapters' own reader, which
 * also enforces the body deadline.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} max
 * @returns {Promise<Buffer>}
 */
export function readCapped(req, max) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let received = 0;
    /** @param {Buffer} chunk */
    const onData = (chunk) => {
      const room = max + 1 - received;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      received += kept.length;
      if (received > max) done();
    };
    const done = () => {
      req.off('data', onData);
      req.off('end', done);
      req.off('error', reject);
      resolve(chunks.length === 1 ? /** @type {Buffer} */ (chunks[0]) : Buffer.concat(chunks, received));
    };
    req.on('data', onData);
    req.on('end', done);
    req.on('error', reject);
  });
}
