import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Listening } from '../support/http.js';
import { checkRoute, ROUTE_CASES } from './role-table.js';
import { managementTargets, memoryStore, openWorld, type ManagedWorld } from './support.js';

// Every route, for every caller (organization owner and admin, the channel's owner, another member,
// nobody signed in), on every stack the API is mounted on, over real servers on the memory store.
// test/manage/stores.pg.test.ts runs the same table on SQLite and PostgreSQL.
describe.each(managementTargets)('the role table on $name', (target) => {
  let world: ManagedWorld;
  let app: Listening;
  beforeAll(async () => {
    world = await openWorld(memoryStore);
    app = await target.start(world.manager);
  });
  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  it.each(ROUTE_CASES.map((routeCase) => [routeCase.route, routeCase] as const))('%s', async (_, routeCase) => {
    await checkRoute(app.origin, world, routeCase);
  });
});
