// A container's resource as the downward API exposes it (an env var's or a downwardAPI volume
// file's resourceFieldRef): pkg/api/v1/resource helpers.go ExtractContainerResourceValue, with
// the kubelet's defaultPodLimitsForDownwardAPI before it (MergeContainerResourceLimits): a limit
// the container does not set, or sets to zero, is the node's allocatable (cpu, memory,
// ephemeral-storage), so a process can size itself to what it may use. The value is the exact
// ceiling of value / divisor (divisor 1 when zero or unset; convertQuantityToString): "0" for a
// value of zero, saturated at int64's maximum. On the divisors validation admits (cpu 1m or 1,
// memory 1, 1k, 1Ki, ...) that is the older "ceil of millicores, or of bytes, over the divisor's".
// Pure.

import { mustParse, type Quantity } from '../../api/quantity.js';
import type { Container, Pod } from '../../api/types.js';

export interface ResourceFieldRef {
  containerName?: string;
  resource?: string;
  divisor?: string | number;
}

/** What went wrong, in upstream's words (`container x not found`, `unsupported container resource : x`). */
export class ResourceFieldError extends Error {}

/** The resources whose unset or zero limit is the node's allocatable (MergeContainerResourceLimits). */
const allocatableDefaults = ['cpu', 'memory', 'ephemeral-storage'];

const maxInt64 = (1n << 63n) - 1n;

/** Decimal digits of a positive integer. */
const digits = (n: bigint): number => n.toString().length;

/**
 * convertQuantityToString: ceil(value / divisor) exactly, "0" when either is not positive,
 * int64's maximum when the ratio does not fit. Magnitudes are compared first so that a quantity
 * like 1e1000000 never expands into a million-digit integer.
 */
export function ceilRatio(value: Quantity, divisor: Quantity): string {
  if (value.sign() <= 0 || divisor.sign() <= 0) return '0';
  const v = value.toDecimal();
  const d = divisor.toDecimal();
  // 10^(m-1) <= x < 10^m with m = digits + exponent, so the ratio lies strictly between
  // 10^(mv-md-1) and 10^(mv-md+1).
  const mv = digits(v.unscaled) + v.exponent;
  const md = digits(d.unscaled) + d.exponent;
  if (mv - md - 1 >= 19) return maxInt64.toString(); // above 10^19 > int64's maximum
  if (mv - md + 1 <= 0) return '1'; // below 1: a positive ratio rounds up to 1
  const shift = v.exponent - d.exponent;
  const num = shift >= 0 ? v.unscaled * 10n ** BigInt(shift) : v.unscaled;
  const den = shift >= 0 ? d.unscaled : d.unscaled * 10n ** BigInt(-shift);
  const q = (num + den - 1n) / den;
  return (q > maxInt64 ? maxInt64 : q).toString();
}

function quantity(v: string | number | undefined): Quantity | undefined {
  return v === undefined || v === null ? undefined : mustParse(String(v));
}

/**
 * The value of `ref.resource` (limits.cpu, requests.memory, limits.hugepages-2Mi, …) of the
 * container `ref.containerName` names, or of `self` when it names none (an env var's own
 * container). `allocatable`: the Node's status.allocatable.
 */
export function containerResourceValue(pod: Pod, ref: ResourceFieldRef, allocatable: Readonly<Record<string, string>>, self?: Container): string {
  const name = ref.containerName ?? '';
  const c = name === '' && self ? self : [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find((x) => x.name === name);
  if (!c) throw new ResourceFieldError(`container ${name} not found`);
  const resource = ref.resource ?? '';
  const dot = resource.indexOf('.');
  const kind = resource.slice(0, dot);
  const res = resource.slice(dot + 1);
  const supported = dot > 0 && (kind === 'limits' || kind === 'requests') && (allocatableDefaults.includes(res) || res.startsWith('hugepages-'));
  if (!supported) throw new ResourceFieldError(`unsupported container resource : ${resource}`);
  const set = (kind === 'limits' ? c.resources?.limits : c.resources?.requests) as Record<string, string | number> | undefined;
  const given = quantity(set?.[res]);
  // A zero limit counts as unset too (MergeContainerResourceLimits: `!exists || quantity.IsZero()`).
  const node = kind === 'limits' && allocatableDefaults.includes(res) && (given === undefined || given.isZero()) ? quantity(allocatable[res]) : undefined;
  const value = node ?? given ?? mustParse('0');
  const d = quantity(ref.divisor);
  const divisor = d === undefined || d.sign() === 0 ? mustParse('1') : d;
  return ceilRatio(value, divisor);
}
