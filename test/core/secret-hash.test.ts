import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSecret, secretMatches } from '../../src/secret/secret.js';
import { sha256Hex } from '../../src/secret/sha256-short.js';

const reference = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it('matches the one-block FIPS 180-4 test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  // For every ASCII string of one block (0 to 55 characters: secrets have 43) the result equals
  // Node's own SHA-256; anything else is refused rather than hashed wrongly.
  it('equals node:crypto for ASCII strings of 0 to 55 characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', minLength: 0, maxLength: 55 }), (text) => {
        expect(sha256Hex(text)).toBe(reference(text));
      }),
      { numRuns: 2_000 },
    );
    for (let length = 0; length <= 55; length++) expect(sha256Hex('x'.repeat(length))).toBe(reference('x'.repeat(length)));
  });

  it.each([
    ['56 ASCII characters', 'x'.repeat(56)],
    ['a non-ASCII character', 'caf\u00e9'],
  ])('refuses %s with invalid_argument', (_, text) => {
    expect(() => sha256Hex(text)).toThrow(expect.objectContaining({ name: 'ChannelWebhookError', code: 'invalid_argument' }));
  });
});

describe('secretMatches', () => {
  // A secret matches exactly the hash of itself: every other secret, and every stored value that is
  // not that hash (one digit changed, cut short, lengthened, or not hex), is refused.
  it('accepts a secret against its own hash, in either hex case', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (secret) => {
        expect(secretMatches(secret, sha256Hex(secret))).toBe(true);
        expect(secretMatches(secret, sha256Hex(secret).toUpperCase())).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses another secret', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (secret, other) => {
        fc.pre(secret !== other);
        expect(secretMatches(secret, sha256Hex(other))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a stored hash with any one digit changed, cut short, lengthened or not hex', () => {
    const secret = generateSecret();
    const hash = sha256Hex(secret);
    for (let i = 0; i < 64; i++) {
      const digit = hash[i] === '0' ? '1' : '0';
      expect(secretMatches(secret, hash.slice(0, i) + digit + hash.slice(i + 1))).toBe(false);
      expect(secretMatches(secret, `${hash.slice(0, i)}g${hash.slice(i + 1)}`)).toBe(false);
    }
    expect(secretMatches(secret, hash.slice(0, 63))).toBe(false);
    expect(secretMatches(secret, `${hash}0`)).toBe(false);
    expect(secretMatches(secret, '')).toBe(false);
  });
});
