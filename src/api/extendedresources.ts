// Which resource names are native and which are extended (pkg/apis/core/helper/helpers.go
// IsNativeResource, IsExtendedResourceName). Validation and quota both ask; it lives here, at the
// bottom, so that validation need not import quota.

const requestsPrefix = 'requests.';
const qualifiedNameRe = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/;
const dns1123SubdomainRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** IsQualifiedName as a yes/no: optional DNS-subdomain prefix and '/', then a name of at most 63 characters. */
function isQualifiedName(value: string): boolean {
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
