// Kubernetes resource.Quantity (k8s.io/apimachinery/pkg/api/resource), reimplemented on bigint.
//
// Behaviour follows upstream (apimachinery master at eed236ce) including its surprises:
//   - exact decimal values at nano (1e-9) precision; finer input is rounded UP (away from zero)
//     to the next nano at parse time ("0.1m" -> 100u, "3.001n" -> 4n);
//   - binary-suffixed input is capped at 2^63-1 ("9Ei" -> 9223372036854775807), decimal is not;
//   - a BinarySI value in (0,1) becomes DecimalSI;
//   - canonical formatting per format (largest multiple-of-3 exponent for decimal, largest power
//     of 1024 for binary, binary values < 1024 or fractional printed as DecimalSI), including the
//     DecimalSI bug where an exponent above 18 prints without a suffix ("1000E" -> "1");
//   - the parse-time "echo": on upstream's int64 fast path the original text is kept and returned
//     by String()/JSON until the value changes ("+1", "1.", "007k", "1E6" stay as written);
//   - Value()/MilliValue() are ceilings away from zero.
//
// The internal representation mirrors upstream's: an unscaled integer and a base-10 exponent,
// plus whether upstream would hold the value as inf.Dec (its "big" path) or int64Amount. The
// exponent only matters for AsApproximateFloat64 (bit-exact with upstream) and AsInt64.
//
// Deliberate deviations (upstream behaviour there is int64 garbage, NaN or a hang):
//   - value()/milliValue()/scaledValue()/nanos() return exact bigints; upstream silently
//     overflows int64 ("12E".Value() is 0 upstream) and is wrong for some negative values on its
//     big path ("-3.001n".Value() = +1 upstream; here -1, the ceiling away from zero).
//   - asApproximateFloat64() of a zero is 0 (upstream can yield NaN for "0e400": 0 * +Inf).
//   - operations whose exact result would need more than MAX_EXPAND_DIGITS decimal digits
//     (e.g. nanos() of "1e999999") throw RangeError instead of allocating without bound.
//   - a zero parsed with an exponent below -9 ("0.0000000000") is stored at exponent -9.
//   - fromScaled() with a scale below nano rounds up to nano (upstream keeps sub-nano values).
//   - add/sub/neg/mul are exact beyond int64 (upstream's int64 fast path wraps when negating
//     math.MinInt64).
//   - fromJSON(null) throws (callers decide); fromJSONText('null') gives zero as UnmarshalJSON does.
//   - JSON numbers reach fromJSON already decoded, so their spelling is JavaScript's (String(n)).

import { INT64_MAX, NANO_MAX_BINARY, POW10_NUM, pow10, inInt64, absBig, digitCount, divRoundAway, scaledAway, goPow10, formatOrDefault, toBigInt, formatCanonical } from './quantitymath.js';

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

const SPLIT_RE_STRING = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

/** ErrFormatWrong */
export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_RE_STRING}'`;
/** ErrNumeric */
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
/** ErrSuffix */
export const ERR_SUFFIX = "unable to parse quantity's suffix";

export type QuantityErrorKind = 'format' | 'numeric' | 'suffix';

export class QuantityError extends Error {
  readonly kind: QuantityErrorKind;
  constructor(message: string = ERR_FORMAT_WRONG, kind?: QuantityErrorKind) {
    super(message);
    this.name = 'QuantityError';
    this.kind = kind ?? (message === ERR_NUMERIC ? 'numeric' : message === ERR_SUFFIX ? 'suffix' : 'format');
  }
}

/** Exact results needing more decimal digits than this throw RangeError (see header). */
export { MAX_EXPAND_DIGITS } from './quantitymath.js';

// ---------------------------------------------------------------------------------------------
// Scanner (parseQuantityString). Results are left in module-level scratch variables so that the
// hot path allocates nothing but the final object.

const enum Err {
  None = 0,
  Format = 1,
  Numeric = 2,
  Suffix = 3,
}

const SUFFIX_CHAR = new Uint8Array(128);
for (const ch of 'eEinumkKMGTP') SUFFIX_CHAR[ch.charCodeAt(0)] = 1;

let sPositive = true;
let sSignEnd = 0; // index after the sign
let sAllZero = false; // numeric part was only zeros (or empty) up to the end: value "0"
let sNumS = 0; // numerator digits with leading zeros stripped: [sNumS, sNumE)
let sNumE = 0;
let sDenS = 0; // denominator digits: [sDenS, sDenE)
let sDenE = 0;
let sValueE = 0; // value = str[0:sValueE] (unless sAllZero)
let sSufS = 0; // suffix = str[sSufS:end]

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function scan(str: string): Err {
  const end = str.length;
  let pos = 0;
  sPositive = true;
  sAllZero = false;
  sDenS = sDenE = 0;
  if (end > 0) {
    const c0 = str.charCodeAt(0);
    if (c0 === 45) {
      sPositive = false;
      pos = 1;
    } else if (c0 === 43) {
      pos = 1;
    }
  }
  sSignEnd = pos;
  // strip leading zeros
  while (true) {
    if (pos >= end) {
      sAllZero = true;
      sNumS = sNumE = pos;
      sValueE = end;
      sSufS = end;
      return Err.None;
    }
    if (str.charCodeAt(pos) === 48) pos++;
    else break;
  }
  // numerator
  let i = pos;
  while (i < end && isDigit(str.charCodeAt(i))) i++;
  sNumS = pos;
  sNumE = i;
  pos = i;
  if (i >= end) {
    sValueE = end;
    sSufS = end;
    return Err.None;
  }
  // denominator
  if (str.charCodeAt(pos) === 46) {
    pos++;
    i = pos;
    while (i < end && isDigit(str.charCodeAt(i))) i++;
    sDenS = pos;
    sDenE = i;
    pos = i;
    if (i >= end) {
      sValueE = end;
      sSufS = end;
      return Err.None;
    }
  }
  sValueE = pos;
  sSufS = pos;
  // suffix: [eEinumkKMGTP]* [-+]? [0-9]*
  while (pos < end) {
    const c = str.charCodeAt(pos);
    if (c < 128 && SUFFIX_CHAR[c] === 1) pos++;
    else break;
  }
  if (pos >= end) return Err.None;
  {
    const c = str.charCodeAt(pos);
    if (c === 45 || c === 43) pos++;
  }
  while (pos < end) {
    if (!isDigit(str.charCodeAt(pos))) return Err.Format;
    pos++;
  }
  return Err.None;
}

/** Result of upstream's parseQuantityString (exported for tests and diagnostics). */
export interface QuantityStringParts {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

/** Splits a quantity string as upstream's scanner does; throws QuantityError on a bad shape. */
export function splitQuantityString(str: string): QuantityStringParts {
  if (scan(str) !== Err.None) throw new QuantityError(ERR_FORMAT_WRONG, 'format');
  if (sAllZero) return { positive: sPositive, value: '0', num: '0', denom: '', suffix: '' };
  const num = sNumE > sNumS ? str.slice(sNumS, sNumE) : '0';
  return {
    positive: sPositive,
    value: str.slice(0, sValueE),
    num,
    denom: str.slice(sDenS, sDenE),
    suffix: str.slice(sSufS),
  };
}

// Suffix interpretation results
let xBase = 10;
let xExp = 0;
let xFormat: QuantityFormat = 'DecimalSI';

/** strconv.ParseInt(s, 10, 64) then int32 truncation; false when ParseInt fails. */
function parseExponent(str: string, from: number): boolean {
  const end = str.length;
  let i = from;
  let neg = false;
  if (i < end) {
    const c = str.charCodeAt(i);
    if (c === 45 || c === 43) {
      neg = c === 45;
      i++;
    }
  }
  if (i >= end) return false;
  for (let j = i; j < end; j++) if (!isDigit(str.charCodeAt(j))) return false;
  if (end - i <= 9) {
    const v = Number(str.slice(i, end));
    xExp = neg ? -v | 0 : v;
    return true;
  }
  let v = BigInt(str.slice(i, end));
  if (neg) v = -v;
  if (!inInt64(v)) return false;
  xExp = Number(BigInt.asIntN(32, v));
  return true;
}

function interpretSuffix(str: string, s: number): boolean {
  const len = str.length - s;
  xBase = 10;
  xFormat = 'DecimalSI';
  if (len === 0) {
    xExp = 0;
    return true;
  }
  const c0 = str.charCodeAt(s);
  if (len === 1) {
    switch (c0) {
      case 110: xExp = -9; return true; // n
      case 117: xExp = -6; return true; // u
      case 109: xExp = -3; return true; // m
      case 107: xExp = 3; return true; // k
      case 77: xExp = 6; return true; // M
      case 71: xExp = 9; return true; // G
      case 84: xExp = 12; return true; // T
      case 80: xExp = 15; return true; // P
      case 69: xExp = 18; return true; // E
    }
    return false;
  }
  if (len === 2 && str.charCodeAt(s + 1) === 105 /* i */) {
    let k = 0;
    switch (c0) {
      case 75: k = 1; break; // Ki
      case 77: k = 2; break; // Mi
      case 71: k = 3; break; // Gi
      case 84: k = 4; break; // Ti
      case 80: k = 5; break; // Pi
      case 69: k = 6; break; // Ei
    }
    if (k !== 0) {
      xBase = 2;
      xExp = 10 * k;
      xFormat = 'BinarySI';
      return true;
    }
  }
  if (c0 === 101 || c0 === 69) {
    xFormat = 'DecimalExponent';
    return parseExponent(str, s + 1);
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Quantity

let mk: (m: bigint, e: number, format: QuantityFormat, dec: boolean, s: string | undefined) => Quantity;

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

export class Quantity {
  /** Unscaled value: the quantity is _m * 10^_e. */
  private readonly _m: bigint;
  /** Base-10 exponent (>= -9 always). */
  private readonly _e: number;
  /** True when upstream would hold this value as inf.Dec rather than int64Amount. */
  private readonly _dec: boolean;
  /** Original text kept by upstream's fast parse path (the "echo"), if any. */
  private readonly _s: string | undefined;
  /** Format remembered from the suffix (or given to a constructor). */
  readonly format: QuantityFormat;
  #canon: string | undefined;

  static {
    mk = (m, e, format, dec, s) => new Quantity(m, e, format, dec, s);
  }

  private constructor(m: bigint, e: number, format: QuantityFormat, dec: boolean, s: string | undefined) {
    this._m = m;
    this._e = e;
    this._dec = dec;
    this._s = s;
    this.format = format;
    this.#canon = undefined;
    Object.freeze(this);
  }

  // ----- construction -----

  /** ParseQuantity: strict, throws QuantityError with upstream's message. */
  static parse(s: string): Quantity {
    const r = parseCore(s);
    if (typeof r === 'number') throw errorFor(r);
    return r;
  }

  /** ParseQuantity without exceptions. */
  static tryParse(s: string): Quantity | undefined {
    const r = parseCore(s);
    return typeof r === 'number' ? undefined : r;
  }

  /**
   * What JSON decoding accepts (UnmarshalJSON on an already-decoded value): strings, with
   * surrounding whitespace trimmed as Go's strings.TrimSpace does, and JSON numbers (parsed from
   * their shortest JavaScript spelling, since the original token text is gone; use fromJSONText
   * when the raw token is available). Anything else throws QuantityError.
   */
  static fromJSON(v: unknown): Quantity {
    if (typeof v === 'string') return Quantity.parse(goTrimSpace(v));
    if (typeof v === 'number' && Number.isFinite(v)) return Quantity.parse(String(v));
    throw new QuantityError(ERR_FORMAT_WRONG, 'format');
  }

  /** UnmarshalJSON on the raw token text: `null` -> zero, `"..."` unquoted (not unescaped), trimmed. */
  static fromJSONText(raw: string): Quantity {
    const l = raw.length;
    if (l === 4 && raw === 'null') return Quantity.zero();
    let v = raw;
    if (l >= 2 && raw.charCodeAt(0) === 34 && raw.charCodeAt(l - 1) === 34) v = raw.slice(1, l - 1);
    return Quantity.parse(goTrimSpace(v));
  }

  /** NewQuantity(value, format). */
  static fromInt(n: bigint | number, format?: QuantityFormat): Quantity {
    const m = toBigInt(n, 'value');
    return mk(m, 0, formatOrDefault(format), !inInt64(m), undefined);
  }

  /** NewMilliQuantity(value, format): value / 1000. */
  static fromMilli(n: bigint | number, format?: QuantityFormat): Quantity {
    const m = toBigInt(n, 'value');
    return mk(m, -3, formatOrDefault(format), !inInt64(m), undefined);
  }

  /**
   * NewScaledQuantity(value, scale): value * 10^scale (format DecimalSI unless given). Scales below
   * nano are rounded up (away from zero) to nano, unlike upstream which keeps them.
   */
  static fromScaled(n: bigint | number, scale: number, format?: QuantityFormat): Quantity {
    let m = toBigInt(n, 'value');
    if (!Number.isInteger(scale)) throw new RangeError(`quantity: scale must be an integer, got ${scale}`);
    let e = scale;
    if (e < -9) {
      m = divRoundAway(m, -9 - e);
      e = -9;
    }
    return mk(m, e, formatOrDefault(format), !inInt64(m), undefined);
  }

  /** The zero quantity (DecimalSI). */
  static zero(): Quantity {
    return ZERO;
  }

  // ----- formatting -----

  /** String(): the original text when upstream caches it at parse time, else canonical(). */
  toString(): string {
    return this._s ?? this.canonical();
  }

  /** The canonical form of the value in this.format, ignoring any text kept from parsing. */
  canonical(): string {
    let c = this.#canon;
    if (c === undefined) {
      c = formatCanonical(this._m, this._e, this.format);
      this.#canon = c;
    }
    return c;
  }

  /** MarshalJSON's string content (= toString()). */
  toJSON(): string {
    return this.toString();
  }

  /** The text upstream kept from parsing (and would return from String()), if any. */
  cachedString(): string | undefined {
    return this._s;
  }

  [INSPECT](): string {
    return `Quantity(${this.toString()}${this._s !== undefined && this._s !== this.canonical() ? ` = ${this.canonical()}` : ''}, ${this.format})`;
  }

  // ----- values -----

  /** Value(): the value rounded up (away from zero) to an integer. Exact (no int64 overflow). */
  value(): bigint {
    return scaledAway(this._m, this._e, 0);
  }

  /** MilliValue(): ceil(value * 1000), away from zero. Exact. */
  milliValue(): bigint {
    return scaledAway(this._m, this._e, -3);
  }

  /** ScaledValue(scale): ceil(value / 10^scale), away from zero. Exact. */
  scaledValue(scale: number): bigint {
    if (!Number.isInteger(scale)) throw new RangeError(`quantity: scale must be an integer, got ${scale}`);
    return scaledAway(this._m, this._e, scale);
  }

  /** Number(value()), without bigint work for ordinary values. */
  valueNumber(): number {
    return numberAway(this._m, this._e);
  }

  /** Number(milliValue()), without bigint work for ordinary values. */
  milliValueNumber(): number {
    return numberAway(this._m, this._e + 3);
  }

  /** The exact value times 10^9 (values are held exactly at nano precision). */
  nanos(): bigint {
    return scaledAway(this._m, this._e, -9);
  }

  /** AsInt64(): the value when upstream holds it as an int64Amount with a non-negative scale that fits int64. */
  asInt64(): bigint | undefined {
    if (this._dec || this._e < 0) return undefined;
    if (this._e === 0) return this._m;
    if (this._m === 0n) return 0n;
    if (this._e > 19) return undefined;
    const v = this._m * pow10(this._e);
    return inInt64(v) ? v : undefined;
  }

  /** AsApproximateFloat64(): bit-identical to upstream (mantissa as float64 times Go's math.Pow10(exponent)). */
  asApproximateFloat64(): number {
    const m = this._m;
    if (m === 0n) return 0;
    const base = Number(m);
    if (this._e === 0) return base;
    return base * goPow10(this._e);
  }

  /** The unscaled integer and exponent of the internal representation (value = unscaled * 10^exponent). */
  toDecimal(): { unscaled: bigint; exponent: number } {
    return { unscaled: this._m, exponent: this._e };
  }

  // ----- comparison -----

  cmp(o: Quantity): -1 | 0 | 1 {
    return cmpRep(this._m, this._e, o._m, o._e);
  }

  equals(o: Quantity): boolean {
    return cmpRep(this._m, this._e, o._m, o._e) === 0;
  }

  isZero(): boolean {
    return this._m === 0n;
  }

  sign(): -1 | 0 | 1 {
    const m = this._m;
    return m === 0n ? 0 : m > 0n ? 1 : -1;
  }

  // ----- arithmetic (new quantities; results are never echoed) -----

  /** Add: format of the receiver, or of o when the receiver is zero. */
  add(o: Quantity): Quantity {
    return addRep(this, o, o._m, this._m === 0n ? o.format : this.format);
  }

  /** Sub: format of the receiver, or of o when the receiver is zero. */
  sub(o: Quantity): Quantity {
    return addRep(this, o, -o._m, this._m === 0n ? o.format : this.format);
  }

  neg(): Quantity {
    return mk(-this._m, this._e, this.format, this._dec, undefined);
  }

  /** Mul(y): the value times an integer (format unchanged). */
  mul(y: bigint | number): Quantity {
    const b = toBigInt(y, 'multiplier');
    if (!this._dec) {
      if (this._m === 0n) return mk(0n, this._e, this.format, false, undefined);
      if (b === 0n) return mk(0n, 0, this.format, false, undefined);
      // int64Amount.Mul falls back to inf.Dec on overflow, also of the scaled value
      const v = this._m * b;
      const e = this._e;
      const fits = inInt64(b) && inInt64(v) && (e > 0 ? e <= 19 && inInt64(v * pow10(e)) : e === 0 || v % pow10(-e) === 0n);
      return mk(v, e, this.format, !fits, undefined);
    }
    return mk(this._m * b, this._e, this.format, true, undefined);
  }

  /**
   * RoundUp(scale): the value rounded away from zero to a multiple of 10^scale, and whether that
   * was exact. Scales below nano are treated as nano.
   */
  roundUp(scale: number): { q: Quantity; exact: boolean } {
    if (scale < -9) scale = -9;
    if (!this._dec && this._e >= scale) return { q: this, exact: true };
    const m = scaledAway(this._m, this._e, scale);
    const exact = this._e >= scale || m * pow10(scale - this._e) === this._m;
    return { q: mk(m, scale, this.format, this._dec || !inInt64(m), undefined), exact };
  }
}

const ZERO = mk(0n, 0, 'DecimalSI', false, undefined);
const ZERO_ECHO = mk(0n, 0, 'DecimalSI', false, '0');

// ---------------------------------------------------------------------------------------------
// Operations on representations

function cmpRep(am: bigint, ae: number, bm: bigint, be: number): -1 | 0 | 1 {
  const sa = am === 0n ? 0 : am > 0n ? 1 : -1;
  const sb = bm === 0n ? 0 : bm > 0n ? 1 : -1;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  if (ae !== be) {
    const d = ae - be;
    if (d > 40 || d < -40) {
      // Compare magnitudes by digit count first so that wildly different exponents stay cheap.
      const la = digitCount(absBig(am)) + ae;
      const lb = digitCount(absBig(bm)) + be;
      if (la !== lb) return (la > lb ? sa : -sa) as -1 | 1;
    }
    if (d > 0) am *= pow10(d);
    else bm *= pow10(-d);
  }
  return am === bm ? 0 : am < bm ? -1 : 1;
}

function addRep(a: Quantity, b: Quantity, bm: bigint, format: QuantityFormat): Quantity {
  const ar = a as unknown as { _m: bigint; _e: number; _dec: boolean };
  const br = b as unknown as { _m: bigint; _e: number; _dec: boolean };
  const am = ar._m;
  const ae = ar._e;
  const be = br._e;
  if (!ar._dec && !br._dec) {
    // int64Amount.Add: a zero operand leaves the other's representation untouched.
    if (bm === 0n) return mk(am, ae, format, false, undefined);
    if (am === 0n) return mk(bm, be, format, !inInt64(bm), undefined);
    let x = am;
    let y = bm;
    let e = ae;
    if (ae > be) {
      x = am * pow10(ae - be);
      e = be;
    } else if (be > ae) {
      y = bm * pow10(be - ae);
    }
    const sum = x + y;
    return mk(sum, e, format, !(inInt64(x) && inInt64(y) && inInt64(sum)), undefined);
  }
  // inf.Dec.Add: aligned to the smaller exponent.
  let sum: bigint;
  let e: number;
  if (ae === be) {
    sum = am + bm;
    e = ae;
  } else if (ae > be) {
    sum = am * pow10(ae - be) + bm;
    e = be;
  } else {
    sum = am + bm * pow10(be - ae);
    e = ae;
  }
  return mk(sum, e, format, true, undefined);
}

function numberAway(m: bigint, e: number): number {
  // ceil(m * 10^e) away from zero, as a number
  if (m === 0n) return 0;
  if (m <= 9007199254740991n && m >= -9007199254740991n) {
    const n = Number(m);
    if (e === 0) return n;
    if (e > 0 && e <= 22) return n * POW10_NUM[e]!;
    if (e < 0 && e >= -22) {
      const p = POW10_NUM[-e]!;
      const r = n % p;
      const q = (n - r) / p;
      return r === 0 ? q : n > 0 ? q + 1 : q - 1;
    }
  }
  if (e > 400) return m > 0n ? Infinity : -Infinity;
  return Number(scaledAway(m, e, 0));
}

// ---------------------------------------------------------------------------------------------
// ParseQuantity

function errorFor(code: number): QuantityError {
  switch (code) {
    case Err.Numeric:
      return new QuantityError(ERR_NUMERIC, 'numeric');
    case Err.Suffix:
      return new QuantityError(ERR_SUFFIX, 'suffix');
    default:
      return new QuantityError(ERR_FORMAT_WRONG, 'format');
  }
}

function errorMessage(code: number): string {
  return code === Err.Numeric ? ERR_NUMERIC : code === Err.Suffix ? ERR_SUFFIX : ERR_FORMAT_WRONG;
}

function parseCore(str: string): Quantity | Err {
  if (typeof str !== 'string' || str.length === 0) return Err.Format;
  if (str === '0') return ZERO_ECHO;
  const err = scan(str);
  if (err !== Err.None) return err;
  if (!interpretSuffix(str, sSufS)) return Err.Suffix;

  const positive = sPositive;
  const numS = sNumS;
  const numLen = sNumE - sNumS; // 0 means "0"
  const denS = sDenS;
  const denLen = sDenE - sDenS;
  const numLenEff = numLen === 0 ? 1 : numLen;
  const exponent = xExp;
  let format = xFormat;

  let precision: number;
  let scale = 0;
  if (xBase === 10) {
    scale = exponent;
    precision = 18 - (numLenEff + denLen);
  } else if (denLen === 0) {
    // 1Mi (2^20) has ~6 digits of decimal precision, so exponent*3/10 - 1 is roughly the precision
    precision = 15 - numLenEff - ((exponent * 3) / 10) - 1;
  } else {
    precision = -1;
  }

  if (precision >= 0) {
    scale = (scale - denLen) | 0; // int32 arithmetic, as upstream
    if (scale >= -9) {
      // Fast path (int64Amount). shifted = num + denom, at most 18 digits.
      const digits = numLen + denLen;
      let m: bigint;
      let low3: number; // shifted mod 1000
      if (digits <= 15) {
        let v = 0;
        for (let i = numS, e = numS + numLen; i < e; i++) v = v * 10 + (str.charCodeAt(i) - 48);
        for (let i = denS, e = denS + denLen; i < e; i++) v = v * 10 + (str.charCodeAt(i) - 48);
        low3 = v % 1000;
        if (xBase === 2) v *= 2 ** exponent; // exact: a power of two only moves the exponent
        m = BigInt(positive ? v : -v);
      } else {
        let v = BigInt(str.slice(numS, numS + numLen) + str.slice(denS, denS + denLen));
        low3 = Number(v % 1000n);
        if (xBase === 2) v <<= BigInt(exponent);
        m = positive ? v : -v;
      }
      let echo: boolean;
      if (xBase === 2) {
        // (exponent%10 == 0 always holds) echo when the mantissa is not a multiple of 8
        echo = low3 % 8 !== 0;
      } else {
        // canonical-looking: scale%3 == 0, shifted does not end in "000" nor start with '0'
        echo = scale % 3 === 0 && !(numLenEff + denLen >= 3 && low3 === 0) && numLen > 0;
      }
      return mk(m, scale, format, false, echo ? str : undefined);
    }
  }

  // Big path (inf.Dec).
  const hasDigit = sAllZero || sNumE > sSignEnd || denLen > 0;
  if (!hasDigit) return Err.Numeric;
  let u: bigint;
  if (numLen + denLen === 0) u = 0n;
  else u = BigInt(str.slice(numS, numS + numLen) + str.slice(denS, denS + denLen));
  let e: number;
  if (xBase === 10) {
    const infScale = (denLen + (-exponent | 0)) | 0; // int32 arithmetic, as upstream
    e = -infScale;
  } else {
    u <<= BigInt(exponent);
    e = -denLen;
  }
  if (u === 0n) {
    return mk(0n, e < -9 ? -9 : e, format, true, undefined);
  }
  // Round up (away from zero) to nano: the result is held at scale 9 (exponent -9).
  if (e < -9) {
    u = divRoundAway(u, -9 - e);
    e = -9;
  } else if (e + 9 <= 400) {
    u *= pow10(e + 9);
    e = -9;
  } // else: keep a compact representation; floats are +-Inf either way
  if (format === 'BinarySI') {
    if (u > NANO_MAX_BINARY) {
      u = INT64_MAX;
      e = 0;
    } else if (u < 1_000_000_000n) {
      format = 'DecimalSI'; // 0 < |v| < 1
    }
  }
  return mk(positive ? u : -u, e, format, true, undefined);
}

/** Go's strings.TrimSpace (unicode.IsSpace). */
export function goTrimSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isGoSpace(s.charCodeAt(start))) start++;
  while (end > start && isGoSpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

function isGoSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** ParseQuantity returning the error message instead of throwing. */
export function parseQuantityOrError(s: string): { q?: Quantity; error?: string } {
  const r = parseCore(s);
  if (typeof r === 'number') return { error: errorMessage(r) };
  return { q: r };
}

/** MustParse. */
export function mustParse(s: string): Quantity {
  return Quantity.parse(s);
}
