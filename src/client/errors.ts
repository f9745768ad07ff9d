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

/** metav1 NamespaceTerminatingCause, the cause kube-apiserver's namespace lifecycle admission sets (a cause's Type is "reason" in JSON). */
export const namespaceTerminatingCause = 'NamespaceTerminating';

/** The Status body of an API error (either client's), or undefined. */
export function statusOf(e: unknown): Status | undefined {
  return errorCode(e) === undefined ? undefined : (e as { status?: Status }).status;
}

/** apierrors.HasStatusCause: the Status of an API error names this cause. */
export function hasStatusCause(e: unknown, cause: string): boolean {
  return !!statusOf(e)?.details?.causes?.some((c) => c.reason === cause);
}

/**
 * A create refused because its namespace is being terminated: 403 with the NamespaceTerminating
 * cause (kube-apiserver), or with the lifecycle admission's message alone (a server that sends
 * no cause).
 */
export function isNamespaceTerminating(e: unknown): boolean {
  if (errorCode(e) !== 403) return false;
  if (hasStatusCause(e, namespaceTerminatingCause)) return true;
  return /^.* is forbidden: unable to create new content in namespace \S+ because it is being terminated$/.test(statusOf(e)?.message ?? '');
}
