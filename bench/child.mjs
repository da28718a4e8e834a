// What a process the benchmark starts (a part, a server under test, a world) uses to answer the
// process that started it, over the IPC channel `fork` opened.

/**
 * Sends `message` to the parent process.
 * @param {import('node:child_process').Serializable} message
 */
export function tellParent(message) {
  if (process.send === undefined) throw new Error('this script runs as a child of the benchmark (with fork)');
  process.send(message);
}

/**
 * The port `server` listens on, once it listens.
 * @param {import('node:net').Server} server
 */
export const portOf = (server) => /** @type {import('node:net').AddressInfo} */ (server.address()).port;

/**
 * The JSON value the parent put in the environment variable `name`.
 * @param {string} name
 * @returns {unknown}
 */
export function fromEnvironment(name) {
  const text = process.env[name];
  if (text === undefined) throw new Error(`this script reads its settings from ${name} (JSON)`);
  return JSON.parse(text);
}
