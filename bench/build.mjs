// The builds of the package a run compares: this one, and the one BENCH_BASELINE names (a folder
// with its package.json and dist/, such as a build of the code before a change).

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * @typedef {{
 *   index: typeof import('channel-webhooks');
 *   node: typeof import('channel-webhooks/node');
 *   express: typeof import('channel-webhooks/express');
 *   koa: typeof import('channel-webhooks/koa');
 *   fastify: typeof import('channel-webhooks/fastify');
 *   fetch: typeof import('channel-webhooks/fetch');
 *   sqlite: typeof import('channel-webhooks/sqlite');
 *   postgres: typeof import('channel-webhooks/postgres');
 *   mysql: typeof import('channel-webhooks/mysql');
 * }} Entries
 */

/** The root of the build BENCH_BASELINE names, or null. */
export const BASELINE = process.env.BENCH_BASELINE || null;

/**
 * An entry point of a build: this build's (`root` null) through the package's own name, or the
 * one in `root`'s dist/, which is typed as this build's.
 * @template {keyof Entries} Entry
 * @param {string | null} root
 * @param {Entry} entry
 * @returns {Promise<Entries[Entry]>}
 */
export const importEntry = (root, entry) =>
  root === null
    ? import(entry === 'index' ? 'channel-webhooks' : `channel-webhooks/${entry}`)
    : import(pathToFileURL(join(root, 'dist', `${entry}.js`)).href);
