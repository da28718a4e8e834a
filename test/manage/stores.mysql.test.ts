import { afterAll, beforeAll, describe, it } from 'vitest';
import { backends } from '../support/backends.js';
import type { Listening } from '../support/http.js';
import { checkRoute, ROUTE_CASES } from './role-table.js';
import { managementTargets, mysqlStore, openWorld, type ManagedWorld } from './support.js';

// The role table of roles.test.ts on the MySQL store (on MariaDB), on every stack.
const { mysqlUrl, title } = backends();

describe.skipIf(mysqlUrl === null)(title('the role table on the MySQL store', 'mysql'), () => {
  describe.each(managementTargets)('$name', (target) => {
    let world: ManagedWorld;
    let app: Listening;
    beforeAll(async () => {
      world = await openWorld(mysqlStore(mysqlUrl!));
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
