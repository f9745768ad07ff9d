// Exact integer amounts of resources that stay plain numbers while they can: the walk over the
// nodes compares and scores hundreds of nodes per pod, and bigint arithmetic (an allocation per
// operation) cost more than the rest of a decision. A value that is not a safe integer (beyond
// 2^53: 8 PiB of memory, 9×10^12 cores) is held as a bigint, and any operation that meets one,
// or would leave the safe range, is done in bigints: the results are exact either way.

/** A resource amount: a safe integer number, or a bigint beyond that range. */
export type Amount = number | bigint;

/** The Amount of a bigint. */
export function amountOf(b: bigint): Amount {
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}

export function addAmount(a: Amount, b: Amount): Amount {
  if (typeof a === 'number' && typeof b === 'number') {
    const s = a + b;
    if (Number.isSafeInteger(s)) return s;
  }
  return amountOf(BigInt(a) + BigInt(b));
}

export function subAmount(a: Amount, b: Amount): Amount {
  if (typeof a === 'number' && typeof b === 'number') {
    const s = a - b;
    if (Number.isSafeInteger(s)) return s;
  }
  return amountOf(BigInt(a) - BigInt(b));
}

/** ⌊a × m ÷ d⌋ for a ≥ 0, m ≥ 0, d > 0, as Go's integer arithmetic gives it. */
export function mulDivAmount(a: Amount, m: number, d: Amount): Amount {
  if (typeof a === 'number' && typeof d === 'number') {
    const n = a * m;
    if (Number.isSafeInteger(n) && Number.isSafeInteger(n + d)) {
      // The float quotient can be one off; q × d and (q + 1) × d stay below n + d, so the correction is exact.
      let q = Math.floor(n / d);
      if (q * d > n) q--;
      else if ((q + 1) * d <= n) q++;
      return q;
    }
  }
  return amountOf((BigInt(a) * BigInt(m)) / BigInt(d));
}
