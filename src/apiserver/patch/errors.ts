// Errors from applying patches, each carrying the HTTP code, Status reason and Status message
// kube-apiserver answers with (k8s.io/apiserver pkg/endpoints/handlers/patch.go):
//   - undecodable patch documents and bad strategic-merge-patch formats: 400 BadRequest;
//   - JSON patch operations that do not apply: 422 Invalid, whose Status message is the generic
//     "the server rejected our request due to an error in our request" while the precise text
//     (`message` here) goes in details.causes[0] with reason UnexpectedServerResponse, as
//     errors.NewGenericServerResponse builds it;
//   - strategic merge patch errors outside interpretStrategicMergePatchError's list (unknown
//     `$patch` value, missing merge key, ...): upstream answers 500 with reason "" because the
//     error is not a Status; these are the client's mistakes, so Bulkhead answers 400 BadRequest
//     with upstream's text (kubernetes/kubernetes#79210, #139253 ask for exactly that);
//   - server-side apply conflicts: 409 Conflict with FieldManagerConflict causes.

import type { Status, StatusCause } from '../../api/types.js';

export abstract class PatchError extends Error {
  /** HTTP status code (and Status.code). */
  abstract readonly code: number;
  /** Status.reason ("" is upstream's StatusReasonUnknown). */
  abstract readonly reason: string;
  /** Status.details.causes, when upstream sends any. */
  readonly causes?: StatusCause[];

  /** Status.message as kube-apiserver sends it (may be less precise than `message`). */
  get statusMessage(): string {
    return this.message;
  }

  /** The Status object to answer with. */
  toStatus(): Status {
    const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.statusMessage, reason: this.reason, code: this.code };
    if (this.causes) s.details = { causes: this.causes };
    return s;
  }
}

/** 400: the patch (or the object it applies to) is not a document of the right shape. */
export class PatchBadRequestError extends PatchError {
  readonly code = 400;
  readonly reason = 'BadRequest';
}

/** 400 from a JSON merge patch that is not a JSON object or array (evanphx ErrBadJSONPatch). */
export class MergePatchError extends PatchBadRequestError {}

/** 400 from an RFC 6902 patch document that does not decode (not a list of operation objects). */
export class JSONPatchDecodeError extends PatchBadRequestError {}

/** 413: more operations than kube-apiserver accepts in one JSON patch. */
export class JSONPatchTooLargeError extends PatchError {
  readonly code = 413;
  readonly reason = 'RequestEntityTooLarge';
}

export type JSONPatchFailure = 'missing value' | 'test failed' | 'invalid index referenced' | 'invalid' | 'unknown op';

/**
 * 422: an RFC 6902 operation does not apply. `message` is evanphx/json-patch's text, e.g.
 * `replace operation does not apply: doc is missing path: /spec/foo/bar: missing value`.
 */
export class JSONPatchApplyError extends PatchError {
  readonly code = 422;
  readonly reason = 'Invalid';
  constructor(
    message: string,
    /** Index of the failing operation in the patch. */
    readonly index: number,
    /** The operation's `op`. */
    readonly op: string,
    /** Which of evanphx's sentinel errors it wraps. */
    readonly failure: JSONPatchFailure,
  ) {
    super(message);
  }
  override get statusMessage(): string {
    return 'the server rejected our request due to an error in our request';
  }
  override toStatus(): Status {
    return genericResponseStatus(super.toStatus(), this.message);
  }
}

/** 422: a `test` operation found a different value: `testing value /x failed: test failed`. */
export class JSONPatchTestError extends JSONPatchApplyError {}

/**
 * A strategic merge patch that cannot be applied. The code follows upstream's
 * interpretStrategicMergePatchError: 422 for lists of lists and content that does not match
 * `$retainKeys`, 400 for malformed directives and everything else (where upstream's 500 is
 * the client's mistake).
 */
export class StrategicMergePatchError extends PatchError {
  readonly reason: string;
  constructor(
    message: string,
    readonly code: 400 | 422,
  ) {
    super(message);
    this.reason = code === 400 ? 'BadRequest' : 'Invalid';
  }
  override get statusMessage(): string {
    return this.code === 422 ? 'the server rejected our request due to an error in our request' : this.message;
  }
  override toStatus(): Status {
    const s = super.toStatus();
    return this.code === 422 ? genericResponseStatus(s, this.message) : s;
  }
}

/** The details errors.NewGenericServerResponse gives a 422: the precise text as the one cause. */
function genericResponseStatus(s: Status, serverMessage: string): Status {
  if (serverMessage) s.details = { causes: [{ reason: 'UnexpectedServerResponse', message: serverMessage }] };
  return s;
}

/** 400 from server-side apply: wrong apiVersion/kind, managedFields in the applied config. */
export class ApplyBadRequestError extends PatchBadRequestError {}

/** 500 from server-side apply when the live object's managedFields do not decode. */
export class ApplyInternalError extends PatchError {
  readonly code = 500;
  readonly reason = 'InternalError';
  override get statusMessage(): string {
    return `Internal error occurred: ${this.message}`;
  }
  override toStatus(): Status {
    const s = super.toStatus();
    s.details = { causes: [{ message: this.message }] };
    return s;
  }
}

/** One field another manager owns with a different value. */
export interface ApplyConflict {
  /** The other manager's name, e.g. "kubectl-client-side-apply". */
  manager: string;
  /** Its operation: "Apply" or "Update". */
  operation: 'Apply' | 'Update';
  /** The apiVersion its entry records (printed for Update managers). */
  apiVersion: string;
  /** Its subresource, "" for the main resource. */
  subresource: string;
  /** The field in structured-merge-diff's path notation: `.spec.containers[name="nginx"].image`. */
  field: string;
}

/** 409 Conflict from server-side apply, with one FieldManagerConflict cause per field. */
export class ApplyConflictError extends PatchError {
  readonly code = 409;
  readonly reason = 'Conflict';
  override readonly causes: StatusCause[];
  constructor(
    readonly conflicts: ApplyConflict[],
    message: string,
    causes: StatusCause[],
  ) {
    super(message);
    this.causes = causes;
  }
}
