// Resource names as quota and validation see them (pkg/apis/core/helper, quota/v1/evaluator).

export const requestsPrefix = 'requests.';
export const limitsPrefix = 'limits.';
export const podObjectCountName = 'count/pods';

/** Exact names the pod evaluator tracks. */
export const podEvaluatorResources = new Set([
  podObjectCountName,
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
]);

export const podEvaluatorPrefixes = ['hugepages-', 'requests.hugepages-'];

/** The names that make a quota demand an explicit request or limit from every container. */
export const quotaValidationSet = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

const qualifiedNameRe = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/;
const dns1123SubdomainRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** IsQualifiedName: optional DNS-subdomain prefix and '/', then a name of at most 63 characters. */
export function isQualifiedName(value: string): boolean {
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0 || prefix.length > 253 || !dns1123SubdomainRe.test(prefix)) return false;
  } else return false;
  return name.length > 0 && name.length <= 63 && qualifiedNameRe.test(name);
}

/** Native: unqualified, or in the kubernetes.io/ namespace. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** Extended resource: not native, not requests.-prefixed, and `requests.<name>` is a qualified name. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(requestsPrefix)) return false;
  return isQualifiedName(requestsPrefix + name);
}

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** DRA implicit extended resources: `deviceclass.resource.kubernetes.io/<device class>`. */
const deviceClassResourcePrefix = 'deviceclass.resource.kubernetes.io/';

/** IsDRAExtendedResourceName: an extended resource, or a DRA implicit one (native namespace). */
export function isDRAExtendedResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith(deviceClassResourcePrefix);
}

/**
 * `requests.<extended>`: the only way quota tracks an extended resource; this includes the DRA
 * implicit `requests.deviceclass.resource.kubernetes.io/<class>`.
 */
export function isExtendedResourceNameForQuota(name: string): boolean {
  if (name.startsWith(requestsPrefix + deviceClassResourcePrefix)) return true;
  return name.startsWith(requestsPrefix) && isExtendedResourceName(name.slice(requestsPrefix.length));
}

/** The hard keys of a quota that the pod evaluator tracks (MatchingResources). */
export function podMatchingResources(names: Iterable<string>): string[] {
  const out: string[] = [];
  for (const n of names) {
    if (podEvaluatorResources.has(n) || podEvaluatorPrefixes.some((p) => n.startsWith(p)) || isExtendedResourceNameForQuota(n)) {
      out.push(n);
    }
  }
  return out;
}
