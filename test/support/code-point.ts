import fc from 'fast-check';

const SURROGATES = 0xe000 - 0xd800;
const toCodePoint = (index: number): number => (index < 0xd800 ? index : index + SURROGATES);

function toIndex(value: unknown): number {
  const point = typeof value === 'string' ? value.codePointAt(0) : undefined;
  if (point === undefined || String.fromCodePoint(point) !== value || (point >= 0xd800 && point < 0xe000)) {
    throw new Error('not one code point outside the surrogates');
  }
  return point < 0xd800 ? point : point - SURROGATES;
}

/**
 * Any code point but a surrogate, as one string: the same values, for the same seed, as fast-check's
 * `unit: 'binary'`, whose unmapper builds a table of all 1.1 million code points in every test file
 * that asks for it (seconds of CPU each), where this one computes the index back.
 *
 * @example
 * fc.string({ unit: anyCodePoint, maxLength: 40 });
 */
export const anyCodePoint: fc.Arbitrary<string> = fc
  .nat({ max: 0x10ffff - SURROGATES })
  .map((index) => String.fromCodePoint(toCodePoint(index)), toIndex);
