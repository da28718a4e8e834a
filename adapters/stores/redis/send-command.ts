import { invalidArgument } from '../../../src/store-kit/index.js';

/**
 * The one thing the limiter needs of a Redis client: send a command as strings, get its reply. This
 * package never imports a client, and any client fits in one line. `key` is the Redis key the
 * command touches, by name (the first, for a script that decides several, all of one hash slot on
 * a cluster), which is what a cluster client routes by; it is `undefined` for the one keyless
 * command, `SCRIPT LOAD`, which may go to any node.
 *
 * Replies are taken as RESP2 gives them: integers as numbers, bulk strings as strings, nil as
 * `null`. A failure is a rejected promise whose message starts with Redis's error code
 * (`NOSCRIPT …`), as every client listed below reports it.
 *
 * @example
 * ```ts
 * // node-redis v4 or v5: createClient()
 * const sendCommand: RedisSendCommand = (args) => client.sendCommand(args);
 * // node-redis v4 or v5: createCluster(), routed by the key
 * const sendCommand: RedisSendCommand = (args, key) => cluster.sendCommand(key, false, args);
 * // ioredis or iovalkey, Redis or Cluster (or pass it as `client`)
 * const sendCommand: RedisSendCommand = ([command, ...rest]) => client.call(command, ...rest);
 * ```
 */
export type RedisSendCommand = (
  args: [command: string, ...rest: string[]],
  key: string | undefined,
) => Promise<unknown>;

/**
 * A client with ioredis's `call(command, ...args)`: ioredis's and iovalkey's `Redis` and `Cluster`,
 * which route by the command's own key.
 *
 * @example
 * ```ts
 * import { Cluster } from 'ioredis';
 * const client: RedisCallClient = new Cluster([{ host: '10.0.0.1', port: 6379 }]);
 * ```
 */
export interface RedisCallClient {
  call(command: string, ...args: string[]): Promise<unknown>;
}

/** The `sendCommand` of a limiter's options (each already checked alone): the given one, or one over `client.call`. */
export function resolveSendCommand(
  options: { sendCommand?: RedisSendCommand; client?: RedisCallClient },
  factory: string,
): RedisSendCommand {
  const { sendCommand, client } = options;
  if (sendCommand !== undefined && client === undefined) return sendCommand;
  if (sendCommand === undefined && client !== undefined) return ([command, ...rest]) => client.call(command, ...rest);
  throw invalidArgument(
    factory,
    'needs exactly one of { sendCommand } (a function sending a command to Redis, e.g. (args) => client.sendCommand(args) for node-redis) or { client } (an ioredis or iovalkey client)',
  );
}
