// Status objects for failed requests, as apimachinery's errors package builds them: the HTTP
// code, reason, message wording and details that kubectl turns into its error lines.

import { errorBody, invalidMessage, type FieldError } from '../api/fielderrors.js';
import type { Status, StatusCause } from '../api/types.js';

export class StatusError extends Error {
  /** An Invalid (422) error's field errors, so that a caller can add its own to them. */
  fieldErrors?: FieldError[];
  constructor(readonly status: Status) {
    super(status.message);
  }
  get code(): number {
    return this.status.code;
  }
}

export interface GroupResource {
  group: string;
  resource: string;
}

function qualified(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

function status(code: number, reason: string, message: string, details?: Status['details']): StatusError {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) s.details = details;
  return new StatusError(s);
}

export const statusErrors = {
  notFound: (gr: GroupResource, name: string) =>
    status(404, 'NotFound', `${qualified(gr)} "${name}" not found`, { name, group: gr.group, kind: gr.resource }),
  alreadyExists: (gr: GroupResource, name: string) =>
    status(409, 'AlreadyExists', `${qualified(gr)} "${name}" already exists`, { name, group: gr.group, kind: gr.resource }),
  conflict: (gr: GroupResource, name: string, why: string) =>
    status(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${why}`, { name, group: gr.group, kind: gr.resource }),
  modified: (gr: GroupResource, name: string) =>
    statusErrors.conflict(gr, name, 'the object has been modified; please apply your changes to the latest version and try again'),
  /** errors.NewInvalid: the message names the qualified kind (`Lease.coordination.k8s.io`), details the bare one. */
  invalid: (kind: string, group: string, name: string, errs: FieldError[]) => {
    const causes: StatusCause[] = errs.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
    const err = status(422, 'Invalid', invalidMessage(group ? `${kind}.${group}` : kind, name, errs), { name, group, kind, causes });
    err.fieldErrors = errs;
    return err;
  },
  forbidden: (gr: GroupResource, name: string, why: string) =>
    status(403, 'Forbidden', name ? `${qualified(gr)} "${name}" is forbidden: ${why}` : `${qualified(gr)} is forbidden: ${why}`, { name: name || undefined, group: gr.group, kind: gr.resource }),
  badRequest: (message: string) => status(400, 'BadRequest', message),
  unauthorized: () => status(401, 'Unauthorized', 'Unauthorized'),
  /** go-restful has no route for this method on this path: the ServiceErrorHandler's 405. */
  methodNotAllowed: () => status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'),
  methodNotSupported: (gr: GroupResource, action: string) =>
    status(405, 'MethodNotAllowed', `${action} is not supported on resources of kind "${qualified(gr)}"`, { group: gr.group, kind: gr.resource }),
  notAcceptable: (message: string) => status(406, 'NotAcceptable', message),
  unsupportedMediaType: (contentType: string) =>
    status(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/apply-patch+yaml, application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json`, { causes: [{ reason: 'UnexpectedServerResponse', message: contentType }] }),
  gone: (message: string) => status(410, 'Expired', message),
  tooLarge: (message: string) => status(413, 'RequestEntityTooLarge', message),
  internal: (message: string) => status(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }),
  /**
   * responsewriters.ErrorToAPIStatus of an error that is no API status, as the etcd3 store passes
   * its etcd client's error up: 500, no reason, the error's text.
   */
  unknown: (message: string) => new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 }),
  serviceUnavailable: (message: string) => status(503, 'ServiceUnavailable', message),
  timeout: (message: string) => status(504, 'Timeout', message),
  /** storage.NewTooLargeResourceVersionError as the watch cache raises it (apimachinery's NewTimeoutError, retry after 1 s). */
  tooLargeResourceVersion: (requested: number, current: number) =>
    status(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    }),
  /** ValidateListOptions' errors: NewInvalid of ListOptions.meta.k8s.io with no name. */
  invalidListOptions: (errs: FieldError[]) =>
    status(422, 'Invalid', invalidMessage('ListOptions.meta.k8s.io', '', errs), {
      group: 'meta.k8s.io',
      kind: 'ListOptions',
      causes: errs.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field })),
    }),
  /** Generic 404 for a path nothing serves (kubectl prints "the server could not find the requested resource"). */
  pathNotFound: () => status(404, 'NotFound', 'the server could not find the requested resource', {}),
};

export function successStatus(details?: Status['details']): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details) s.details = details;
  return s;
}
