import { describe, expect, it } from 'vitest';

type Route = Record<'POST' | 'GET' | 'PUT' | 'PATCH' | 'DELETE', (request: Request) => Promise<Response>> & {
  runtime: string;
  dynamic: string;
};
type Lib = {
  webhooks: {
    manager: { create(actor: unknown, input: { channelId: string; name: string }): Promise<{ url: string }> };
  };
};

// Next.js calls a route handler's exported method functions with the Web Request; so does this test.
const route = (): Promise<Route> => import('../../examples/nextjs/app/hooks/channels/[id]/[secret]/route.js' as string);
const lib = (): Promise<Lib> => import('../../examples/nextjs/lib/webhooks.js' as string);

describe('examples/nextjs route handler', () => {
  it('stores a POST, answers its retry as a duplicate, and answers every other method 405', async () => {
    const handlers = await route();
    expect(handlers.runtime).toBe('nodejs');
    expect(handlers.dynamic).toBe('force-dynamic');
    const { url } = await (await lib()).webhooks.manager.create(
      { userId: 'u-demo', role: 'member' },
      { channelId: 'general', name: 'Deploys' },
    );
    const post = () =>
      handlers.POST(
        new Request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': 'deploy-1' },
          body: '{"text":"Deploy finished"}',
        }),
      );

    const created = await post();
    expect(created.status).toBe(201);
    const body = (await created.json()) as { message: { body: string; author: { name: string } }; duplicate: boolean };
    expect(body).toMatchObject({ duplicate: false, message: { body: 'Deploy finished', author: { name: 'Deploys' } } });
    const again = await post();
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ...body, duplicate: true });

    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'] as const) {
      const answer = await handlers[method](new Request(url, { method }));
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
    }
  });
});
