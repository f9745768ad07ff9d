// The pod-deletion-cost annotation as helper.GetDeletionCostFromPodAnnotations reads it
// (pkg/apis/core/helper/helpers.go): a base-10 int32 without a leading '+' or leading zeros.
// Pod validation refuses any other value; ReplicaSet scale-down ranks such a pod as cost 0.

export const podDeletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';

/** validFirstDigit: '-', a lone "0", or 1-9 (no "+10", no "008"). */
function validFirstDigit(s: string): boolean {
  if (s.length === 0) return false;
  return s[0] === '-' || s === '0' || (s[0]! >= '1' && s[0]! <= '9');
}

/** The annotation's value as an int32, or undefined when it is not one (strconv.ParseInt(v, 10, 32)). */
export function parsePodDeletionCost(value: string): number | undefined {
  if (!validFirstDigit(value) || !/^[+-]?[0-9]+$/.test(value)) return undefined;
  const n = Number(value) + 0; // "-0" is 0
  return n >= -2147483648 && n <= 2147483647 ? n : undefined;
}
