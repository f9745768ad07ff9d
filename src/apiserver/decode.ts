// Request bodies decoded as kube-apiserver's handlers do, through the decoder `bulkhead plan`
// uses too (api/schema/decode.ts): a decoding error is a 400, unknown fields follow the
// request's fieldValidation (Strict: 400, Warn: warning, Ignore: dropped).

import { decodeObject } from '../api/schema/index.js';
import type { KubeObject } from '../api/types.js';
import type { RequestInfo } from './rest.js';
import type { ResourceDef } from './resources.js';
import { statusErrors } from './status.js';

export function decodeRequestObject(def: ResourceDef, raw: unknown, req: RequestInfo): KubeObject {
  const decoded = decodeObject(raw, { group: def.group, version: def.version, kind: def.kind }, req.fieldValidation);
  if (!decoded.ok) throw statusErrors.badRequest(decoded.message);
  req.warnings.push(...decoded.warnings);
  return decoded.object;
}
