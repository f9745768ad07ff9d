// Go's time.ParseDuration, exactly: "300ms", "1.5h", "2h45m", "-1s", "0", in integer nanoseconds
// (a bigint, as Go's int64 Duration), with Go's error texts and its overflow rules (more than
// 1<<63-1 ns is invalid). Used where Kubernetes reads a Go duration: kube-apiserver's `timeout`
// query parameter (apiserver/timeout.ts) and the duration flags (cli/goduration.ts).

export class DurationError extends Error {}

const nanosPer: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 micro sign
  'μs': 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const maxUint = 1n << 63n;
const utf8 = new TextEncoder();

/** The time package's quote: printable ASCII as is (`"` and `\` escaped), every other byte as \xNN. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const b of utf8.encode(ch)) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      out += c === 0x22 || c === 0x5c ? `\\${ch}` : ch;
    }
  }
  return out + '"';
}

/** time.ParseDuration: the duration in nanoseconds, or a DurationError in Go's words. */
export function parseGoDurationNanos(text: string): bigint {
  const invalid = () => new DurationError(`time: invalid duration ${goQuote(text)}`);
  let s = text;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || (s[0]! >= '0' && s[0]! <= '9'))) throw invalid();
    // leadingInt: [0-9]*, an overflow past 1<<63 is invalid.
    let i = 0;
    let v = 0n;
    for (; i < s.length && s[i]! >= '0' && s[i]! <= '9'; i++) {
      if (v > maxUint / 10n) throw invalid();
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > maxUint) throw invalid();
    }
    const pre = i > 0;
    s = s.slice(i);
    // leadingFraction: (\.[0-9]*)?, digits past what fits are read and dropped.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s !== '' && s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; j < s.length && s[j]! >= '0' && s[j]! <= '9'; j++) {
        if (overflow) continue;
        if (f > (maxUint - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > maxUint) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw invalid();
    let u = 0;
    while (u < s.length && s[u] !== '.' && !(s[u]! >= '0' && s[u]! <= '9')) u++;
    if (u === 0) throw new DurationError(`time: missing unit in duration ${goQuote(text)}`);
    const unitName = s.slice(0, u);
    s = s.slice(u);
    const unit = nanosPer[unitName];
    if (unit === undefined) throw new DurationError(`time: unknown unit ${goQuote(unitName)} in duration ${goQuote(text)}`);
    if (v > maxUint / unit) throw invalid();
    v *= unit;
    if (f > 0n) {
      // float64, as Go computes it, then truncated.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > maxUint) throw invalid();
    }
    d += v;
    if (d > maxUint) throw invalid();
  }
  if (neg) return -d;
  if (d > maxUint - 1n) throw invalid();
  return d;
}
