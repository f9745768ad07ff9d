// How the workload controllers read the errors of their writes (pkg/controller's
// apierrors.HasStatusCause(err, v1.NamespaceTerminatingCause) test, and Go's %v of an error).

import { isStatus } from '../client/errors.js';

/** The create was refused because the namespace is going away (metav1 NamespaceTerminatingCause): nothing to report, nothing to retry. */
export function isNamespaceTerminating(e: unknown): boolean {
  if (!isStatus(e, 403)) return false;
  const status = (e as { status?: { message?: string; details?: { causes?: { reason?: string }[] } } }).status;
  if (status?.details?.causes?.some((c) => c.reason === 'NamespaceTerminating')) return true;
  return /because it is being terminated$/.test(status?.message ?? '');
}

/** The text of an error as Go's %v prints a StatusError: its message. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
