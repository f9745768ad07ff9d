// validateImagePullSecrets (pkg/apis/core/validation, v1.32): an entry may hold only `name`.
// Upstream does not require the name, and its decoder has already dropped any other field (as
// Bulkhead's decodeObject does), so through the API this never fires; it guards pod specs
// that reach validation without decoding.

import { fieldError, goQuote, type FieldError, type FieldPath } from '../fielderrors.js';
import type { LocalObjectReference } from '../types.js';
import { goValue } from './gosyntax.js';

export function validateImagePullSecrets(secrets: LocalObjectReference[], path: FieldPath, errs: FieldError[] = []): FieldError[] {
  for (let i = 0; i < secrets.length; i++) {
    const ref = secrets[i];
    if (ref === null || typeof ref !== 'object') continue;
    if (Object.keys(ref).some((k) => k !== 'name')) {
      const name = typeof ref.name === 'string' ? ref.name : '';
      errs.push(fieldError.invalid(path.index(i), goValue(`core.LocalObjectReference{Name:${goQuote(name)}}`), 'only name may be set'));
    }
  }
  return errs;
}
