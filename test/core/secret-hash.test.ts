import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSecret, secretMatches } from '../../src/secret/secret.js';
import { sha256Hex } from '../../src/secret/sha256-short.js';

const reference = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it('matches the FIPS 180-4 test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  // For every string — ASCII of every length around the one-block boundary (55/56 bytes), and any
  // Unicode — the result equals Node's own SHA-256 of the UTF-8 bytes.
  it('equals node:crypto for ASCII strings of 0 to 80 characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', minLength: 0, maxLength: 80 }), (text) => {
        expect(sha256Hex(text)).toBe(reference(text));
      }),
      { numRuns: 2_000 },
    );
    for (let length = 0; length <= 80; length++) expect(sha256Hex('x'.repeat(length))).toBe(reference('x'.repeat(length)));
  });

  it('equals node:crypto for any Unicode string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        expect(sha256Hex(text)).toBe(reference(text));
      }),
      { numRuns: 500 },
    );
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
