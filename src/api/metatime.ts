// metav1.Time and metav1.MicroTime as the API writes them: RFC 3339 in UTC, to the second
// (Time: creationTimestamp, condition transition times, …) or to the microsecond (MicroTime:
// leases' renewTime, events.k8s.io eventTime). Go truncates a finer time; so does this.

/** The last second metaTime printed, and its text: a pod create stamps a time or two, all in the same second. */
let lastSecond = NaN;
let lastText = '';

/** metav1.Time's JSON: `2026-11-26T23:40:05Z`. */
export function metaTime(t: Date | number): string {
  const ms = typeof t === 'number' ? t : t.getTime();
  const second = Math.floor(ms / 1000);
  if (second === lastSecond) return lastText;
  const iso = new Date(ms).toISOString();
  lastText = `${iso.slice(0, -5)}Z`;
  lastSecond = second;
  return lastText;
}

/** metav1.MicroTime's JSON: `2026-11-26T23:40:05.123000Z` (a Date holds milliseconds). */
export function microTime(t: Date | number): string {
  const iso = (typeof t === 'number' ? new Date(t) : t).toISOString();
  return `${iso.slice(0, -1)}000Z`;
}
