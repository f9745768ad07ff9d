// The status of a failed request, from either client: the HTTP code and reason of the
// Status body, as client-go's apierrors.IsNotFound / IsConflict / IsGone read them.

import type { Status } from '../api/types.js';

export class ApiError extends Error {
  constructor(readonly code: number, readonly status: Status | undefined, text = '') {
    super(status?.message ?? `HTTP ${code}: ${text.slice(0, 200)}`);
  }
  get reason(): string | undefined {
    return this.status?.reason;
  }
}

/** The HTTP status code of an API error (either client's), or undefined for anything else. */
export function errorCode(e: unknown): number | undefined {
  if (e && typeof e === 'object' && 'code' in e && typeof e.code === 'number' && 'status' in e) return e.code;
  return undefined;
}

/** Whether `e` is an API error with one of these codes. */
export function isStatus(e: unknown, ...codes: number[]): boolean {
  const c = errorCode(e);
  return c !== undefined && codes.includes(c);
}
