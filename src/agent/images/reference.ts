// Image reference parsing and normalisation, following Docker's distribution/reference rules
// (what the kubelet and containerd use) closely enough for a local image store:
//   busybox                      -> docker.io/library/busybox:latest
//   busybox:1.36                 -> docker.io/library/busybox:1.36
//   library/busybox              -> docker.io/library/busybox:latest
//   registry.example/x/y:tag     -> registry.example/x/y:tag
//   busybox@sha256:<64 hex>      -> docker.io/library/busybox@sha256:<64 hex>   (no default tag)
// The first path component is a registry host when it contains '.' or ':' or is 'localhost'.

export class InvalidReferenceError extends Error {
  constructor(readonly reference: string, reason: string) {
    super(`invalid image reference ${JSON.stringify(reference)}: ${reason}`);
    this.name = 'InvalidReferenceError';
  }
}

export interface ImageReference {
  /** Registry host, e.g. "docker.io", "registry.example", "localhost:5000". */
  domain: string;
  /** Repository path below the registry, e.g. "library/busybox". */
  path: string;
  tag?: string;
  /** "sha256:<64 hex>". */
  digest?: string;
}

export const defaultDomain = 'docker.io';
export const defaultTag = 'latest';
const legacyDefaultDomain = 'index.docker.io';
const officialNamespace = 'library';

const pathComponentRe = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domainRe = new RegExp(`^${domainComponent}(?:\\.${domainComponent})*(?::[0-9]+)?$`);
const tagRe = /^[\w][\w.-]{0,127}$/;
const sha256DigestRe = /^sha256:[a-f0-9]{64}$/;
const anyDigestRe = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$/;
const maxNameLength = 255;

/** Parse and normalise a reference (default registry, namespace and, without a digest, tag). */
export function parseReference(input: string): ImageReference {
  const bad = (reason: string): never => {
    throw new InvalidReferenceError(input, reason);
  };
  if (input === '') bad('empty');
  if (/^[a-f0-9]{64}$/.test(input)) bad('a 64-character hexadecimal string is an image ID, not a repository name');
  let rest = input;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!anyDigestRe.test(digest)) bad(`malformed digest ${JSON.stringify(digest)}`);
    if (!digest.startsWith('sha256:')) bad(`unsupported digest algorithm in ${JSON.stringify(digest)} (only sha256)`);
    if (!sha256DigestRe.test(digest)) bad(`a sha256 digest is 64 lowercase hexadecimal characters`);
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!tagRe.test(tag)) bad(`malformed tag ${JSON.stringify(tag)}`);
  }
  if (rest === '') bad('missing repository name');
  let domain = defaultDomain;
  let path = rest;
  const slash = rest.indexOf('/');
  if (slash >= 0) {
    const first = rest.slice(0, slash);
    if (first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase()) {
      domain = first;
      path = rest.slice(slash + 1);
      if (!domainRe.test(domain)) bad(`malformed registry host ${JSON.stringify(domain)}`);
    }
  }
  if (domain === legacyDefaultDomain) domain = defaultDomain;
  if (domain === defaultDomain && !path.includes('/')) path = `${officialNamespace}/${path}`;
  for (const component of path.split('/')) {
    if (pathComponentRe.test(component)) continue;
    if (pathComponentRe.test(component.toLowerCase())) bad('repository name must be lowercase');
    bad(`malformed repository path component ${JSON.stringify(component)}`);
  }
  if (domain.length + 1 + path.length > maxNameLength) bad(`repository name longer than ${maxNameLength} characters`);
  if (tag === undefined && digest === undefined) tag = defaultTag;
  return { domain, path, ...(tag !== undefined ? { tag } : {}), ...(digest !== undefined ? { digest } : {}) };
}

/** "domain/path", the repository name without tag or digest. */
export function referenceName(ref: ImageReference): string {
  return `${ref.domain}/${ref.path}`;
}

/** The fully qualified string form: "domain/path[:tag][@digest]". */
export function formatReference(ref: ImageReference): string {
  return `${referenceName(ref)}${ref.tag !== undefined ? `:${ref.tag}` : ''}${ref.digest !== undefined ? `@${ref.digest}` : ''}`;
}

/** parseReference + formatReference: "busybox" -> "docker.io/library/busybox:latest". */
export function normalizeReference(input: string): string {
  return formatReference(parseReference(input));
}

/** The short form Docker prints: "docker.io/library/busybox:latest" -> "busybox:latest". */
export function familiarReference(input: string): string {
  const ref = parseReference(input);
  let name = referenceName(ref);
  if (ref.domain === defaultDomain) {
    name = ref.path;
    const prefix = `${officialNamespace}/`;
    if (name.startsWith(prefix) && !name.slice(prefix.length).includes('/')) name = name.slice(prefix.length);
  }
  return `${name}${ref.tag !== undefined ? `:${ref.tag}` : ''}${ref.digest !== undefined ? `@${ref.digest}` : ''}`;
}
