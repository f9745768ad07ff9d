// How the workload controllers read the errors of their writes (pkg/controller's
// apierrors.HasStatusCause(err, v1.NamespaceTerminatingCause) test, and Go's %v of an error).

// The namespace-terminating test is the client's (one implementation, also the event recorder's).
export { isNamespaceTerminating } from '../client/errors.js';

/** The text of an error as Go's %v prints a StatusError: its message. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
