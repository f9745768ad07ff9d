// Quantity's numbers (src/api/quantity.ts): int64 bounds, powers of ten, rounding away from zero,
// Go's float powers for AsApproximateFloat64, and the canonical formatting of an
// (unscaled integer, base-10 exponent) pair per format (apimachinery resource/amount.go,
// quantity.go CanonicalizeBytes). Pure functions, no Quantity object: quantity.ts composes them.

import type { QuantityFormat } from './quantity.js';

/** Operations whose exact result needs more decimal digits than this throw RangeError (see quantity.ts). */
export const MAX_EXPAND_DIGITS = 100_000;

// ---------------------------------------------------------------------------------------------
// Numeric helpers

export const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
export const NANO_MAX_BINARY = INT64_MAX * 1_000_000_000n; // 2^63-1 at nano scale

const POW10_BIG: bigint[] = [];
for (let i = 0, p = 1n; i <= 40; i++, p *= 10n) POW10_BIG.push(p);
export const POW10_NUM: number[] = [];
for (let i = 0; i <= 22; i++) POW10_NUM.push(Number('1e' + i));

export function pow10(k: number): bigint {
  if (k <= 40) return POW10_BIG[k]!;
  if (k > MAX_EXPAND_DIGITS) throw new RangeError(`quantity: exact result would need more than ${MAX_EXPAND_DIGITS} digits`);
  return 10n ** BigInt(k);
}

export function inInt64(v: bigint): boolean {
  return v >= INT64_MIN && v <= INT64_MAX;
}

export function absBig(v: bigint): bigint {
  return v < 0n ? -v : v;
}

export function digitCount(absV: bigint): number {
  return absV === 0n ? 1 : absV.toString().length;
}

/** ceil(|m| / 10^k) with the sign of m (rounding away from zero); k > 0. */
export function divRoundAway(m: bigint, k: number): bigint {
  if (m === 0n) return 0n;
  const neg = m < 0n;
  const a = neg ? -m : m;
  let q: bigint;
  if (k > 40 && k >= digitCount(a)) {
    q = 1n; // 0 < a < 10^k
  } else {
    const p = pow10(k);
    q = a / p;
    if (q * p !== a) q += 1n;
  }
  return neg ? -q : q;
}

/** m * 10^e rounded (away from zero) to an integer multiple of 10^target, in units of 10^target. */
export function scaledAway(m: bigint, e: number, target: number): bigint {
  const d = e - target;
  if (d === 0) return m;
  if (m === 0n) return 0n;
  if (d > 0) return m * pow10(d);
  return divRoundAway(m, -d);
}

// Go's math.Pow10, reproduced so that asApproximateFloat64 is bit-identical.
const GO_POW10_TAB: number[] = [];
for (let i = 0; i < 32; i++) GO_POW10_TAB.push(Number('1e' + i));
const GO_POW10_POS32: number[] = [];
for (let i = 0; i < 10; i++) GO_POW10_POS32.push(Number('1e' + i * 32));
const GO_POW10_NEG32: number[] = [];
for (let i = 0; i < 11; i++) GO_POW10_NEG32.push(Number('1e-' + i * 32));

export function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return GO_POW10_POS32[n >>> 5]! * GO_POW10_TAB[n & 31]!;
  if (n <= 0 && n >= -323) return GO_POW10_NEG32[-n >>> 5]! / GO_POW10_TAB[-n & 31]!;
  return n > 0 ? Infinity : 0;
}

export function formatOrDefault(f: QuantityFormat | undefined): QuantityFormat {
  if (f === undefined) return 'DecimalSI';
  if (f === 'DecimalSI' || f === 'BinarySI' || f === 'DecimalExponent') return f;
  // upstream: any other Format string is emitted as DecimalExponent
  return 'DecimalExponent';
}

export function toBigInt(n: bigint | number, what: string): bigint {
  if (typeof n === 'bigint') return n;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new RangeError(`quantity: ${what} must be an integer, got ${String(n)}`);
  return BigInt(n);
}

// ---------------------------------------------------------------------------------------------
// Canonical formatting (CanonicalizeBytes)

const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

function decimalSISuffix(exp: number): string {
  switch (exp) {
    case -9: return 'n';
    case -6: return 'u';
    case -3: return 'm';
    case 0: return '';
    case 3: return 'k';
    case 6: return 'M';
    case 9: return 'G';
    case 12: return 'T';
    case 15: return 'P';
    case 18: return 'E';
    default: return ''; // upstream bug: no suffix for other exponents ("1000E" -> "1")
  }
}

export function formatCanonical(m: bigint, e: number, format: QuantityFormat): string {
  if (m === 0n) return '0';
  const neg = m < 0n;
  const a = neg ? -m : m;
  if (format === 'BinarySI') {
    // |v| < 1024, or not an integer: printed as DecimalSI.
    let small: boolean;
    let integral: boolean;
    if (e >= 0) {
      small = e <= 3 && a * POW10_BIG[e]! < 1024n;
      integral = true;
    } else {
      const p = pow10(-e);
      small = a < 1024n * p;
      integral = a % p === 0n;
    }
    if (!small && integral) {
      let v = e >= 0 ? a * pow10(e) : a / pow10(-e);
      let k = 0;
      while ((v & 1023n) === 0n) {
        v >>= 10n;
        k++;
      }
      return (neg ? '-' : '') + v.toString() + (k < BINARY_SUFFIXES.length ? BINARY_SUFFIXES[k] : '');
    }
    format = 'DecimalSI';
  }
  const digits = a.toString();
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 48) end--;
  let ex = e + (digits.length - end);
  let mant = end === digits.length ? digits : digits.slice(0, end);
  const pad = ((ex % 3) + 3) % 3;
  if (pad === 1) mant += '0';
  else if (pad === 2) mant += '00';
  ex -= pad;
  const suffix = format === 'DecimalSI' ? decimalSISuffix(ex) : ex === 0 ? '' : 'e' + ex;
  return (neg ? '-' : '') + mant + suffix;
}
