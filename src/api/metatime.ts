// metav1.Time and metav1.MicroTime as the API writes them: RFC 3339 in UTC, to the second
// (Time: creationTimestamp, condition transition times, …) or to the microsecond (MicroTime:
// leases' renewTime, events.k8s.io eventTime). Go truncates a finer time; so does this.

/** metav1.Time's JSON: `2026-11-26T23:40:05Z`. */
export function metaTime(t: Date | number): string {
  const iso = (typeof t === 'number' ? new Date(t) : t).toISOString();
  return `${iso.slice(0, -5)}Z`;
}

/** metav1.MicroTime's JSON: `2026-11-26T23:40:05.123000Z` (a Date holds milliseconds). */
export function microTime(t: Date | number): string {
  const iso = (typeof t === 'number' ? new Date(t) : t).toISOString();
  return `${iso.slice(0, -1)}000Z`;
}
