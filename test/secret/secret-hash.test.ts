import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSecret, hashesMatch, hashSecret, portableHashSecret } from '../../src/secret/secret.js';
import { anyCodePoint } from '../support/code-point.js';

const reference = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

// hashSecret is the runtime's own SHA-256 where it has one (Node here); the portable one serves
// every other runtime: both must give the same hash for every string.
describe.each([
  ['hashSecret', hashSecret],
  ['portableHashSecret', portableHashSecret],
])('%s', (_name, hash) => {
  it('matches the FIPS 180-4 test vectors', () => {
    expect(hash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  // For every string, of any length and any characters (lone surrogates too, which UTF-8 writes as
  // U+FFFD), the result equals Node's own SHA-256 of its UTF-8 bytes.
  it('equals node:crypto for any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'grapheme', maxLength: 120 }), fc.string({ unit: anyCodePoint, maxLength: 120 })),
        (text) => {
          expect(hash(text)).toBe(reference(text));
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe('hashesMatch', () => {
  // A secret matches exactly the hash of itself: every other secret, and every stored value that is
  // not that hash (one digit changed, cut short, lengthened, or not hex), is refused.
  it('accepts a secret against its own hash, in either hex case', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (secret) => {
        expect(hashesMatch(hashSecret(secret), hashSecret(secret))).toBe(true);
        expect(hashesMatch(hashSecret(secret), hashSecret(secret).toUpperCase())).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses another secret', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (secret, other) => {
        fc.pre(secret !== other);
        expect(hashesMatch(hashSecret(secret), hashSecret(other))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a stored hash with any one digit changed, cut short, lengthened or not hex', () => {
    const secret = generateSecret();
    const hash = hashSecret(secret);
    for (let i = 0; i < 64; i++) {
      const digit = hash[i] === '0' ? '1' : '0';
      expect(hashesMatch(hashSecret(secret), hash.slice(0, i) + digit + hash.slice(i + 1))).toBe(false);
      expect(hashesMatch(hashSecret(secret), `${hash.slice(0, i)}g${hash.slice(i + 1)}`)).toBe(false);
    }
    expect(hashesMatch(hashSecret(secret), hash.slice(0, 63))).toBe(false);
    expect(hashesMatch(hashSecret(secret), `${hash}0`)).toBe(false);
    expect(hashesMatch(hashSecret(secret), '')).toBe(false);
  });

  it('refuses equal values that are not 64 hex digits', () => {
    for (const value of ['', 'g'.repeat(64), '-'.repeat(64), `${'0'.repeat(63)}\u0100`, '0'.repeat(65)])
      expect(hashesMatch(value, value)).toBe(false);
  });
});
