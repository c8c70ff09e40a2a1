// The one encoder of fsapi's ids (src/common/crockford.ts): the bits of the bytes, five a symbol, in
// Crockford's alphabet. A batch row's derived reference is pinned: a resumed run finds the rows an earlier
// run sent only while the same bytes give the same reference.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { CROCKFORD_ALPHABET, crockfordBase32, randomCrockford } from '../src/common/crockford.js';
import { derivedReference } from '../src/batch/file.js';
import { newRequestId } from '../src/store/controls.js';

/** The values 0 to 31, five bits each, packed into 20 bytes. */
function packed(values: number[]): Uint8Array {
  const bits = values.map((value) => value.toString(2).padStart(5, '0')).join('');
  return Uint8Array.from(bits.match(/.{8}/g)!, (byte) => Number.parseInt(byte, 2));
}

describe('Crockford base32', () => {
  it('reads the bytes as one stream of bits, five a symbol, most significant first', () => {
    assert.equal(CROCKFORD_ALPHABET, '0123456789ABCDEFGHJKMNPQRSTVWXYZ');
    const all = Array.from({ length: 32 }, (_, value) => value);
    assert.equal(crockfordBase32(packed(all), 32), CROCKFORD_ALPHABET);
    assert.equal(crockfordBase32(packed(all), 5), '01234');
    assert.equal(crockfordBase32(new Uint8Array(5).fill(255), 8), 'ZZZZZZZZ');
    assert.throws(() => crockfordBase32(new Uint8Array(4), 7), RangeError);
  });

  it('random ids take as many bytes as their bits need, from the given source', () => {
    const sizes: number[] = [];
    const id = randomCrockford(12, (size) => {
      sizes.push(size);
      return new Uint8Array(size);
    });
    assert.deepEqual([id, sizes], ['000000000000', [8]]);
    assert.match(randomCrockford(12), /^[0-9A-HJKMNP-TV-Z]{12}$/);
    assert.match(newRequestId(), /^AP-[0-9A-HJKMNP-TV-Z]{8}$/);
  });

  it("a batch row's derived reference stays what earlier runs derived", () => {
    const hash = createHash('sha256').update('fsapi').digest();
    assert.equal(derivedReference('ACME', hash, 2), 'ACME-DQSERPYVPC5S1RGK');
    assert.equal(derivedReference('ACME', hash, 3), 'ACME-KSVMZD3AMVBABYJQ');
  });
});
