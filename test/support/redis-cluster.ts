// The clients a Redis Cluster test talks through, connected to the cluster the global setup started:
// an ioredis Cluster, a node-redis cluster, and one plain connection per master, to look at each
// node on its own.
import { Cluster, Redis } from 'ioredis';
import { createCluster } from 'redis';

export interface ClusterClients {
  ioredis: Cluster;
  nodeRedis: ReturnType<typeof createCluster>;
  masters: Redis[];
}

/** Connects the three kinds of client to the cluster's nodes (`host:port` each); on a failure, closes what it connected. */
export async function connectClusterClients(nodes: readonly string[]): Promise<ClusterClients> {
  const startupNodes = nodes.map((node) => {
    const [host, port] = node.split(':');
    return { host: host!, port: Number(port) };
  });
  const clients: Partial<ClusterClients> = {};
  try {
    clients.ioredis = new Cluster(startupNodes, {
      enableOfflineQueue: false,
      lazyConnect: true,
      redisOptions: { maxRetriesPerRequest: 1 },
    });
    await clients.ioredis.connect();
    clients.nodeRedis = await createCluster({
      rootNodes: startupNodes.map(({ host, port }) => ({ url: `redis://${host}:${port}` })),
    }).connect();
    clients.masters = startupNodes.map(({ host, port }) => new Redis(port, host, { lazyConnect: true }));
    await Promise.all(clients.masters.map((master) => master.connect()));
    return clients as ClusterClients;
  } catch (error) {
    // The connection error is the one to see, not a failure to close what half-connected.
    await closeClusterClients(clients).catch(() => {});
    throw error;
  }
}

/** Closes whichever of the clients were connected. */
export async function closeClusterClients(clients: Partial<ClusterClients>): Promise<void> {
  await Promise.all([
    clients.ioredis?.quit(),
    clients.nodeRedis?.close(),
    ...(clients.masters ?? []).map((master) => master.quit()),
  ]);
}
