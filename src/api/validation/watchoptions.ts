// The watch half of apimachinery's ValidateListOptions (pkg/apis/meta/internalversion/validation:
// validateWatchOptions), with the WatchList feature on: sendInitialEvents needs
// resourceVersionMatch=NotOlderThan, and resourceVersionMatch means nothing to a watch without it.

import { fieldError, type FieldError } from '../fielderrors.js';

export interface WatchOptions {
  /** Undefined when the parameter is absent. */
  sendInitialEvents?: boolean;
  resourceVersionMatch?: string;
  continue?: string;
}

const notOlderThan = 'NotOlderThan';

export function validateWatchOptions(o: WatchOptions): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch ?? '';
  if (o.sendInitialEvents !== undefined && match !== notOlderThan) {
    errs.push(fieldError.forbidden('resourceVersionMatch', `sendInitialEvents requires setting resourceVersionMatch to ${notOlderThan}`));
  }
  if (match !== '') {
    if (o.sendInitialEvents === undefined) errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== notOlderThan) errs.push(fieldError.notSupported('resourceVersionMatch', match, [notOlderThan]));
    if (o.continue) errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}
