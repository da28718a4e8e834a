import type { DenoKv } from './deno-kv.js';
import { DENO_KV_LAYOUT_VERSION, type KeyLayout } from './key-layout.js';
import { type KvParty, type KvRunner, LOST_RACE } from './kv-runner.js';
import { ChannelWebhookError } from '../../../src/store-kit/index.js';

/**
 * The layout check of one store or limiter: `migrate()` writes the layout version into a KV that
 * has none and refuses one written by a newer release; `ready()` runs it once, before the first
 * call (again after a failure), so that every call reads and writes keys of the layout it knows.
 */
export function layoutVersion(
  kv: DenoKv,
  keys: KeyLayout,
  run: KvRunner,
  party: KvParty,
): { migrate: () => Promise<void>; ready: () => Promise<void> } {
  const migrate = () =>
    run('migrate', async () => {
      const entry = await kv.get(keys.version());
      if (entry.versionstamp !== null) {
        if (entry.value === DENO_KV_LAYOUT_VERSION) return undefined;
        const newer = typeof entry.value === 'number' && entry.value > DENO_KV_LAYOUT_VERSION;
        throw new ChannelWebhookError(
          newer ? 'schema_too_new' : party.failed,
          newer
            ? `${party.name}: the keys of prefix '${keys.version()[0] as string}' are at layout version ${entry.value}, newer than this release's ${DENO_KV_LAYOUT_VERSION}: upgrade channel-webhooks`
            : `${party.name}: the key ${JSON.stringify(keys.version())} holds ${JSON.stringify(entry.value)}, not a layout version of channel-webhooks: is the prefix another app's?`,
        );
      }
      const result = await kv.atomic().check(entry).set(keys.version(), DENO_KV_LAYOUT_VERSION).commit();
      return result.ok ? undefined : LOST_RACE;
    });
  let checked: Promise<void> | null = null;
  const ready = () => {
    checked ??= migrate().catch((error: unknown) => {
      checked = null;
      throw error;
    });
    return checked;
  };
  return { migrate, ready };
}
