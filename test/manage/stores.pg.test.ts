import { afterAll, beforeAll, describe, it } from 'vitest';
import { backends } from '../support/backends.js';
import type { Listening } from '../support/http.js';
import { checkRoute, ROUTE_CASES } from './role-table.js';
import {
  managementTargets,
  openWorld,
  postgresStore,
  sqliteStore,
  type ManagedWorld,
  type StoreUnderTest,
} from './support.js';

// The role table of roles.test.ts on the SQLite and PostgreSQL stores, on every stack.
const { databaseUrl, title } = backends();

const stores: Array<[string, StoreUnderTest | null]> = [
  ['SQLite', sqliteStore],
  [title('PostgreSQL', 'postgres'), databaseUrl === null ? null : postgresStore(databaseUrl)],
];

describe.each(stores)('the role table on the %s store', (_, under) => {
  describe.skipIf(under === null).each(managementTargets)('$name', (target) => {
    let world: ManagedWorld;
    let app: Listening;
    beforeAll(async () => {
      world = await openWorld(under!);
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
});
