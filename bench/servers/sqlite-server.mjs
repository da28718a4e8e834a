// One server of the SQLite part, in its own process: `node sqlite-server.mjs <memory|sqlite|sqlite-before> <file>
// <webhooks>`. The handler on node:http over the memory store and limiter, or over the SQLite store
// and limiter on <file> (made and seeded by the parent). It tells the parent its port, and the
// webhook paths when it made them itself (memory); it exits when the parent disconnects.

import { createServer } from 'node:http';
import { portOf, tellParent } from '../child.mjs';
import { openBenchStore } from '../sqlite-stores.mjs';

const [kind, file = '', webhooks] = process.argv.slice(2);
if (kind !== 'memory' && kind !== 'sqlite' && kind !== 'sqlite-before')
  throw new Error('node sqlite-server.mjs <memory|sqlite|sqlite-before> <file> <webhooks>');
const { createNodeListener } = await import('channel-webhooks/node');
const { handle, paths } = await openBenchStore(kind, file, kind === 'memory' ? Number(webhooks) : 0);
const server = createServer(createNodeListener(handle));
server.listen(0, '127.0.0.1', () => tellParent({ type: 'ready', port: portOf(server), paths }));
process.on('disconnect', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
