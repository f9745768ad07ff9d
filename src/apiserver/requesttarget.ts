// The path and query of a request as Go's net/http reads them (url.ParseRequestURI: the path
// percent-decoded once, never normalised), before anything routes on them. WHATWG `new URL()`
// would resolve `..` and `%2e%2e` and read `//x` as a host: a path that names one namespace
// must not act on another. A dot segment is refused as the registry's key functions refuse a
// name of "." or ".." (content.IsPathSegmentName: `Name parameter invalid: "..": may not be
// '..'`), here for every segment and before routing; a malformed escape is url.Parse's error.

import { statusErrors } from './status.js';

export interface RequestTarget {
  /** Percent-decoded, not normalised. */
  path: string;
  query: URLSearchParams;
}

/** url.PathUnescape, with url.Parse's wording for a bad escape. */
function unescapePath(raw: string, rawURL: string): string {
  const bad = /%(?![0-9A-Fa-f]{2})/.exec(raw);
  if (bad) throw statusErrors.badRequest(`parse ${JSON.stringify(rawURL)}: invalid URL escape ${JSON.stringify(raw.slice(bad.index, bad.index + 3))}`);
  return raw.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}

export function parseRequestTarget(rawURL: string): RequestTarget {
  let target = rawURL;
  // The absolute form a proxy may send: the path starts after the authority.
  const absolute = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  if (absolute) target = target.slice(absolute[0].length) || '/';
  const hash = target.indexOf('#');
  if (hash >= 0) target = target.slice(0, hash);
  const q = target.indexOf('?');
  const rawPath = q >= 0 ? target.slice(0, q) : target;
  const path = unescapePath(rawPath, rawURL);
  for (const segment of path.split('/')) {
    if (segment === '.' || segment === '..') {
      throw statusErrors.badRequest(`Name parameter invalid: ${JSON.stringify(segment)}: may not be '${segment}'`);
    }
  }
  return { path, query: new URLSearchParams(q >= 0 ? target.slice(q + 1) : '') };
}
