import { describe, it } from 'vitest';
import { runStoreConformance } from 'channel-webhooks/testing';
import type { WebhookStore } from 'channel-webhooks';

// Plain JavaScript: imported through a path typed as a string, since it ships no declarations.
const mapStore = '../../examples/custom-store/map-store.js';
const { createMapStore } = (await import(mapStore)) as { createMapStore: () => WebhookStore };

runStoreConformance({
  describe,
  it,
  createStore: () => createMapStore(),
  name: 'examples/custom-store/map-store.js meets the WebhookStore contract',
});
