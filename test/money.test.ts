// Property tests of src/money/kobo.ts: what an operator types for --amount becomes exactly the integer
// kobo they meant, and goes back to the same text; everything else is refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  AmountError,
  addKobo,
  formatNaira,
  integerKobo,
  koboToApiNumber,
  koboToDecimal,
  MAX_INTEGER_DIGITS,
  NO_KOBO,
  parseApiAmount,
  parseNairaInput,
  subtractKobo,
  sumKobo,
  type Kobo,
} from '../src/money/kobo.js';
import { parseAmountOption } from '../src/common/validate.js';
import { UsageError } from '../src/errors.js';

const MAX_KOBO = 10 ** (MAX_INTEGER_DIGITS + 2) - 1; // 9,999,999,999,999.99 naira

const kobo = fc.integer({ min: 1, max: MAX_KOBO }).map((value) => value as Kobo);

/** Groups the integer digits in threes: 1234567 -> 1,234,567. Written without the code under test. */
function group(integer: string): string {
  const parts: string[] = [];
  for (let end = integer.length; end > 0; end -= 3) parts.unshift(integer.slice(Math.max(0, end - 3), end));
  return parts.join(',');
}

/** The ways a person may write an amount: 1500, 1500.5, 1500.50, 1,500.50, with or without grouping. */
const amountText = fc
  .record({ value: kobo, grouped: fc.boolean(), decimals: fc.constantFrom(0, 1, 2), padding: fc.constantFrom('', ' ', '  ') })
  .filter(({ value, decimals }) => (decimals === 0 ? value % 100 === 0 : decimals === 1 ? value % 10 === 0 : true))
  .map(({ value, grouped, decimals, padding }) => {
    const integer = String(Math.floor(value / 100));
    const fraction = String(value % 100)
      .padStart(2, '0')
      .slice(0, decimals);
    const text = `${grouped ? group(integer) : integer}${decimals > 0 ? `.${fraction}` : ''}`;
    return { value, text: `${padding}${text}${padding}` };
  });

function refuses(text: string): boolean {
  try {
    parseNairaInput(text);
    return false;
  } catch (error) {
    return error instanceof AmountError;
  }
}

describe('money: valid amounts', () => {
  it('every valid amount string parses to the integer kobo it denotes', () => {
    fc.assert(
      fc.property(amountText, ({ value, text }) => {
        assert.equal(parseNairaInput(text), value);
      }),
      { numRuns: 2000 },
    );
  });

  it('kobo -> decimal text -> kobo is the identity, and the text has exactly two decimals', () => {
    fc.assert(
      fc.property(kobo, (value) => {
        const text = koboToDecimal(value);
        assert.match(text, /^[0-9]+\.[0-9]{2}$/);
        assert.equal(parseNairaInput(text), value);
        assert.equal(parseApiAmount(text), value);
      }),
      { numRuns: 2000 },
    );
  });

  it('the display form (₦1,234.56) reads back to the same kobo', () => {
    fc.assert(
      fc.property(kobo, (value) => {
        const shown = formatNaira(value);
        assert.ok(shown.startsWith('₦'));
        assert.equal(parseNairaInput(shown.slice(1)), value);
      }),
      { numRuns: 2000 },
    );
  });

  it('the JSON number sent to the API reads back to the same kobo', () => {
    fc.assert(
      fc.property(kobo, (value) => {
        const sent = koboToApiNumber(value);
        assert.equal(parseApiAmount(sent), value);
        assert.equal(parseApiAmount(JSON.parse(JSON.stringify(sent)) as number), value);
      }),
      { numRuns: 2000 },
    );
  });

  it('known examples', () => {
    assert.equal(parseNairaInput('1500'), 150000);
    assert.equal(parseNairaInput('1500.5'), 150050);
    assert.equal(parseNairaInput('1500.50'), 150050);
    assert.equal(parseNairaInput('1,500.50'), 150050);
    assert.equal(parseNairaInput('0.01'), 1);
    assert.equal(parseNairaInput('9999999999999.99'), MAX_KOBO);
    assert.equal(koboToDecimal(150010 as Kobo), '1500.10');
    assert.equal(formatNaira(123456789 as Kobo), '₦1,234,567.89');
  });
});

describe('money: invalid amounts are refused', () => {
  const integerText = fc.integer({ min: 0, max: 10 ** 9 }).map(String);

  it("the contract's examples", () => {
    for (const text of [
      '1e3',
      '-5',
      '0',
      '1.005',
      'NaN',
      '',
      '   ',
      '١٢٣',
      '１２３',
      '१२३',
      'Infinity',
      '+5',
      '0x10',
      '1,50',
      '15,00.00',
      '1 500',
      '1.',
      '.5',
      '0.00',
      '0,000',
    ]) {
      assert.ok(refuses(text), `${JSON.stringify(text)} should be refused`);
    }
  });

  it('a pasted ₦ sign or a minus is refused with what to type instead', () => {
    const message = (text: string) => {
      try {
        parseNairaInput(text);
      } catch (error) {
        assert.ok(error instanceof AmountError);
        return error.message;
      }
      assert.fail(`${JSON.stringify(text)} should be refused`);
    };
    assert.equal(message('₦1,500.00'), 'amount "₦1,500.00": leave out the ₦ sign, like 1,500.00');
    assert.equal(message('₦ 250'), 'amount "₦ 250": leave out the ₦ sign, like 250');
    assert.equal(message('-5'), 'amount "-5" is below zero: give the naira to send, like 5');
    assert.match(message('₦1e3'), /is not a number of naira/);
    assert.match(message('--5'), /is not a number of naira/);
  });

  it('exponents', () => {
    fc.assert(fc.property(integerText, fc.integer({ min: -5, max: 20 }), fc.constantFrom('e', 'E'), (int, exp, e) => refuses(`${int}${e}${exp}`)));
  });

  it('negative amounts', () => {
    fc.assert(fc.property(amountText, ({ text }) => refuses(`-${text.trim()}`)));
  });

  it('zero in any spelling', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.constantFrom('', '.0', '.00'), (zeros, fraction) => refuses(`${'0'.repeat(zeros)}${fraction}`)));
  });

  it('more than two decimals', () => {
    fc.assert(fc.property(integerText, fc.stringMatching(/^[0-9]{3,8}$/), (int, fraction) => refuses(`${int}.${fraction}`)));
  });

  it('more than 13 integer digits', () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_INTEGER_DIGITS + 1, max: 30 }), fc.boolean(), (digits, grouped) => {
        const integer = `1${'0'.repeat(digits - 1)}`;
        return refuses(grouped ? group(integer) : integer);
      }),
    );
  });

  it('non-ASCII digits anywhere', () => {
    // Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali, full-width, and mathematical bold digits.
    const foreignZero = fc.constantFrom(0x0660, 0x06f0, 0x0966, 0x09e6, 0xff10, 0x1d7ce);
    fc.assert(
      fc.property(amountText, foreignZero, fc.nat(), fc.nat(9), ({ text }, zero, position, digit) => {
        const trimmed = text.trim();
        const at = position % (trimmed.length + 1);
        return refuses(`${trimmed.slice(0, at)}${String.fromCodePoint(zero + digit)}${trimmed.slice(at)}`);
      }),
    );
  });

  it('any string outside the accepted grammar', () => {
    const accepted = /^\s*([0-9]{1,3}(,[0-9]{3})+|[0-9]+)(\.[0-9]{1,2})?\s*$/;
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (text) => {
        fc.pre(!accepted.test(text));
        return refuses(text);
      }),
      { numRuns: 3000 },
    );
  });

  it('--amount turns a refusal into a usage error (exit 2)', () => {
    assert.throws(
      () => parseAmountOption('1e3'),
      (error: unknown) => error instanceof UsageError && error.exitCode === 2,
    );
  });
});

describe('money: kobo is a type of its own', () => {
  it("fsapi's own integers come in whole, and sums stay exact and bounded", () => {
    assert.equal(integerKobo(150_010), 150_010);
    assert.equal(integerKobo('150010'), 150_010, 'an integer column read back as text');
    for (const bad of [1.5, Number.NaN, 2 ** 53, '1.5', '', null, undefined]) assert.throws(() => integerKobo(bad), AmountError, String(bad));
    const a = integerKobo(2_500_000);
    const b = integerKobo(1075);
    assert.equal(addKobo(a, b), 2_501_075);
    assert.equal(subtractKobo(b, a), -2_498_925);
    assert.equal(sumKobo([a, b, NO_KOBO]), 2_501_075);
    assert.throws(() => addKobo(integerKobo(Number.MAX_SAFE_INTEGER), integerKobo(1)), AmountError);
  });

  it('a plain number is not kobo: the compiler refuses it where money is meant (tsc --noEmit, run by npm test)', () => {
    // Each directive fails the type check when the line under it compiles: the brand is what stops a count,
    // a naira amount or a float from being formatted, stored or sent as kobo.
    // @ts-expect-error a plain number, which would format at run time
    assert.equal(formatNaira(150_010), '₦1,500.10');
    const a = integerKobo(100);
    // @ts-expect-error kobo + kobo is a number: sums come back through addKobo, sumKobo, subtractKobo
    const sum: Kobo = a + a;
    assert.equal(sum, addKobo(a, a));
  });
});
