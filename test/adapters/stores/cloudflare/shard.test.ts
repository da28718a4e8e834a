import { describe, expect, it } from 'vitest';
import {
  channelShard,
  keyShard,
  newShardedWebhookId,
  SHARD_LENGTH,
} from '../../../../adapters/stores/cloudflare/shard.js';

// The worker finds a webhook's object from its URL alone: the id the store makes for a channel
// names that channel's shard, and keeps the library's shape and enough randomness.
describe('webhook ids that carry their shard', () => {
  it("names the channel's shard, in the library's shape", () => {
    for (const channelId of ['general', 'deploys', 'ünïcødé 🚀', '']) {
      const id = newShardedWebhookId(channelId);
      expect(id).toMatch(/^wh_[A-Za-z0-9_-]{22}$/);
      expect(keyShard(id)).toBe(channelShard(channelId));
      expect(channelShard(channelId)).toHaveLength(SHARD_LENGTH);
    }
  });

  it('keeps 17 random characters (102 bits): ids of one channel differ after the shard', () => {
    const ids = Array.from({ length: 1_000 }, () => newShardedWebhookId('general'));
    expect(new Set(ids).size).toBe(1_000);
    const tails = new Set(ids.map((id) => id.slice(3 + SHARD_LENGTH)));
    expect(tails.size).toBe(1_000);
    // Every one of the 64 characters appears at each random position across 1,000 ids.
    for (let position = 3 + SHARD_LENGTH; position < 25; position++)
      expect(new Set(ids.map((id) => id[position])).size).toBe(64);
  });

  it('spreads channels over shards, and names a shard for any other key', () => {
    const shards = new Set(Array.from({ length: 10_000 }, (_, i) => channelShard(`channel-${i}`)));
    expect(shards.size).toBeGreaterThan(9_990);
    expect(keyShard('k_not_a_webhook_id')).toMatch(/^[A-Za-z0-9_-]{5}$/);
    expect(keyShard('k_not_a_webhook_id')).toBe(keyShard('k_not_a_webhook_id'));
    expect(keyShard(`wh_AbCdE${'0'.repeat(17)}`)).toBe('AbCdE');
  });
});
