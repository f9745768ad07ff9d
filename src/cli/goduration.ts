// Go's time.ParseDuration ("300ms", "1.5h", "2h45m", "0"), for flags that kube-apiserver spells
// as durations (--etcd-compaction-interval), with Go's error texts (api/goduration.ts). Returns seconds.

import { DurationError, parseGoDurationNanos } from '../api/goduration.js';

export { DurationError };

export function parseGoDuration(text: string): number {
  return Number(parseGoDurationNanos(text)) / 1e9;
}
