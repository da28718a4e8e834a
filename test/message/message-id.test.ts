import { describe, expect, it } from 'vitest';
import { setup } from '../support/setup.js';

// Rule: message ids are random version-4 UUIDs, as crypto.randomUUID() gives.
describe('message ids', () => {
  it('are distinct version-4 UUIDs', async () => {
    const s = await setup({ rateLimiter: { hit: () => ({ allowed: true, limit: 1_000, remaining: 1_000, resetMs: 0, windowMs: 60_000 }) } });
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push(((await s.post({ text: `post ${i}` })).body as { message: { id: string } }).message.id);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
