// Rules from the Bulkhead reference (qos-oom-cgroup-quantity.md §4) and edge cases derived from
// reading upstream's quantity.go/suffix.go/amount.go, one test per row, each named for the rule
// it pins. Rows marked "deviation" document where Bulkhead is deliberately saner than upstream.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ERR_FORMAT_WRONG,
  ERR_NUMERIC,
  ERR_SUFFIX,
  Quantity,
  QuantityError,
  goTrimSpace,
  parseQuantityOrError,
  type QuantityFormat,
} from '../../src/api/quantity.js';

const P = (s: string) => Quantity.parse(s);

const BIG_PATH = new Set(['1000000000000000001']);

describe('echo: upstream keeps the original text on its fast int64 path', () => {
  // [input, String()/JSON, canonical]
  const rows: [string, string, string][] = [
    ['100.035k', '100.035k', '100035'],
    ['1.', '1.', '1'],
    ['1.G', '1.G', '1G'],
    ['+1', '+1', '1'],
    ['00001', '00001', '1'],
    ['007k', '007k', '7k'],
    ['+1Ki', '+1Ki', '1Ki'],
    ['01Ki', '01Ki', '1Ki'],
    ['1.Ki', '1.Ki', '1Ki'],
    ['1E6', '1E6', '1e6'],
    ['2e0', '2e0', '2'],
    ['1E-3', '1E-3', '1e-3'],
    ['0', '0', '0'],
    ['999999999999999999', '999999999999999999', '999999999999999999'],
    // not echoed: binary mantissa a multiple of 8
    ['+8Ki', '8Ki', '8Ki'],
    ['1024Ki', '1Mi', '1Mi'],
    // not echoed: digits end in 000
    ['1000M', '1G', '1G'],
    ['1000', '1k', '1k'],
    // not echoed: leading zero digit string (fraction without integer part)
    ['0.5', '500m', '500m'],
    ['.5', '500m', '500m'],
    ['-0', '0', '0'],
    ['0m', '0', '0'],
    // not echoed: scale not a multiple of 3
    ['1.5', '1500m', '1500m'],
    ['10k', '10k', '10k'],
    ['1e4', '10e3', '10e3'],
    // not echoed: big path (> 18 digits, or finer than nano, or fractional binary)
    ['1000000000000000001', '1000000000000000001', '1000000000000000001'],
    ['1.5Ki', '1536', '1536'],
    // DecimalSI exponent > 18 prints without suffix (upstream bug)
    ['1000E', '1', '1'],
    ['10000E', '10', '10'],
    ['1e21', '1e21', '1e21'],
  ];
  for (const [input, str, canon] of rows) {
    it(`${input}: String() ${str}, canonical ${canon}`, () => {
      const q = P(input);
      assert.equal(q.toString(), str);
      assert.equal(q.toJSON(), str);
      assert.equal(JSON.stringify({ q }), JSON.stringify({ q: str }));
      assert.equal(q.canonical(), canon);
      assert.equal(q.cachedString(), str === input && !BIG_PATH.has(input) ? input : undefined);
    });
  }
  it('a value computed from an echoed quantity is never echoed', () => {
    const q = P('+1');
    assert.equal(q.add(Quantity.zero()).toString(), '1');
    assert.equal(Quantity.zero().add(q).toString(), '1');
    assert.equal(q.sub(Quantity.zero()).toString(), '1');
    assert.equal(q.neg().toString(), '-1');
    assert.equal(q.neg().neg().toString(), '1');
    assert.equal(q.mul(1).toString(), '1');
  });
  it('roundUp to a coarser-or-equal scale keeps the echo on the int64 path (RoundUp does not clear it)', () => {
    const q = P('007k');
    assert.equal(q.roundUp(0).q.toString(), '007k');
  });
});

describe('grammar: numeric part may be empty or only a dot; sign alone is zero', () => {
  const rows: [string, QuantityFormat][] = [
    ['k', 'DecimalSI'],
    ['Mi', 'BinarySI'],
    ['Ti', 'BinarySI'],
    ['e3', 'DecimalExponent'],
    ['.', 'DecimalSI'],
    ['-.', 'DecimalSI'],
    ['-', 'DecimalSI'],
    ['+', 'DecimalSI'],
    ['.m', 'DecimalSI'],
    ['000', 'DecimalSI'],
    ['0.0000000000', 'DecimalSI'],
  ];
  for (const [input, format] of rows) {
    it(`${JSON.stringify(input)} parses as 0 (${format})`, () => {
      const q = P(input);
      assert.ok(q.isZero());
      assert.equal(q.format, format);
      assert.equal(q.toString(), '0');
    });
  }
});

describe('grammar: errors', () => {
  const rows: [string, string, string][] = [
    ['', ERR_FORMAT_WRONG, 'empty string'],
    ['K', ERR_SUFFIX, 'suffixes are case sensitive (K)'],
    ['1K', ERR_SUFFIX, 'suffixes are case sensitive (1K)'],
    ['1mi', ERR_SUFFIX, 'mi is not a suffix'],
    ['1KB', ERR_FORMAT_WRONG, 'B is not a suffix character'],
    ['1Mb', ERR_FORMAT_WRONG, 'b is not a suffix character'],
    ['1e', ERR_SUFFIX, 'e alone is not a suffix'],
    ['1e+', ERR_SUFFIX, 'exponent without digits'],
    ['1eE5', ERR_SUFFIX, 'exponent digits must follow e directly'],
    ['1e3.5', ERR_FORMAT_WRONG, 'fractional exponent'],
    ['1e99999999999999999999', ERR_SUFFIX, 'exponent beyond int64'],
    ['1Ki5', ERR_SUFFIX, 'digits after a binary suffix'],
    ['1m3', ERR_SUFFIX, 'digits after a decimal suffix'],
    ['--1', ERR_SUFFIX, 'double sign (the second one starts the suffix)'],
    ['1-', ERR_SUFFIX, 'trailing sign'],
    ['Ei', ERR_NUMERIC, 'Pi/Ei without digits take the big path, which needs a digit'],
    ['Pi', ERR_NUMERIC, 'Pi/Ei without digits take the big path, which needs a digit'],
    ['.Pi', ERR_NUMERIC, 'Pi/Ei without digits take the big path, which needs a digit'],
    ['e-10', ERR_NUMERIC, 'below nano without digits takes the big path, which needs a digit'],
    ['-.e-12', ERR_NUMERIC, 'below nano without digits takes the big path, which needs a digit'],
    ['1\u00a0', ERR_FORMAT_WRONG, 'no whitespace of any kind'],
  ];
  for (const [input, message, rule] of rows) {
    it(`${rule}: ${JSON.stringify(input)}`, () => {
      assert.throws(() => P(input), (e: unknown) => e instanceof QuantityError && e.message === message);
      assert.equal(parseQuantityOrError(input).error, message);
      assert.equal(Quantity.tryParse(input), undefined);
    });
  }
  it('QuantityError carries a kind', () => {
    assert.equal(parseQuantityOrError('x').q, undefined);
    try {
      P('1Q');
    } catch (e) {
      assert.ok(e instanceof QuantityError);
      assert.equal(e.kind, 'format');
    }
    assert.throws(() => P('1K'), (e: unknown) => e instanceof QuantityError && e.kind === 'suffix');
    assert.throws(() => P('Ei'), (e: unknown) => e instanceof QuantityError && e.kind === 'numeric');
  });
});

describe('suffixes: E alone is exa, E<digits> is an exponent; exponents are int32-truncated', () => {
  const rows: [string, bigint, QuantityFormat, string][] = [
    ['1E', 10n ** 27n, 'DecimalSI', 'E alone is exa'],
    ['1E3', 10n ** 12n, 'DecimalExponent', 'E3 is an exponent'],
    ['1e+3', 10n ** 12n, 'DecimalExponent', 'signed exponent'],
    ['1e-0', 10n ** 9n, 'DecimalExponent', 'e-0 is exponent zero'],
    ['1e4294967296', 10n ** 9n, 'DecimalExponent', 'int32 truncation: 2^32 -> 0'],
    ['1e4294967299', 10n ** 12n, 'DecimalExponent', 'int32 truncation: 2^32+3 -> 3'],
    ['1Ei', 1n << 60n, 'BinarySI', 'Ei is 2^60 (big path, not capped)'],
    ['7Ei', 7n << 60n, 'BinarySI', '7Ei is below 2^63'],
  ];
  for (const [input, nanosOver1e9, format, rule] of rows) {
    it(`${rule}: ${input}`, () => {
      const q = P(input);
      assert.equal(q.nanos(), nanosOver1e9 === 10n ** 27n ? 10n ** 27n : nanosOver1e9 * (format === 'BinarySI' ? 10n ** 9n : 1n));
      assert.equal(q.format, format);
    });
  }
  it('1e4294967296 is echoed verbatim (fast path with truncated exponent 0)', () =>
    assert.equal(P('1e4294967296').toString(), '1e4294967296'));
});

describe('value model: nano precision, rounded up away from zero at parse time', () => {
  const rows: [string, string, bigint][] = [
    ['0.1m', '100u', 100_000n],
    ['0.5n', '1n', 1n],
    ['0.9n', '1n', 1n],
    ['3.001n', '4n', 4n],
    ['1.1E-9', '2e-9', 2n],
    ['-0.5n', '-1n', -1n],
    ['-3.001n', '-4n', -4n],
    ['1e-1000', '1e-9', 1n],
    ['-1e-1000', '-1e-9', -1n],
    ['0.00000012345', '124n', 124n],
  ];
  for (const [input, str, nanos] of rows) {
    it(`${input} -> ${str}`, () => {
      const q = P(input);
      assert.equal(q.toString(), str);
      assert.equal(q.nanos(), nanos);
    });
  }
});

describe('value model: binary capped at 2^63-1, decimal not capped', () => {
  const max = (1n << 63n) - 1n;
  const rows: [string, bigint, string][] = [
    ['9Ei', max, '9223372036854775807'],
    ['16Ei', max, '9223372036854775807'],
    ['8Ei', max, '9223372036854775807'],
    ['-16Ei', -max, '-9223372036854775807'],
    ['9223372036854775807Ki', max, '9223372036854775807'],
    ['12E', 12n * 10n ** 18n, '12E'],
    ['10E', 10n * 10n ** 18n, '10E'],
    ['1000E', 10n ** 21n, '1'],
    ['100000000000000000000', 10n ** 20n, '100E'],
  ];
  for (const [input, value, str] of rows) {
    it(`${input} -> ${value}`, () => {
      const q = P(input);
      assert.equal(q.value(), value);
      assert.equal(q.toString(), str);
    });
  }
});

describe('format: remembered from the suffix; binary in (0,1) becomes DecimalSI', () => {
  const rows: [string, QuantityFormat][] = [
    ['1', 'DecimalSI'],
    ['1k', 'DecimalSI'],
    ['1Ki', 'BinarySI'],
    ['1e3', 'DecimalExponent'],
    ['0.5Ki', 'BinarySI'],
    ['.000000001Ki', 'DecimalSI'],
    ['-.000000001Ki', 'DecimalSI'],
    ['0.0009765625Ki', 'BinarySI'], // exactly 1
    ['0Ki', 'BinarySI'],
    ['0.0Ki', 'BinarySI'],
  ];
  for (const [input, format] of rows) it(`${input} is ${format}`, () => assert.equal(P(input).format, format));
});

describe('canonical form', () => {
  const rows: [string, string][] = [
    ['1.5', '1500m'],
    ['1000M', '1G'],
    ['1234567M', '1234567M'],
    ['40.1T', '40100G'],
    ['0.5', '500m'],
    ['1.2e3', '1200'],
    ['1e14', '100e12'],
    ['0.5e0', '500e-3'],
    ['0.5Ki', '512'],
    ['.001Ki', '1024m'],
    ['1.1Gi', '1181116006400m'],
    ['1.5Ki', '1536'],
    ['1.5Gi', '1536Mi'],
    ['1024Mi', '1Gi'],
    ['1.5Mi', '1536Ki'],
    ['1023Ki', '1023Ki'],
    ['1024', '1024'],
    ['2048', '2048'],
    ['-1.5Gi', '-1536Mi'],
    ['-0.5Ki', '-512'],
    ['1.1Ki', '1126400m'],
  ];
  for (const [input, canon] of rows) it(`${input} -> ${canon}`, () => assert.equal(P(input).canonical(), canon));
  const computed: [string, Quantity, string][] = [
    ['binary 2048 prints 2Ki', Quantity.fromInt(2048, 'BinarySI'), '2Ki'],
    ['binary 1023 prints as DecimalSI', Quantity.fromInt(1023, 'BinarySI'), '1023'],
    ['binary 2^64 prints 16Ei', Quantity.fromInt(1n << 64n, 'BinarySI'), '16Ei'],
    ['binary 1024^7 prints without suffix (no suffix beyond Ei)', Quantity.fromInt(1n << 70n, 'BinarySI'), '1'],
    ['binary -2048 prints -2Ki', Quantity.fromInt(-2048, 'BinarySI'), '-2Ki'],
    ['binary 1536.5 prints as DecimalSI', Quantity.fromMilli(1536500, 'BinarySI'), '1536500m'],
    ['decimal 1e21 prints without suffix', Quantity.fromScaled(1, 21), '1'],
    ['decimal 1e19 prints 10E', Quantity.fromScaled(1, 19), '10E'],
    ['exponent 1e21 prints 1e21', Quantity.fromScaled(1, 21, 'DecimalExponent'), '1e21'],
    ['exponent 1 prints 1', Quantity.fromInt(1, 'DecimalExponent'), '1'],
    ['exponent 0.001 prints 1e-3', Quantity.fromMilli(1, 'DecimalExponent'), '1e-3'],
  ];
  for (const [rule, q, want] of computed) it(rule, () => assert.equal(q.canonical(), want));
});

describe('Value() and MilliValue(): ceil away from zero', () => {
  const rows: [string, bigint, bigint, string][] = [
    ['1.5', 2n, 1500n, ''],
    ['100m', 1n, 100n, ''],
    ['0.1m', 1n, 1n, ''],
    ['1.1Ki', 1127n, 1126400n, ''],
    ['1n', 1n, 1n, ''],
    ['0', 0n, 0n, ''],
    ['-1.5', -2n, -1500n, 'deviation: upstream big path is unspecified for negatives'],
    ['-100m', -1n, -100n, ''],
    ['-3.001n', -1n, -1n, 'deviation: upstream returns +1 on its big path'],
    ['-1.025Ti', -1126999418471n, -1126999418470400n, 'deviation: upstream returns garbage'],
    ['12E', 12n * 10n ** 18n, 12n * 10n ** 21n, 'deviation: upstream overflows int64 (Value() = 0)'],
    ['9223372036854775807', (1n << 63n) - 1n, ((1n << 63n) - 1n) * 1000n, 'deviation: upstream MilliValue wraps'],
  ];
  for (const [input, v, mv, note] of rows) {
    it(`${input}: Value ${v}, MilliValue ${mv}${note ? ` (${note})` : ''}`, () => {
      const q = P(input);
      assert.equal(q.value(), v);
      assert.equal(q.milliValue(), mv);
      assert.equal(q.valueNumber(), Number(v));
      assert.equal(q.milliValueNumber(), Number(mv));
    });
  }
});

describe('JSON decoding', () => {
  const ok: [unknown, string, QuantityFormat][] = [
    ['1Gi', '1Gi', 'BinarySI'],
    [' 500m ', '500m', 'DecimalSI'],
    ['\u00a01Gi\u0085', '1Gi', 'BinarySI'], // Go's TrimSpace trims NBSP and NEL
    ['\u3000 2\u2029', '2', 'DecimalSI'],
    [1, '1', 'DecimalSI'],
    [0, '0', 'DecimalSI'],
    [-0, '0', 'DecimalSI'],
    [1.5, '1500m', 'DecimalSI'],
    [1000, '1k', 'DecimalSI'],
    [1e21, '1e+21', 'DecimalExponent'], // spelled 1e+21 (as JavaScript and Go encoders do), echoed
    [1e-7, '100e-9', 'DecimalExponent'],
  ];
  for (const [v, str, format] of ok) {
    it(`fromJSON(${JSON.stringify(v)}) -> ${str} ${format}`, () => {
      const q = Quantity.fromJSON(v);
      assert.equal(q.toString(), str);
      assert.equal(q.format, format);
    });
  }
  const bad: [unknown, string][] = [
    [null, 'null (upstream decodes null to zero; see fromJSONText)'],
    [true, 'boolean'],
    [{}, 'object'],
    [['1'], 'array'],
    [undefined, 'undefined'],
    [NaN, 'NaN'],
    [Infinity, 'Infinity'],
    ['\ufeff1', 'BOM is not Go whitespace'],
    ['', 'empty string'],
    ['   ', 'only whitespace'],
  ];
  for (const [v, rule] of bad) {
    it(`fromJSON rejects ${rule}`, () =>
      assert.throws(() => Quantity.fromJSON(v), (e: unknown) => e instanceof QuantityError));
  }
  it('fromJSONText: null is zero, quotes stripped without unescaping, whitespace trimmed', () => {
    assert.ok(Quantity.fromJSONText('null').isZero());
    assert.equal(Quantity.fromJSONText('"  1Mi "').toString(), '1Mi');
    assert.equal(Quantity.fromJSONText('1.0e3').toString(), '1e3');
    assert.equal(Quantity.fromJSONText('1.0e3').format, 'DecimalExponent');
    assert.throws(() => Quantity.fromJSONText('"1\\u0030"'), QuantityError);
    assert.throws(() => Quantity.fromJSONText('"'), QuantityError);
  });
  it('goTrimSpace matches strings.TrimSpace', () => {
    assert.equal(goTrimSpace(' \t\n\v\f\r x \u0085\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000'), 'x');
    assert.equal(goTrimSpace('\ufeffx\u200b'), '\ufeffx\u200b');
  });
});

describe('arithmetic keeps the receiver format (or the other operand format when the receiver is zero)', () => {
  it('1Ki + 1k keeps BinarySI', () => {
    const r = P('1Ki').add(P('1k'));
    assert.equal(r.format, 'BinarySI');
    assert.equal(r.toString(), '2024');
    assert.equal(r.value(), 2024n);
  });
  it('1k + 1Ki keeps DecimalSI', () => assert.equal(P('1k').add(P('1Ki')).toString(), '2024'));
  it('0 + 1Ki takes BinarySI', () => assert.equal(Quantity.zero().add(P('1Ki')).format, 'BinarySI'));
  it('0Ki - 1 takes DecimalSI', () => assert.equal(P('0Ki').sub(P('1')).format, 'DecimalSI'));
  it('1Gi - 1Gi is zero, prints 0, keeps BinarySI', () => {
    const r = P('1Gi').sub(P('1Gi'));
    assert.equal(r.toString(), '0');
    assert.equal(r.format, 'BinarySI');
  });
  it('500m + 500m prints 1 (canonical, not 1000m)', () => assert.equal(P('500m').add(P('500m')).toString(), '1'));
  it('100m + 1n', () => assert.equal(P('100m').add(P('1n')).toString(), '100000001n'));
  it('exact beyond int64: 9Ei(capped) + 9Ei(capped)', () =>
    assert.equal(P('9Ei').add(P('9Ei')).value(), 2n * ((1n << 63n) - 1n)));
  it('sums of int64-sized values stay exact (no int64 overflow)', () =>
    assert.equal(P('8E').add(P('8E')).toString(), '16E'));
});

describe('immutability: quantities are frozen and operations return new objects', () => {
  it('parsed quantities are frozen', () => {
    const q = P('1Gi');
    assert.ok(Object.isFrozen(q));
    assert.throws(() => {
      (q as unknown as { format: string }).format = 'DecimalSI';
    }, TypeError);
    assert.equal(q.format, 'BinarySI');
  });
  it('add/sub/neg/mul/roundUp leave the operands alone', () => {
    const a = P('1.5Gi');
    const b = P('100m');
    a.add(b);
    a.sub(b);
    a.neg();
    a.mul(3);
    a.roundUp(3);
    assert.equal(a.toString(), '1536Mi');
    assert.equal(b.toString(), '100m');
  });
  it('zero() is shared and stays zero', () => {
    Quantity.zero().add(P('1'));
    assert.ok(Quantity.zero().isZero());
  });
});

describe('robustness: huge exponents do not hang', () => {
  it('1e999999 parses, prints and compares cheaply', () => {
    const q = P('1e999999');
    assert.equal(q.toString(), '1e999999');
    assert.equal(q.cmp(P('1')), 1);
    assert.equal(P('1').cmp(q), -1);
    assert.equal(q.neg().cmp(P('-1')), -1);
    assert.equal(q.asApproximateFloat64(), Infinity);
    assert.equal(q.valueNumber(), Infinity);
    assert.equal(q.cmp(P('10e999998')), 0);
  });
  it('exact expansions beyond MAX_EXPAND_DIGITS throw RangeError (deviation: upstream hangs)', () => {
    assert.throws(() => P('1e999999').nanos(), RangeError);
    assert.throws(() => P('1e999999').add(P('1')), RangeError);
  });
  it('1e-999999999 rounds up to 1e-9 without expansion', () => assert.equal(P('1e-999999999').toString(), '1e-9'));
  it('1234567890123456789e999999999 keeps a compact form', () =>
    assert.equal(P('1234567890123456789e999999999').toString(), '1234567890123456789e999999999'));
  it('zero with a huge exponent is 0 as a float (deviation: upstream 0*Inf = NaN)', () =>
    assert.equal(P('0e400').asApproximateFloat64(), 0));
});
