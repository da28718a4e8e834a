/**
 * How a port's methods answer: at once, with a promise, or either way. A port is written once, as a
 * table of methods that give their value (`StoreMethods`), and these types say how a given port,
 * or a given store, hands that value over.
 *
 * @module
 */
import type { MaybePromise } from '../waiting/maybe-promise.js';

export type { MaybePromise };

/**
 * Every method of the table `M`, answering at once with its value: a store that does its work in
 * process (the memory and SQLite stores).
 *
 * @example
 * ```ts
 * const inProcess: Sync<Pick<StoreMethods, 'getChannel'>> = {
 *   getChannel: (channelId) => channels.get(channelId) ?? null,
 * };
 * ```
 */
export type Sync<M> = { [K in keyof M]: AtOnce<M[K]> };

/**
 * Every method of the table `M`, answering with a promise of its value: a store over a network
 * or a database client (PostgreSQL, Deno KV, Durable Objects).
 *
 * @example
 * ```ts
 * const remote: Async<Pick<StoreMethods, 'getChannel'>> = {
 *   getChannel: async (channelId) => (await db.channels.find(channelId)) ?? null,
 * };
 * ```
 */
export type Async<M> = { [K in keyof M]: Promised<M[K]> };

/**
 * Every method of the table `M`, answering with its value or a promise of it, as each call
 * chooses ({@link MaybePromise}): what the ports accept, so that any of {@link Sync} and
 * {@link Async} fits.
 *
 * @example
 * ```ts
 * const cached: MaybeAsync<Pick<StoreMethods, 'getChannel'>> = {
 *   getChannel: (channelId) => cache.get(channelId) ?? remote.getChannel(channelId),
 * };
 * ```
 */
export type MaybeAsync<M> = { [K in keyof M]: EitherWay<M[K]> };

// One method each. Conditional types over a type parameter distribute over a union, so a method
// the table marks optional (its type then includes `undefined`) keeps its `undefined` and is
// mapped all the same.
type AtOnce<F> = F extends (...args: infer A) => infer R ? (...args: A) => R : F;
type Promised<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : F;
type EitherWay<F> = F extends (...args: infer A) => infer R ? (...args: A) => MaybePromise<R> : F;
