import { describe, expect, it } from 'vitest';
import { upgradeProperties } from '../../src/element/upgrade-properties.js';

// Rule: a property set on the node before its class was defined reaches the class's setter once
// the element connects, and is then no own property of the node; one never set stays unset.
class Settings {
  readonly set: Array<[string, unknown]> = [];
  get api(): string {
    return 'from the class';
  }
  set api(value: string) {
    this.set.push(['api', value]);
  }
  set locale(value: string) {
    this.set.push(['locale', value]);
  }
}

describe('properties set before the element was defined', () => {
  it('go through the setters, and shadow the accessors no longer', () => {
    const node = new Settings();
    // As a framework does on a node the module has not upgraded yet.
    Object.defineProperty(node, 'api', { value: '/api/manage', writable: true, configurable: true, enumerable: true });
    upgradeProperties(node, ['api', 'locale', 'fetch']);
    expect(node.set).toEqual([['api', '/api/manage']]);
    expect([Object.hasOwn(node, 'api'), node.api, Object.hasOwn(node, 'fetch')]).toEqual([
      false,
      'from the class',
      false,
    ]);
  });
});
