import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/sha256-short.js';

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
