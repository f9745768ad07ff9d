// Namespace create validation: the name, and the Pod Security labels (422 on a bad value).

import type { FieldError } from '../api/fielderrors.js';
import type { Namespace } from '../api/types.js';
import { validateNamespace } from '../api/validation/index.js';
import { validateNamespaceLabels } from '../podsecurity/index.js';

export function validateNamespaceObject(ns: Namespace): FieldError[] {
  return [...validateNamespace(ns), ...validateNamespaceLabels(ns.metadata?.labels ?? {})];
}
