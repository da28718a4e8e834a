import { describe, expect, it } from 'vitest';
import { OWNER, problemHeaders, setup } from '../support/setup.js';

// Rule: answers built once are handed out with headers of their own: the rate-limit headers of a
// counted answer, or a caller's change, never show up on another answer.
describe('answers that do not depend on the request', () => {
  it('a counted 404 carries the count; an uncounted 404 does not, before or after it', async () => {
    const s = await setup();
    const wrongSecret = s.url.replace(/[^/]{43}$/, 'A'.repeat(43));
    const before = await s.post({ text: 'x' }, { url: wrongSecret });
    let revoke!: () => void;
    const held = new Promise<void>((resolve) => (revoke = resolve));
    const counted = s.post(undefined, {
      raw: async () => {
        await held;
        return '{"text":"late"}';
      },
    });
    await s.manager.revoke(OWNER, s.webhookId);
    revoke();
    const after = await s.post({ text: 'x' }, { url: wrongSecret });
    expect(before.headers).toEqual(problemHeaders());
    expect((await counted).headers).toEqual(problemHeaders({ remaining: 59, seconds: 60 }));
    expect(after.headers).toEqual(problemHeaders());
  });

  it("changing one answer's headers changes no other answer", async () => {
    const s = await setup();
    const first = await s.post({ text: 'x' }, { headers: { 'content-type': 'text/plain' } });
    first.headers['x-changed'] = 'yes';
    const second = await s.post({ text: 'x' }, { headers: { 'content-type': 'text/plain' } });
    expect(second.headers).toEqual(problemHeaders());
    expect(second.body).toEqual(first.body);
  });
});
