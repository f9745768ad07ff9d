// Query parameters as apimachinery's parameter codec converts them into ListOptions,
// PatchOptions, DeleteOptions and PodLogOptions (runtime/conversion.go): the first value of a
// parameter counts; booleans are Convert_Slice_string_To_bool, integers strconv.ParseInt.

/**
 * Convert_Slice_string_To_bool: absent, "0" and "false" in any case are false; anything else,
 * the empty string included, is true ("True", "1", "yes": the Python client sends "True").
 */
export function queryBool(v: string | null): boolean {
  if (v === null) return false;
  return !(v === '0' || v.toLowerCase() === 'false');
}

/** A parameter that strconv.ParseInt refuses; `message` is its error text. */
export class QueryParamError extends Error {}

const int64Max = 2n ** 63n - 1n;
const int64Min = -(2n ** 63n);

/** strconv.ParseInt(s, 10, 64), or its error's text. */
export function parseGoInt64(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new QueryParamError(`strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v > int64Max || v < int64Min) throw new QueryParamError(`strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range`);
  return Number(v);
}
