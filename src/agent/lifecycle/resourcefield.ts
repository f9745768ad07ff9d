// A container's resource as the downward API exposes it (an env var's or a downwardAPI volume
// file's resourceFieldRef): pkg/api/v1/resource helpers.go ExtractContainerResourceValue, with
// the kubelet's defaultPodLimitsForDownwardAPI before it: a limit the container does not set is
// the node's allocatable (cpu, memory, ephemeral-storage), so a process can size itself to what
// it may use. The value is in units of the divisor (1 when zero or unset), rounded up: cpu by
// millicores, the others by bytes. Pure.

import { mustParse, type Quantity } from '../../api/quantity.js';
import type { Container, Pod } from '../../api/types.js';

export interface ResourceFieldRef {
  containerName?: string;
  resource?: string;
  divisor?: string | number;
}

/** What went wrong, in upstream's words (`container x not found`, `unsupported container resource : x`). */
export class ResourceFieldError extends Error {}

/** The resources whose unset limit is the node's allocatable (MergeContainerResourceLimits). */
const allocatableDefaults = ['cpu', 'memory', 'ephemeral-storage'];

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
  const value = given ?? (kind === 'limits' && allocatableDefaults.includes(res) ? quantity(allocatable[res]) : undefined) ?? mustParse('0');
  const d = quantity(ref.divisor);
  const divisor = d === undefined || d.sign() === 0 ? mustParse('1') : d;
  const [num, den] = res === 'cpu' ? [value.milliValueNumber(), divisor.milliValueNumber()] : [value.valueNumber(), divisor.valueNumber()];
  return String(Math.ceil(num / den));
}
