/** @import { ChildProcess } from 'node:child_process' */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('./server.mjs', import.meta.url));

/**
 * Starts one server under test in its own process and waits until it listens. `cpu()` asks it for
 * the CPU time (µs, `{ user, system }`) its process used since the last `cpu()` (or since it started).
 * @param {string} variant
 * @param {number} webhooks
 */
export async function launchServer(variant, webhooks) {
  const child = fork(SERVER, [variant, String(webhooks)], {
    execArgv: [...process.execArgv, '--max-old-space-size=4096'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = /** @type {{ port: number; paths: string[] }} */ (await nextMessage(child, 'ready', 30_000));
  return {
    port: ready.port,
    paths: ready.paths,
    async cpu() {
      child.send({ type: 'cpu' });
      const { user, system } = /** @type {{ user: number; system: number }} */ (
        await nextMessage(child, 'cpu', 10_000)
      );
      return { user, system };
    },
    /** @returns {Promise<void>} */
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.disconnect();
      });
    },
  };
}

/**
 * The next message of `type` from `child` (a message of the servers' is an object with a `type`).
 * @param {ChildProcess} child
 * @param {string} type
 * @param {number} timeoutMs
 * @returns {Promise<unknown>}
 */
function nextMessage(child, type, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`server did not answer "${type}" within ${timeoutMs} ms`)),
      timeoutMs,
    );
    /** @param {{ type?: string } | undefined} message */
    const onMessage = (message) => message?.type === type && finish(null, message);
    /** @param {number | null} code */
    const onExit = (code) => finish(new Error(`server exited with code ${code} before "${type}"`));
    /**
     * @param {Error | null} error
     * @param {unknown} [message]
     */
    function finish(error, message) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(message);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
