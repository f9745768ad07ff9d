// Ports of the upstream test tables for resource.Quantity (k8s.io/apimachinery
// pkg/api/resource/{quantity,amount,scale_int}_test.go at eed236ce), one test per row.
// Upstream constructs some inputs from internal representations (decQuantity(m, exp, format),
// intQuantity(...)); here they are built with Quantity.fromScaled(m, exp, format), which holds
// the same unscaled value and exponent.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ERR_FORMAT_WRONG,
  ERR_NUMERIC,
  ERR_SUFFIX,
  Quantity,
  QuantityError,
  mustParse,
  parseQuantityOrError,
  splitQuantityString,
  type QuantityFormat,
} from '../../src/api/quantity.js';

const D: QuantityFormat = 'DecimalSI';
const B: QuantityFormat = 'BinarySI';
const X: QuantityFormat = 'DecimalExponent';

const mostPositive = (1n << 63n) - 1n;
const mostNegative = -(1n << 63n);

/** upstream decQuantity / intQuantity: m * 10^exp in the given format */
function dq(m: bigint | number, exp: number, format: QuantityFormat = D): Quantity {
  return Quantity.fromScaled(BigInt(m), exp, format);
}

/** an inf.Dec literal such as "-999999999999999999.1" */
function decString(s: string): Quantity {
  const neg = s.startsWith('-');
  const body = neg ? s.slice(1) : s;
  const [int, frac = ''] = body.split('.');
  const m = BigInt(int + frac);
  return dq(neg ? -m : m, -frac.length);
}

function P(s: string): Quantity {
  return Quantity.parse(s);
}

function show(q: Quantity): string {
  const { unscaled, exponent } = q.toDecimal();
  return `${q.toString()} (${unscaled}e${exponent} ${q.format})`;
}

function assertCmp(got: Quantity, want: Quantity, what: string): void {
  assert.equal(got.cmp(want), 0, `${what}: got ${show(got)}, want ${show(want)}`);
}

type ParseRow = [input: string, m: bigint, exp: number, format: QuantityFormat];
type StringRow = [m: bigint, exp: number, format: QuantityFormat, expect: string, alternate: string];
type ParseQuantityRow = [input: string, wantAsInt64: bigint | undefined, wantAsDec: string, canonical?: string];

// TestQuantityParse 96
const quantityParseRows: ParseRow[] = [
  ['0', 0n, 0, D],
  ['0n', 0n, 0, D],
  ['0u', 0n, 0, D],
  ['0m', 0n, 0, D],
  ['0Ki', 0n, 0, B],
  ['0k', 0n, 0, D],
  ['0Mi', 0n, 0, B],
  ['0M', 0n, 0, D],
  ['0Gi', 0n, 0, B],
  ['0G', 0n, 0, D],
  ['0Ti', 0n, 0, B],
  ['0T', 0n, 0, D],
  ['1', 1n, 0, D],
  ['1Ki', 1024n, 0, B],
  ['8Ki', 8192n, 0, B],
  ['7Mi', 7340032n, 0, B],
  ['6Gi', 6442450944n, 0, B],
  ['5Ti', 5497558138880n, 0, B],
  ['4Pi', 4503599627370496n, 0, B],
  ['3Ei', 3458764513820540928n, 0, B],
  ['10Ti', 10995116277760n, 0, B],
  ['100Ti', 109951162777600n, 0, B],
  ['5n', 5n, -9, D],
  ['4u', 4n, -6, D],
  ['3m', 3n, -3, D],
  ['9', 9n, 0, D],
  ['8k', 8n, 3, D],
  ['50k', 5n, 4, D],
  ['7M', 7n, 6, D],
  ['6G', 6n, 9, D],
  ['5T', 5n, 12, D],
  ['40T', 4n, 13, D],
  ['300T', 3n, 14, D],
  ['2P', 2n, 15, D],
  ['1E', 1n, 18, D],
  ['1E-3', 1n, -3, X],
  ['1e3', 1n, 3, X],
  ['1E6', 1n, 6, X],
  ['1e9', 1n, 9, X],
  ['1E12', 1n, 12, X],
  ['1e15', 1n, 15, X],
  ['1E18', 1n, 18, X],
  ['1e14', 1n, 14, X],
  ['1e13', 1n, 13, X],
  ['1e3', 1n, 3, X],
  ['100.035k', 100035n, 0, D],
  ['0.001', 1n, -3, D],
  ['0.0005k', 5n, -1, D],
  ['0.005', 5n, -3, D],
  ['0.05', 5n, -2, D],
  ['0.5', 5n, -1, D],
  ['0.00050k', 5n, -1, D],
  ['0.00500', 5n, -3, D],
  ['0.05000', 5n, -2, D],
  ['0.50000', 5n, -1, D],
  ['0.5e0', 5n, -1, X],
  ['0.5e-1', 5n, -2, X],
  ['0.5e-2', 5n, -3, X],
  ['0.5e0', 5n, -1, X],
  ['10.035M', 10035n, 3, D],
  ['1.2e3', 12n, 2, X],
  ['1.3E+6', 13n, 5, X],
  ['1.40e9', 14n, 8, X],
  ['1.53E12', 153n, 10, X],
  ['1.6e15', 16n, 14, X],
  ['1.7E18', 17n, 17, X],
  ['9.01', 901n, -2, D],
  ['8.1k', 81n, 2, D],
  ['7.123456M', 7123456n, 0, D],
  ['6.987654321G', 6987654321n, 0, D],
  ['5.444T', 5444n, 9, D],
  ['40.1T', 401n, 11, D],
  ['300.2T', 3002n, 11, D],
  ['2.5P', 25n, 14, D],
  ['1.01E', 101n, 16, D],
  ['3.001n', 4n, -9, D],
  ['1.1E-9', 2n, -9, X],
  ['0.0000000001', 1n, -9, D],
  ['0.0000000005', 1n, -9, D],
  ['0.00000000050', 1n, -9, D],
  ['0.5e-9', 1n, -9, X],
  ['0.9n', 1n, -9, D],
  ['0.00000012345', 124n, -9, D],
  ['0.00000012354', 124n, -9, D],
  ['9Ei', 9223372036854775807n, 0, B],
  ['9223372036854775807Ki', 9223372036854775807n, 0, B],
  ['12E', 12n, 18, D],
  ['100.035Ki', 10243584n, -2, B],
  ['0.5Mi', 524288n, 0, B],
  ['0.05Gi', 536870912n, -1, B],
  ['0.025Ti', 274877906944n, -1, B],
  ['0.000000000001Ki', 2n, -9, D],
  ['.001', 1n, -3, D],
  ['.0001k', 100n, -3, D],
  ['1.', 1n, 0, D],
  ['1.G', 1n, 9, D],
];
// TestQuantityString 42
const quantityStringRows: StringRow[] = [
  [1073741824n, 0, B, '1Gi', '1024Mi'],
  [314572800n, 0, B, '300Mi', '307200Ki'],
  [6144n, 0, B, '6Ki', ''],
  [1074815565824n, 0, B, '1001Gi', '1025024Mi'],
  [1099511627776n, 0, B, '1Ti', '1024Gi'],
  [5n, 0, B, '5', '5000m'],
  [500n, -3, B, '500m', '0.5'],
  [1n, 9, D, '1G', '1000M'],
  [1000n, 6, D, '1G', '0.001T'],
  [1000000n, 3, D, '1G', ''],
  [1000000000n, 0, D, '1G', ''],
  [1n, -3, D, '1m', '1000u'],
  [80n, -3, D, '80m', ''],
  [1080n, -3, D, '1080m', '1.08'],
  [108n, -2, D, '1080m', '1080000000n'],
  [10800n, -4, D, '1080m', ''],
  [300n, 6, D, '300M', ''],
  [1n, 12, D, '1T', ''],
  [1234567n, 6, D, '1234567M', ''],
  [1234567n, -3, B, '1234567m', ''],
  [3n, 3, D, '3k', ''],
  [1025n, 0, B, '1025', ''],
  [0n, 0, D, '0', ''],
  [0n, 0, B, '0', ''],
  [1n, 9, X, '1e9', '.001e12'],
  [1n, -3, X, '1e-3', '0.001e0'],
  [1n, -9, X, '1e-9', '1000e-12'],
  [80n, -3, X, '80e-3', ''],
  [300n, 6, X, '300e6', ''],
  [1n, 12, X, '1e12', ''],
  [1n, 3, X, '1e3', ''],
  [3n, 3, X, '3e3', ''],
  [3n, 3, D, '3k', ''],
  [0n, 0, X, '0', '00'],
  [1n, -9, D, '1n', ''],
  [80n, -9, D, '80n', ''],
  [1080n, -9, D, '1080n', ''],
  [108n, -8, D, '1080n', ''],
  [10800n, -10, D, '1080n', ''],
  [1n, -6, D, '1u', ''],
  [80n, -6, D, '80u', ''],
  [1080n, -6, D, '1080u', ''],
];
// TestParseQuantity 72
const parseQuantityRows: ParseQuantityRow[] = [
  ['-999999999999999999', -999999999999999999n, '-999999999999999999'],
  ['999999999999999999', 999999999999999999n, '999999999999999999'],
  ['-999999999999999999.0', undefined, '-999999999999999999', '-999999999999999999'],
  ['999999999999999999.0', undefined, '999999999999999999', '999999999999999999'],
  ['-999999999999999999.1', undefined, '-999999999999999999.1', '-999999999999999999100m'],
  ['999999999999999999.1', undefined, '999999999999999999.1', '999999999999999999100m'],
  ['-9999999999999999999', undefined, '-9999999999999999999'],
  ['9999999999999999999', undefined, '9999999999999999999'],
  ['-1E', -1000000000000000000n, '-1000000000000000000'],
  ['1E', 1000000000000000000n, '1000000000000000000'],
  ['-1000000000000000000', undefined, '-1000000000000000000', '-1E'],
  ['1000000000000000000', undefined, '1000000000000000000', '1E'],
  ['-9999999999999999999.0', undefined, '-9999999999999999999', '-9999999999999999999'],
  ['9999999999999999999.0', undefined, '9999999999999999999', '9999999999999999999'],
  ['-1.0E', -1000000000000000000n, '-1000000000000000000', '-1E'],
  ['1.0E', 1000000000000000000n, '1000000000000000000', '1E'],
  ['-1000000000000000000.0', undefined, '-1000000000000000000', '-1E'],
  ['1000000000000000000.0', undefined, '1000000000000000000', '1E'],
  ['-9999999999999999999000m', undefined, '-9999999999999999999', '-9999999999999999999'],
  ['9999999999999999999000m', undefined, '9999999999999999999', '9999999999999999999'],
  ['-9999999999999999999.1', undefined, '-9999999999999999999.1', '-9999999999999999999100m'],
  ['9999999999999999999.1', undefined, '9999999999999999999.1', '9999999999999999999100m'],
  ['-1.0000000000000000001E', undefined, '-1000000000000000000.1', '-1000000000000000000100m'],
  ['1.0000000000000000001E', undefined, '1000000000000000000.1', '1000000000000000000100m'],
  ['-1000000000000000000.1', undefined, '-1000000000000000000.1', '-1000000000000000000100m'],
  ['1000000000000000000.1', undefined, '1000000000000000000.1', '1000000000000000000100m'],
  ['-1.000000000000000001E', undefined, '-1000000000000000001', '-1000000000000000001'],
  ['1.000000000000000001E', undefined, '1000000000000000001', '1000000000000000001'],
  ['-1000000000000000001', undefined, '-1000000000000000001'],
  ['1000000000000000001', undefined, '1000000000000000001'],
  ['-10E', undefined, '-10000000000000000000'],
  ['10E', undefined, '10000000000000000000'],
  ['-10000000000000000000', undefined, '-10000000000000000000', '-10E'],
  ['10000000000000000000', undefined, '10000000000000000000', '10E'],
  ['-10.0E', undefined, '-10000000000000000000', '-10E'],
  ['10.0E', undefined, '10000000000000000000', '10E'],
  ['-10000000000000000000.0', undefined, '-10000000000000000000', '-10E'],
  ['10000000000000000000.0', undefined, '10000000000000000000', '10E'],
  ['-10000000000000000000000m', undefined, '-10000000000000000000', '-10E'],
  ['10000000000000000000000m', undefined, '10000000000000000000', '10E'],
  ['-10.0000000000000000001E', undefined, '-10000000000000000000.1', '-10000000000000000000100m'],
  ['10.0000000000000000001E', undefined, '10000000000000000000.1', '10000000000000000000100m'],
  ['-10000000000000000000.1', undefined, '-10000000000000000000.1', '-10000000000000000000100m'],
  ['10000000000000000000.1', undefined, '10000000000000000000.1', '10000000000000000000100m'],
  ['-10.000000000000000001E', undefined, '-10000000000000000001', '-10000000000000000001'],
  ['10.000000000000000001E', undefined, '10000000000000000001', '10000000000000000001'],
  ['-10000000000000000001', undefined, '-10000000000000000001'],
  ['10000000000000000001', undefined, '10000000000000000001'],
  ['-9223372036854775809', undefined, '-9223372036854775809'],
  ['9223372036854775806', undefined, '9223372036854775806'],
  ['-9223372036854775809.0', undefined, '-9223372036854775809', '-9223372036854775809'],
  ['9223372036854775806.0', undefined, '9223372036854775806', '9223372036854775806'],
  ['-9223372036854775809000m', undefined, '-9223372036854775809', '-9223372036854775809'],
  ['9223372036854775806000m', undefined, '9223372036854775806', '9223372036854775806'],
  ['-9223372036854775809.1', undefined, '-9223372036854775809.1', '-9223372036854775809100m'],
  ['9223372036854775806.1', undefined, '9223372036854775806.1', '9223372036854775806100m'],
  ['-9223372036854775808', undefined, '-9223372036854775808'],
  ['9223372036854775807', undefined, '9223372036854775807'],
  ['-9223372036854775808.0', undefined, '-9223372036854775808', '-9223372036854775808'],
  ['9223372036854775807.0', undefined, '9223372036854775807', '9223372036854775807'],
  ['-9223372036854775808000m', undefined, '-9223372036854775808', '-9223372036854775808'],
  ['9223372036854775807000m', undefined, '9223372036854775807', '9223372036854775807'],
  ['-9223372036854775808.1', undefined, '-9223372036854775808.1', '-9223372036854775808100m'],
  ['9223372036854775807.1', undefined, '9223372036854775807.1', '9223372036854775807100m'],
  ['-9223372036854775807', undefined, '-9223372036854775807'],
  ['9223372036854775808', undefined, '9223372036854775808'],
  ['-9223372036854775807.0', undefined, '-9223372036854775807', '-9223372036854775807'],
  ['9223372036854775808.0', undefined, '9223372036854775808', '9223372036854775808'],
  ['-9223372036854775807000m', undefined, '-9223372036854775807', '-9223372036854775807'],
  ['9223372036854775808000m', undefined, '9223372036854775808', '9223372036854775808'],
  ['-9223372036854775807.1', undefined, '-9223372036854775807.1', '-9223372036854775807100m'],
  ['9223372036854775808.1', undefined, '9223372036854775808.1', '9223372036854775808100m'],
];

// ---------------------------------------------------------------------------------------------

describe('TestQuantityParse (upstream table: value and format of each input)', () => {
  for (const [input, m, exp, format] of quantityParseRows) {
    const want = dq(m, exp, format);
    it(`parses ${JSON.stringify(input)} to ${m}e${exp} ${format}`, () => {
      const got = P(input);
      assertCmp(got, want, input);
      assert.equal(got.format, format);
      // AsInt64 agrees whenever both sides have an int64 form
      const i = want.asInt64();
      const j = got.asInt64();
      if (i !== undefined && j !== undefined) assert.equal(j, i);
      // round trip through the unscaled/exponent form, in every format
      const { unscaled, exponent } = got.toDecimal();
      for (const f of [D, B, X]) assertCmp(Quantity.fromScaled(unscaled, exponent, f), got, `${input} as ${f}`);
      // decomposing with the scanner and re-assembling gives the same value
      const parts = splitQuantityString(input);
      assert.equal(got.sign() < 0, !parts.positive, 'sign');
      const rebuilt = (parts.positive ? '' : '-') + parts.num + (parts.denom.length > 0 ? '.' + parts.denom : '') + parts.suffix;
      assertCmp(P(rebuilt), got, `rebuilt ${rebuilt}`);
    });
    it(`parses "-${input}" to the negation, same format`, () => {
      const got = P('-' + input);
      assertCmp(got, want.neg(), '-' + input);
      assert.equal(got.format, format);
    });
    it(`parses "+${input}" to the same value and format`, () => {
      const got = P('+' + input);
      assertCmp(got, want, '+' + input);
      assert.equal(got.format, format);
    });
  }
});

describe('TestQuantityParse (upstream invalid inputs; messages derived from upstream code)', () => {
  const invalid: [string, string][] = [
    ['', ERR_FORMAT_WRONG],
    ['1.1.M', ERR_FORMAT_WRONG],
    ['1+1.0M', ERR_FORMAT_WRONG],
    ['0.1mi', ERR_SUFFIX],
    ['0.1am', ERR_FORMAT_WRONG],
    ['aoeu', ERR_FORMAT_WRONG],
    ['.5i', ERR_SUFFIX],
    ['1i', ERR_SUFFIX],
    ['-3.01i', ERR_SUFFIX],
    ['-3.01e-', ERR_SUFFIX],
    [' 1', ERR_FORMAT_WRONG], // leading whitespace is forbidden
    ['1 ', ERR_FORMAT_WRONG], // trailing whitespace is forbidden
    ['Non-Numeric', ERR_FORMAT_WRONG], // TestQuantityParseNonNumericPanic
    ['invalid', ERR_FORMAT_WRONG], // TestQuantityValueSet
  ];
  for (const [input, message] of invalid) {
    it(`rejects ${JSON.stringify(input)} with "${message.slice(0, 40)}..."`, () => {
      assert.throws(() => P(input), (e: unknown) => e instanceof QuantityError && e.message === message);
      assert.equal(Quantity.tryParse(input), undefined);
      assert.deepEqual(parseQuantityOrError(input), { error: message });
    });
  }
});

describe('TestParseQuantity (upstream table: int64/big boundary, AsInt64, AsDec, String)', () => {
  for (const [input, wantAsInt64, wantAsDec, canonical] of parseQuantityRows) {
    const expected = canonical ?? input;
    it(`parses ${input} -> ${expected}${wantAsInt64 !== undefined ? ' (int64 form)' : ''}`, () => {
      const q = P(input);
      assert.equal(q.asInt64(), wantAsInt64, 'AsInt64');
      assertCmp(q, decString(wantAsDec), 'AsDec');
      assert.equal(q.toString(), expected, 'String()');
      assert.equal(q.toJSON(), expected, 'MarshalJSON');
    });
  }
});

describe('TestQuantityString (upstream table: canonical form, echo on parse, alternates, negation)', () => {
  for (const [m, exp, format, expect, alternate] of quantityStringRows) {
    const q = dq(m, exp, format);
    it(`${m}e${exp} ${format} prints ${expect}`, () => {
      assert.equal(q.toString(), expect);
      assert.equal(q.canonical(), expect);
    });
    it(`parsing ${expect} keeps the text (echo)`, () => {
      const p = P(expect);
      assert.equal(p.cachedString(), expect, 'did not copy canonical string on parse');
      assert.equal(p.toString(), expect);
    });
    if (alternate !== '') {
      it(`alternate ${alternate} is not echoed and prints ${expect}`, () => {
        const p = P(alternate);
        assert.equal(p.cachedString(), undefined, 'unexpected nested string');
        assert.equal(p.toString(), expect);
      });
    }
    if (m !== 0n) {
      it(`negated ${m}e${exp} ${format} prints -${expect}`, () => {
        assert.equal(q.neg().toString(), '-' + expect);
      });
    }
  }
});

describe('TestQuantityParseEmit (upstream table)', () => {
  const rows: [string, string][] = [
    ['1Ki', '1Ki'],
    ['1Mi', '1Mi'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1000M', '1G'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
  ];
  for (const [input, expect] of rows) {
    it(`${input} emits ${expect}`, () => assert.equal(P(input).toString(), expect));
    it(`-${input} emits -${expect}`, () => assert.equal(P('-' + input).toString(), '-' + expect));
  }
});

describe('TestQuantityParseZero / TestQuantityParseNonNumericPanic / TestQuantityCanocicalizeZero (upstream)', () => {
  it('MustParse("0") prints 0', () => assert.equal(mustParse('0').toString(), '0'));
  it('MustParse("Non-Numeric") panics (throws QuantityError)', () =>
    assert.throws(() => mustParse('Non-Numeric'), (e: unknown) => e instanceof QuantityError && e.message === ERR_FORMAT_WRONG));
  it('1000m minus 1 prints 0, not 0<suffix>', () => {
    const z = P('1000m').sub(Quantity.fromInt(1));
    assert.ok(z.isZero());
    assert.equal(z.toString(), '0');
  });
});

describe('TestParseQuantityString (upstream scanner table)', () => {
  const rows: [string, boolean, string, string, string, string][] = [
    ['0.025Ti', true, '0.025', '0', '025', 'Ti'],
    ['1.025Ti', true, '1.025', '1', '025', 'Ti'],
    ['-1.025Ti', false, '-1.025', '1', '025', 'Ti'],
    ['.', true, '.', '0', '', ''],
    ['-.', false, '-.', '0', '', ''],
    ['1E-3', true, '1', '1', '', 'E-3'],
  ];
  for (const [input, positive, value, num, denom, suffix] of rows) {
    it(`splits ${input}`, () => assert.deepEqual(splitQuantityString(input), { positive, value, num, denom, suffix }));
  }
});

describe('TestQuantityCmp (upstream tables)', () => {
  const rows: [string, string, number][] = [
    ['0', '0', 0],
    ['100m', '50m', 1],
    ['50m', '100m', -1],
    ['10000T', '100Gi', 1],
  ];
  for (const [x, y, c] of rows) it(`cmp(${x}, ${y}) = ${c}`, () => assert.equal(P(x).cmp(P(y)), c));
  // table2: nil inf.Dec is the zero int64 amount
  const z = Quantity.zero();
  const rows2: [string, Quantity, Quantity, number][] = [
    ['dec 0 vs dec 0', dq(0, 0), dq(0, 0), 0],
    ['nil vs dec 0', z, dq(0, 0), 0],
    ['dec 0 vs nil', dq(0, 0), z, 0],
    ['nil vs nil', z, z, 0],
    ['nil vs 10', z, dq(10, 0), -1],
    ['nil vs -10', z, dq(-10, 0), 1],
    ['10 vs nil', dq(10, 0), z, 1],
    ['-10 vs nil', dq(-10, 0), z, -1],
  ];
  for (const [name, a, b, c] of rows2) it(`cmp ${name} = ${c}`, () => assert.equal(a.cmp(b), c));
});

describe('TestQuantityCmpInt64AndDec (upstream table; sub-nano rows shifted by a common power of ten)', () => {
  const rows: [bigint, number, bigint, number, number][] = [
    [901n, -2, 901n, -2, 0],
    [90n, -1, 901n, -2, -1],
    [901n, -2, 900n, -2, 1],
    [0n, 0, 0n, 0, 0],
    [0n, 1, 0n, -1, 0],
    [0n, -1, 0n, 1, 0],
    [800n, -3, 1n, 0, -1],
    [800n, -3, 79n, -2, 1],
    [mostPositive, 0, 1n, -1, 1],
    [mostPositive, 1, 1n, 0, 1],
    [mostPositive, 1, 1n, 1, 1],
    [mostPositive, 1, 0n, 1, 1],
    [mostPositive, -16, 1n, 3, -1],
    [mostNegative, 0, 0n, 0, -1],
    [mostNegative, -18, -1n, 0, -1],
    [mostNegative, -19, -1n, 0, 1],
    [10n ** 18n, -17, 1n, 1, 0],
    [10n ** 18n, -17, -10n, 0, 1],
    [-(10n ** 18n), -17, -10n, 0, 0],
    [10n ** 18n, -17, 1n, 0, 1],
    [10n ** 18n + 1n, -17, 1n, 1, 1],
    [10n ** 18n - 1n, -17, 1n, 1, -1],
  ];
  for (const [am, as, bm, bs, c] of rows) {
    // values are held at nano precision; comparison is invariant under a common scaling
    const shift = Math.max(0, -9 - Math.min(as, bs));
    it(`cmp(${am}e${as}, ${bm}e${bs}) = ${c}`, () => {
      const a = dq(am, as + shift);
      const b = dq(bm, bs + shift);
      assert.equal(a.cmp(b), c);
      assert.equal(b.cmp(a), c === 0 ? 0 : -c);
    });
  }
});

describe('TestQuantityRoundUp (upstream table)', () => {
  const rows: [string, number, Quantity, boolean][] = [
    ['9.01', -3, dq(901, -2), true],
    ['9.01', -2, dq(901, -2), true],
    ['9.01', -1, dq(91, -1), false],
    ['9.01', 0, dq(10, 0), false],
    ['9.01', 1, dq(10, 0), false],
    ['9.01', 2, dq(100, 0), false],
    ['-9.01', -3, dq(-901, -2), true],
    ['-9.01', -2, dq(-901, -2), true],
    ['-9.01', -1, dq(-91, -1), false],
    ['-9.01', 0, dq(-10, 0), false],
    ['-9.01', 1, dq(-10, 0), false],
    ['-9.01', 2, dq(-100, 0), false],
  ];
  for (const [input, scale, want, exact] of rows) {
    it(`RoundUp(${input}, ${scale}) = ${show(want)} exact=${exact}`, () => {
      const src = P(input);
      const { q, exact: ok } = src.roundUp(scale);
      assert.equal(ok, exact);
      assertCmp(q, want, 'rounded');
      assertCmp(src, P(input), 'source unchanged');
    });
    // upstream's asDec pass rounds the inf.Dec form; a spelling with more than 18 digits takes
    // the same big path here (same value, no int64 form)
    const big = input + '0'.repeat(18);
    it(`RoundUp(${big}, ${scale}) on the big path = ${show(want)} exact=${exact}`, () => {
      const src = P(big);
      assert.equal(src.asInt64(), undefined, 'big path');
      const { q, exact: ok } = src.roundUp(scale);
      assert.equal(ok, exact);
      assertCmp(q, want, 'rounded');
    });
  }
});

describe('TestNegativeScaleInt64 (upstream math_test table, through RoundUp: ceil away from zero and exactness)', () => {
  // base rounded to a multiple of 10^scale; result = rounded value / 10^scale. The upstream row
  // with a negative scale is marked undefined behaviour there and is not carried over.
  const rows: [bigint, number, bigint, boolean][] = [
    [1234567n, 0, 1234567n, true],
    [1234567n, 1, 123457n, false],
    [1234567n, 2, 12346n, false],
    [1234567n, 3, 1235n, false],
    [1234567n, 4, 124n, false],
    [-1234567n, 0, -1234567n, true],
    [-1234567n, 1, -123457n, false],
    [-1234567n, 2, -12346n, false],
    [-1234567n, 3, -1235n, false],
    [-1234567n, 4, -124n, false],
    [1000n, 0, 1000n, true],
    [1000n, 1, 100n, true],
    [1000n, 2, 10n, true],
    [1000n, 3, 1n, true],
    [1000n, 4, 1n, false],
    [-1000n, 0, -1000n, true],
    [-1000n, 1, -100n, true],
    [-1000n, 2, -10n, true],
    [-1000n, 3, -1n, true],
    [-1000n, 4, -1n, false],
    [0n, 0, 0n, true],
    [0n, 1, 0n, true],
    [0n, 2, 0n, true],
  ];
  for (const [base, scale, result, exact] of rows) {
    it(`negativeScaleInt64(${base}, ${scale}) = ${result} exact=${exact}`, () => {
      const { q, exact: ok } = dq(base, 0).roundUp(scale);
      assert.equal(ok, exact);
      assert.equal(q.scaledValue(scale), result);
      assert.equal(dq(base, 0).scaledValue(scale), result, 'ScaledValue rounds the same way');
    });
  }
});

describe('TestQuantityNeg / TestNeg (upstream tables)', () => {
  it('neg of 901e-2 (int form) prints -9010m and leaves the source alone', () => {
    const a = dq(901, -2);
    const out = a.neg();
    assert.notEqual(out.cmp(a), 0);
    assert.equal(out.toString(), '-9010m');
    assert.equal(a.toString(), '9010m');
  });
  it('neg of 9.01 (parsed) prints -9010m', () => assert.equal(P('9.01').neg().toString(), '-9010m'));
  const rows: [string, Quantity, Quantity][] = [
    ['int 0', dq(0, 0), dq(0, 0)],
    ['zero value', Quantity.zero(), Quantity.zero()],
    ['int 10 BinarySI', dq(10, 0, B), dq(-10, 0, B)],
    ['int -10 BinarySI', dq(-10, 0, B), dq(10, 0, B)],
    ['dec 0', dq(0, 0), dq(0, 0)],
    ['dec 10 BinarySI', dq(10, 0, B), dq(-10, 0, B)],
    ['dec -10 BinarySI', dq(-10, 0, B), dq(10, 0, B)],
  ];
  for (const [name, a, want] of rows) it(`neg ${name}`, () => assertCmp(a.neg(), want, name));
});

describe('TestAdd / TestSub (upstream tables; format of the receiver, or of y when the receiver is zero)', () => {
  const z = () => Quantity.zero();
  const add: [Quantity, Quantity, Quantity][] = [
    [dq(10, 0), dq(1, 1), dq(20, 0)],
    [dq(10, 0), dq(1, 0, B), dq(11, 0)],
    [dq(10, 0, B), dq(1, 0), dq(11, 0, B)],
    [z(), dq(50, 0), dq(50, 0)],
    [dq(50, 0), z(), dq(50, 0)],
    [z(), z(), dq(0, 0)],
  ];
  add.forEach(([a, b, want], i) =>
    it(`add[${i}] ${show(a)} + ${show(b)} = ${show(want)}`, () => {
      const r = a.add(b);
      assertCmp(r, want, 'sum');
      assert.equal(r.format, want.format);
    }),
  );
  const sub: [Quantity, Quantity, Quantity][] = [
    [dq(10, 0), dq(1, 1), dq(0, 0)],
    [dq(10, 0), dq(1, 0, B), dq(9, 0)],
    [dq(10, 0, B), dq(1, 0), dq(9, 0, B)],
    [z(), dq(50, 0), dq(-50, 0)],
    [dq(50, 0), z(), dq(50, 0)],
    [z(), z(), dq(0, 0)],
  ];
  sub.forEach(([a, b, want], i) =>
    it(`sub[${i}] ${show(a)} - ${show(b)} = ${show(want)}`, () => {
      const r = a.sub(b);
      assertCmp(r, want, 'difference');
      assert.equal(r.format, want.format);
    }),
  );
});

describe('TestQuantityAddZeroPreservesSuffix / TestQuantitySubZeroPreservesSuffix (upstream)', () => {
  for (const v of ['100m', '1Gi']) {
    const zero = P('0');
    it(`${v} + 0 and 0 + ${v} print ${v}`, () => {
      assert.equal(P(v).add(zero).toString(), v);
      assert.equal(zero.add(P(v)).toString(), v);
    });
    it(`${v} - 0 prints ${v}; 0 - ${v} prints -${v}`, () => {
      assert.equal(P(v).sub(zero).toString(), v);
      assert.equal(zero.sub(P(v)).toString(), P(v).neg().toString());
      assert.equal(zero.sub(P(v)).toString(), '-' + v);
    });
  }
});

describe('TestMul (upstream table; values)', () => {
  const z = Quantity.zero();
  const rows: [Quantity, bigint, Quantity][] = [
    [dq(10, 0), 10n, dq(100, 0)],
    [dq(10, 0), 1n, dq(10, 0)],
    [dq(10, 0, B), 1n, dq(10, 0, B)],
    [z, 50n, dq(0, 0)],
    [dq(50, 0), 0n, dq(0, 0)],
    [z, 0n, dq(0, 0)],
    [dq(10, 0), -10n, dq(-100, 0)],
    [dq(-10, 0), 1n, dq(-10, 0)],
    [dq(10, 0, B), -1n, dq(-10, 0, B)],
    [dq(-50, 0), 0n, dq(0, 0)],
    [dq(-50, 0), -50n, dq(2500, 0)],
    [z, -50n, dq(0, 0)],
    [dq(mostPositive, 0), 0n, dq(0, 1)],
    [dq(mostPositive, 0), 1n, dq(mostPositive, 0)],
    [dq(mostPositive, 0), -1n, dq(-mostPositive, 0)],
    [dq(mostPositive / 2n, 0), 2n, dq((mostPositive / 2n) * 2n, 0)],
    [dq(mostPositive / -2n, 0), -2n, dq((mostPositive / 2n) * 2n, 0)],
    [dq(mostPositive, 0), 2n, dq(mostPositive * 2n, 0)],
    [dq(mostPositive, 0), 10n, dq(mostPositive, 1)],
    [dq(mostPositive, 0), -10n, dq(-mostPositive, 1)],
    [dq(mostNegative, 0), 0n, dq(0, 1)],
    [dq(mostNegative, 0), 1n, dq(mostNegative, 0)],
    [dq(mostNegative, 0), -1n, dq(mostPositive + 1n, 0)],
    [dq(mostNegative / 2n, 0), 2n, dq(mostNegative, 0)],
    [dq(mostNegative / -2n, 0), -2n, dq(mostNegative, 0)],
    [dq(mostNegative, 0), 2n, dq(mostNegative * 2n, 0)],
    [dq(mostNegative, 0), 10n, dq(mostNegative, 1)],
    [dq(mostNegative, 0), -10n, dq(mostPositive + 1n, 1)],
  ];
  rows.forEach(([a, y, want], i) =>
    it(`mul[${i}] ${show(a)} * ${y} = ${show(want)}`, () => {
      const r = a.mul(y);
      assertCmp(r, want, 'product');
      assert.equal(r.format, a.format);
    }),
  );
});

describe('TestMilliNewSet / TestNewSet / TestNewScaledSet (upstream tables)', () => {
  const milli: [bigint, QuantityFormat, string, boolean][] = [
    [1n, D, '1m', true],
    [1000n, D, '1', true],
    [1234000n, D, '1234', true],
    [1024n, B, '1024m', false], // format changes
    [1000000n, 'invalidFormatDefaultsToExponent' as QuantityFormat, '1e3', true],
    [1024n * 1024n, B, '1048576m', false], // format changes
  ];
  for (const [value, format, expect, exact] of milli) {
    it(`NewMilliQuantity(${value}, ${format}) prints ${expect}`, () => {
      const q = Quantity.fromMilli(value, format);
      assert.equal(q.toString(), expect);
      if (exact) assert.equal(P(q.toString()).milliValue(), value);
    });
  }
  const ints: [bigint, QuantityFormat, string][] = [
    [1n, D, '1'],
    [1000n, D, '1k'],
    [1234000n, D, '1234k'],
    [1024n, B, '1Ki'],
    [1000000n, 'invalidFormatDefaultsToExponent' as QuantityFormat, '1e6'],
    [1024n * 1024n, B, '1Mi'],
  ];
  for (const [value, format, expect] of ints) {
    it(`NewQuantity(${value}, ${format}) prints ${expect} and round-trips Value()`, () => {
      const q = Quantity.fromInt(value, format);
      assert.equal(q.toString(), expect);
      assert.equal(P(q.toString()).value(), value);
      assert.equal(Quantity.fromInt(Number(value), format).toString(), expect);
    });
  }
  const scaled: [bigint, number, string][] = [
    [1n, -9, '1n'],
    [1000n, -9, '1u'],
    [1n, -6, '1u'],
    [1000n, -6, '1m'],
    [1n, -3, '1m'],
    [1000n, -3, '1'],
    [1n, 0, '1'],
    [0n, -9, '0'],
    [0n, -6, '0'],
    [0n, -3, '0'],
    [0n, 0, '0'],
  ];
  for (const [value, scale, expect] of scaled) {
    it(`NewScaledQuantity(${value}, ${scale}) prints ${expect} and round-trips ScaledValue`, () => {
      const q = Quantity.fromScaled(value, scale);
      assert.equal(q.toString(), expect);
      assert.equal(P(q.toString()).scaledValue(scale), value);
      assertCmp(Quantity.fromScaled(Number(value), scale), q, 'SetScaled');
    });
  }
});

describe('TestScaledValue (upstream table)', () => {
  const rows: [number, number, bigint][] = [
    [-9, -9, 1n],
    [-9, -6, 1n],
    [-9, -3, 1n],
    [-9, 0, 1n],
    [-6, -9, 1000n],
    [-6, -6, 1n],
    [-6, -3, 1n],
    [-6, 0, 1n],
    [-3, -9, 1000n * 1000n],
    [-3, -6, 1000n],
    [-3, -3, 1n],
    [-3, 0, 1n],
    [0, -9, 1000n * 1000n * 1000n],
    [0, -6, 1000n * 1000n],
    [0, -3, 1000n],
    [0, 0, 1n],
    [2, -2, 100n * 100n],
  ];
  for (const [from, to, want] of rows) {
    it(`1e${from} scaled to 1e${to} is ${want}`, () => assert.equal(Quantity.fromScaled(1, from).scaledValue(to), want));
  }
});

describe('TestScaledValueInternal (upstream scale_int_test table; ceil away from zero, exact)', () => {
  const maxInt64 = mostPositive;
  // unscaled, inf scale (value = unscaled * 10^-scale), new inf scale, want
  const rows: [bigint, number, number, bigint][] = [
    [1000n, 0, 0, 1000n],
    [1000n, 0, -3, 1n],
    [1000n, 3, 0, 1n],
    [0n, 3, 0, 0n],
    [999n, 3, 0, 1n],
    [500n, 3, 0, 1n],
    [499n, 3, 0, 1n],
    [1n, 3, 0, 1n],
    [maxInt64 - 1n, 1, 0, (maxInt64 - 1n) / 10n + 1n],
    [10n ** 100n, 100, 0, 1n],
    [0n, 0, 3, 0n],
    [1n, 0, 3, 1000n],
    [1n, -3, 0, 1000n],
    [1000n, -3, 2, 100000000n],
    [maxInt64 / 1000n, 0, 3, (maxInt64 / 1000n) * 1000n],
  ];
  for (const [unscaled, scale, newScale, want] of rows) {
    it(`scaledValue(${unscaled}, ${scale}, ${newScale}) = ${want}`, () =>
      assert.equal(Quantity.fromScaled(unscaled, -scale).scaledValue(-newScale), want));
  }
});

describe('amount_test tables (upstream int64Amount tables, through the public API)', () => {
  const asInt64: [bigint, number, bigint | undefined][] = [
    [100n, 0, 100n],
    [100n, 1, 1000n],
    [100n, -5, undefined],
    [100n, 100, undefined],
  ];
  for (const [v, s, want] of asInt64) {
    it(`TestInt64AmountAsInt64 ${v}e${s} -> ${want}`, () => assert.equal(dq(v, s).asInt64(), want));
  }
  // TestInt64AmountAdd: exact sums (upstream's ok=false rows overflow int64Amount and fall back to inf.Dec)
  const adds: [bigint, number, bigint, number, bigint, number][] = [
    [100n, 1, 10n, 2, 200n, 1],
    [100n, 1, 1n, 2, 110n, 1],
    [100n, 1, 1n, 100, 10n ** 100n + 1000n, 0],
    [-5n, 2, 50n, 1, 0n, 1],
    [-5n, 2, 5n, 2, 0n, 2],
    [mostPositive, -1, 1n, -1, mostPositive + 1n, -1],
    [mostPositive, -1, 0n, -1, mostPositive, -1],
    [mostPositive / 10n, 1, 10n, 0, mostPositive + 3n, 0],
  ];
  for (const [am, as, bm, bs, cm, cs] of adds) {
    it(`TestInt64AmountAdd ${am}e${as} + ${bm}e${bs} = ${cm}e${cs} (commutative)`, () => {
      assertCmp(dq(am, as).add(dq(bm, bs)), dq(cm, cs), 'a+b');
      assertCmp(dq(bm, bs).add(dq(am, as)), dq(cm, cs), 'b+a');
    });
  }
  // TestInt64AmountMul: exact products (upstream's ok=false rows overflow int64Amount and
  // Quantity.Mul falls back to inf.Dec). The row 1e-100 * 10 is left out: values below nano are
  // rounded up to nano on construction here (deliberate deviation, see quantity.ts).
  const muls: [bigint, number, bigint, bigint, number][] = [
    [100n, 1, 1000n, 100000n, 1],
    [100n, -1, 1000n, 100000n, -1],
    [1n, 100, 10n, 10n, 100],
    [-5n, 2, 500n, -2500n, 2],
    [-5n, -2, 500n, -2500n, -2],
    [0n, 1, 0n, 0n, 1],
    [mostPositive, -1, 10n, mostPositive * 10n, -1],
    [mostPositive, -1, 0n, 0n, 0],
    [mostPositive, 0, 1n, mostPositive, 0],
    [mostPositive / 10n, 1, 10n, (mostPositive / 10n) * 10n, 1],
    [mostPositive, 0, -1n, -mostPositive, 0],
    [mostNegative, 0, 1n, mostNegative, 0],
    [mostNegative, 1, 0n, 0n, 0],
    [mostNegative, 1, 1n, mostNegative, 1],
  ];
  for (const [am, as, b, cm, cs] of muls) {
    it(`TestInt64AmountMul ${am}e${as} * ${b} = ${cm}e${cs}`, () => {
      assertCmp(dq(am, as).mul(b), dq(cm, cs), 'product');
    });
  }
  const canon: [bigint, number, string][] = [
    [100n, 0, '100'],
    [100n, 1, '1e3'],
    [100n, -1, '10'],
    [10800n, -10, '1080e-9'],
  ];
  for (const [v, s, want] of canon) {
    it(`TestInt64AsCanonicalString ${v}e${s} -> ${want}`, () => assert.equal(dq(v, s, X).toString(), want));
  }
  const signs: [bigint, number, number][] = [
    [-50n, 1, -1],
    [0n, 1, 0],
    [300n, 1, 1],
    [-50n, -8, -1],
    [50n, -8, 1],
    [0n, -8, 0],
    [-50n, 0, -1],
    [50n, 0, 1],
    [0n, 0, 0],
  ];
  for (const [v, s, want] of signs) it(`TestAmountSign ${v}e${s} -> ${want}`, () => assert.equal(dq(v, s).sign(), want));
  // TestInt64AmountAsScaledInt64. One upstream row overflows int64 (result 0, ok=false); here exact.
  const scaledRows: [string, bigint, number, number, bigint][] = [
    ['i.scale < scaled', 100n, 0, 5, 1n],
    ['i.scale = scaled', 100n, 1, 1, 100n],
    ['i.scale > scaled, no overflow', 100n, 5, 2, 100000n],
    ['i.scale > scaled, overflows int64 upstream (exact here)', 876n, 30, 4, 876n * 10n ** 26n],
    ['i.scale < 0 and fraction exists', 93n, -1, 0, 10n],
    ["i.scale < 0 and fraction doesn't exist", 100n, -1, 0, 10n],
    ['i.value < 0 and fraction exists', -1932n, 2, 4, -20n],
    ["i.value < 0 and fraction doesn't exist", -1900n, 2, 4, -19n],
  ];
  for (const [name, v, s, to, want] of scaledRows) {
    it(`TestInt64AmountAsScaledInt64: ${name}`, () => assert.equal(dq(v, s).scaledValue(to), want));
  }
});

describe('TestDetectOverflowAdd / TestDetectOverflowMultiply (upstream math_test tables, through Quantity add/mul)', () => {
  // Upstream checks its int64 helpers: ok=false means the int64 result overflowed. At the Quantity
  // level such a sum or product falls back to inf.Dec and stays exact, and AsInt64 then fails; an
  // ok=true result stays an int64Amount at scale 0, so AsInt64 answers it.
  const mp = mostPositive;
  const mn = mostNegative;
  const adds: [bigint, bigint, boolean][] = [
    [0n, 0n, true],
    [-1n, 1n, true],
    [0n, 1n, true],
    [2n, 2n, true],
    [2n, -2n, true],
    [-2n, -2n, true],
    [mn, -1n, false],
    [mn, 1n, true],
    [mp, -1n, true],
    [mp, 1n, false],
    [mn, mp, true],
    [mp, mn, true],
    [mp, mp, false],
    [mn, mn, false],
    [-mp, mn, false],
    [mn, -mp, false],
    [-mp, -mp, false],
  ];
  for (const [a, b, ok] of adds) {
    it(`int64Add(${a}, ${b}) = ${a + b} ok=${ok} (commutative)`, () => {
      for (const [x, y] of [[a, b], [b, a]] as const) {
        const r = Quantity.fromInt(x).add(Quantity.fromInt(y));
        assertCmp(r, Quantity.fromInt(a + b), `${x} + ${y}`);
        assert.equal(r.asInt64(), ok ? a + b : undefined, `${x} + ${y}: AsInt64`);
      }
    });
  }
  const muls: [bigint, bigint, boolean][] = [
    [0n, 0n, true],
    [-1n, 1n, true],
    [-1n, -1n, true],
    [1n, 1n, true],
    [0n, 1n, true],
    [1n, 0n, true],
    [2n, 2n, true],
    [2n, -2n, true],
    [-2n, -2n, true],
    [mn, -1n, false],
    [mn, 1n, true],
    [mp, -1n, true],
    [mp, 1n, true],
    [mn, mp, false],
    [mp, mn, false],
    [mp, mp, false],
    [mn, mn, false],
    [-mp, mn, false],
    [mn, -mp, false],
    [-mp, -mp, false],
  ];
  for (const [a, b, ok] of muls) {
    it(`int64Multiply(${a}, ${b}) = ${a * b} ok=${ok} (commutative)`, () => {
      for (const [x, y] of [[a, b], [b, a]] as const) {
        const r = Quantity.fromInt(x).mul(y);
        assertCmp(r, Quantity.fromInt(a * b), `${x} * ${y}`);
        assert.equal(r.asInt64(), ok ? a * b : undefined, `${x} * ${y}: AsInt64`);
      }
    });
  }
});

describe('TestQuantityAsApproximateFloat64 (upstream table)', () => {
  const m7 = 7n * 1024n * 1024n;
  const f7 = 7 * 1024 * 1024;
  const rows: [Quantity, number][] = [];
  for (const f of [D, X, B]) rows.push([dq(0, 0, f), 0], [dq(1, 0, f), 1]);
  for (const f of [B, D, X]) {
    rows.push(
      [dq(1024, 0, f), 1024],
      [dq(8 * 1024, 0, f), 8 * 1024],
      [dq(m7, 0, f), f7],
      [dq(m7, 1, f), f7 * 10],
      [dq(m7, 4, f), f7 * 10000],
      [dq(m7, 8, f), f7 * 100000000],
      [dq(m7, -1, f), f7 * 0.1], // '* Pow10' and '/ float(10)' do not round the same way
      [dq(m7, -8, f), f7 / 100000000],
    );
  }
  rows.push(
    [dq(mostPositive, 0, D), 9223372036854775807],
    [dq(mostPositive, 0, B), 9223372036854775807],
    [dq(12, 18, D), 1.2e19],
    [dq(12, 500, D), Infinity],
    [dq(-12, 500, D), -Infinity],
  );
  for (const [q, want] of rows) it(`${q.format} ${q.toString()} -> ${want}`, () => assert.equal(q.asApproximateFloat64(), want));
});

describe('TestStringQuantityAsApproximateFloat64 (upstream table)', () => {
  const rows: [string, number][] = [
    ['2Ki', 2048],
    ['1.1Ki', 1126.4],
    ['1Mi', 1.048576e6],
    ['2Gi', 2.147483648e9],
  ];
  for (const [s, want] of rows) it(`${s} -> ${want}`, () => assert.equal(P(s).asApproximateFloat64(), want));
});

describe('TestJSONWhitespace (upstream table) and UnmarshalCBOR string rows', () => {
  const rows: [string, string][] = [
    ['" 1"', '1'],
    ['"1 "', '1'],
    ['1', '1'],
    [' 1', '1'],
    ['1 ', '1'],
    ['10', '10'],
    ['-1', '-1'],
    [' -1', '-1'],
  ];
  for (const [raw, expect] of rows) {
    it(`JSON ${raw} decodes to ${expect}`, () => {
      // Go's decoder hands UnmarshalJSON the token without surrounding whitespace
      assert.equal(Quantity.fromJSONText(raw.trim()).toString(), expect);
      assert.equal(Quantity.fromJSON(JSON.parse(raw)).toString(), expect);
    });
  }
  it('CBOR text string "1M" decodes to 1M', () => assert.equal(Quantity.fromJSON('1M').toString(), '1M'));
  it('CBOR whitespace " \\t\\n\\r1M \\t\\n\\r" decodes to 1M', () =>
    assert.equal(Quantity.fromJSON(' \t\n\r1M \t\n\r').toString(), '1M'));
  it('CBOR empty string is ErrFormatWrong', () =>
    assert.throws(() => Quantity.fromJSON(''), (e: unknown) => e instanceof QuantityError && e.message === ERR_FORMAT_WRONG));
});

describe('TestQuantityProtoMarshal / TestQuantityProtoUnmarshal (upstream tables; the wire form is the string field)', () => {
  // Quantity's protobuf message carries only String(); decoding parses it back.
  const parsed = ['0', '100m', '50m', '10000T'];
  for (const s of parsed) {
    it(`${s} survives the string wire form`, () => {
      const q = P(s);
      assertCmp(P(q.toString()), q, 'decoded');
    });
  }
  const decs: [bigint, string][] = [
    [0n, '0'],
    [10n, '10'],
    [-10n, '-10'],
  ];
  for (const [m, wire] of decs) {
    it(`inf.Dec ${m} encodes as ${JSON.stringify(wire)} and decodes equal`, () => {
      const q = dq(m, 0);
      assert.equal(q.toString(), wire);
      assertCmp(P(wire), q, 'decoded');
    });
  }
});

describe('TestQuantityValueSet, Example* and TestUninitializedNoCrash (upstream)', () => {
  it('QuantityValue.Set("1Mi"): Value 1048576, JSON "1Mi"', () => {
    const q = P('1Mi');
    assert.equal(q.value(), 1024n * 1024n);
    assert.equal(JSON.stringify(q), '"1Mi"');
  });
  const fmt: [Quantity, string][] = [
    [Quantity.fromInt(5n * 1024n * 1024n * 1024n, B), '5Gi'],
    [Quantity.fromInt(5n * 1000n * 1000n * 1000n, D), '5G'],
    [Quantity.fromMilli(5300, D), '5300m'],
  ];
  for (const [q, want] of fmt) it(`ExampleFormat prints ${want}`, () => assert.equal(q.toString(), want));
  const must: [string, 'value' | 'milli', bigint, QuantityFormat][] = [
    ['5Gi', 'value', 5368709120n, B],
    ['5G', 'value', 5000000000n, D],
    ['5300m', 'milli', 5300n, D],
    ['5.4', 'milli', 5400n, D],
  ];
  for (const [s, kind, want, f] of must) {
    it(`ExampleMustParse ${s}: ${kind} ${want} (${f})`, () => {
      const q = P(s);
      assert.equal(kind === 'value' ? q.value() : q.milliValue(), want);
      assert.equal(q.format, f);
    });
  }
  it('the zero value answers every accessor', () => {
    const q = Quantity.zero();
    assert.equal(q.value(), 0n);
    assert.equal(q.milliValue(), 0n);
    assert.equal(q.toString(), '0');
    assert.equal(q.toJSON(), '0');
  });
  it('TestQuantityPtrEqual: equal and unequal quantities', () => {
    assert.ok(P('100m').equals(P('100m')));
    assert.ok(!P('100m').equals(P('200m')));
  });
});
