// The API server's reading of numeric query parameters: apimachinery's conversions
// (src/api/queryparams.ts), a refusal answered 400 BadRequest with the conversion's error text,
// as every handler answers a failed ParameterCodec.DecodeParameters.

import { parseGoInt64, QueryParamError } from '../api/queryparams.js';
import { statusErrors } from './status.js';

/** An int64 parameter (limit, timeoutSeconds, gracePeriodSeconds), undefined when absent. */
export function int64Param(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  try {
    return parseGoInt64(v);
  } catch (e) {
    if (e instanceof QueryParamError) throw statusErrors.badRequest(e.message);
    throw e;
  }
}
