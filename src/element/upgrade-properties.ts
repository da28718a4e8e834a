// A property an app sets on the element before the element is defined (a framework sets them as
// soon as it makes the node, the module may load later) becomes an own property of the node, which
// hides the class's accessor once the class arrives. Taken off and set again, it reaches the accessor.

/** Sets again, through their accessors, the properties among `names` that `element` holds as its own. */
export function upgradeProperties(element: object, names: readonly string[]): void {
  const properties = element as Record<string, unknown>;
  for (const name of names) {
    if (!Object.hasOwn(properties, name)) continue;
    const value = properties[name];
    delete properties[name];
    properties[name] = value;
  }
}
