// Ports made by this library that do all their work in this process, synchronously: the in-memory
// store and limiter. They cannot hang, so the handler calls them without a deadline, which would
// cost more than their work. A wrapper around one is a different object and gets deadlines again.
const inProcess = new WeakSet<object>();

/** Marks a port of this library as doing its work in process. Returns it. */
export function markInProcess<T extends object>(port: T): T {
  inProcess.add(port);
  return port;
}

/** Whether `port` is a port of this library that cannot hang. */
export function isInProcess(port: object): boolean {
  return inProcess.has(port);
}
