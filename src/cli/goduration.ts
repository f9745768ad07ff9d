// Go's time.ParseDuration ("300ms", "1.5h", "2h45m", "0"), for flags that kube-apiserver spells
// as durations (--etcd-compaction-interval), with Go's error texts. Returns seconds.

const unitSeconds: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  'µs': 1e-6, // U+00B5 micro sign
  'μs': 1e-6, // U+03BC Greek mu
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};

export class DurationError extends Error {}

export function parseGoDuration(text: string): number {
  const quoted = JSON.stringify(text);
  const invalid = () => new DurationError(`time: invalid duration ${quoted}`);
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const [whole, int = '', frac] = m;
    if (int === '' && (frac === undefined || frac === '')) throw invalid();
    s = s.slice(whole.length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === '') throw new DurationError(`time: missing unit in duration ${quoted}`);
    const scale = unitSeconds[unit];
    if (scale === undefined) throw new DurationError(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    s = s.slice(unit.length);
    total += Number(`${int || '0'}.${frac ?? ''}0`) * scale;
  }
  return sign * total;
}
