// Seeded generator of hostile and careless API requests for the fuzz test: every served
// resource (read from the server's own discovery) × every verb × every body type (JSON, YAML,
// protobuf, the four patch types), with mutated objects, patch directives, deep nesting, alias
// bombs, bad path segments and bad query values. The same seed gives the same requests.

export interface Endpoint {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  subresources: string[];
}

export interface FuzzRequest {
  method: string;
  /** Sent verbatim: never normalised, so dot segments and bad escapes reach the server. */
  path: string;
  contentType?: string;
  body?: Buffer;
  identity: 'admin' | 'node' | 'anonymous';
  /** What the row is, for the failure report. */
  label: string;
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const chance = (r: Rand, p: number) => r() < p;

const baseNames = ['f1', 'f2', 'default', 'kube-system', 'fuzz', 'other-node', 'x'];

/** The names requests use: a few objects that exist, and the node the test's token belongs to. */
interface Ctx {
  names: string[];
  node: string;
}
const badSegments = ['..', '.', '%2e%2e', '%2E%2E', '%2e', '%', '%zz', 'a%2Fb', 'A_B', '-', 'x'.repeat(300), '%00', 'é', '%C0%AE%C0%AE', ''];
const namespaces = ['default', 'fuzz', 'kube-system', 'kube-node-lease', 'nope'];

const boolish = ['true', 'false', 'True', 'FALSE', 't', 'F', '1', '0', 'yes', '', 'tru', '2'];
const numberish = ['0', '1', '-1', '5', '500', '1e400', '1e3', '9999999999999999999999', 'NaN', 'abc', '', ' 1', '0x10', '1.5', '-0'];
const resourceVersions = ['', '0', '1', '3', '999999999', '18446744073709551616', '-1', 'abc', '1e3'];

function queryFor(r: Rand, method: string): string {
  const params: string[] = [];
  const add = (k: string, v: string) => params.push(`${k}=${encodeURIComponent(v)}`);
  const n = Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    switch (Math.floor(r() * 16)) {
      case 0: add('limit', pick(r, numberish)); break;
      case 1: add('continue', pick(r, ['', 'abc', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJ4In0', '%%%'])); break;
      case 2: add('resourceVersion', pick(r, resourceVersions)); break;
      case 3: add('labelSelector', pick(r, ['a=b', 'a in (b,c)', '!a', 'a==', '(', 'a!=b,c', 'x'.repeat(70) + '=y', '=', 'a notin ()'])); break;
      case 4: add('fieldSelector', pick(r, ['metadata.name=f1', 'spec.nodeName=', 'status.phase!=Running', 'bogus=1', '=', 'metadata.name==a==b', 'a'])); break;
      case 5: add('dryRun', pick(r, ['All', 'all', 'None', ''])); break;
      case 6: add('fieldManager', pick(r, ['', 'fuzz', 'x'.repeat(200), 'a\u0000b', 'ü'])); break;
      case 7: add('fieldValidation', pick(r, ['Strict', 'Warn', 'Ignore', 'strict', ''])); break;
      case 8: add('force', pick(r, boolish)); break;
      case 9: add('gracePeriodSeconds', pick(r, numberish)); break;
      case 10: add('propagationPolicy', pick(r, ['Orphan', 'Background', 'Foreground', 'Bogus', ''])); break;
      case 11: add('resourceVersionMatch', pick(r, ['Exact', 'NotOlderThan', 'bogus', ''])); break;
      case 12: add('allowWatchBookmarks', pick(r, boolish)); break;
      case 13: add('includeObject', pick(r, ['Object', 'Metadata', 'None', 'x'])); break;
      case 14: add('pretty', pick(r, boolish)); break;
      case 15: add(pick(r, ['container', 'tailLines', 'sinceSeconds', 'limitBytes', 'previous', 'timestamps']), pick(r, [...numberish, ...boolish])); break;
    }
  }
  // A watch must end by itself: the server's timeout, not the client's, closes it.
  if (method === 'GET' && chance(r, 0.12)) {
    add('watch', pick(r, ['true', 'True', '1', 't']));
    add('timeoutSeconds', '1');
  }
  return params.length ? `?${params.join('&')}` : '';
}

function pathFor(r: Rand, ctx: Ctx, e: Endpoint): { path: string; named: boolean; sub?: string } {
  const prefix = e.group === '' ? `/api/${e.version}` : `/apis/${e.group}/${e.version}`;
  const ns = e.namespaced && chance(r, 0.9) ? `/namespaces/${chance(r, 0.9) ? pick(r, namespaces) : pick(r, badSegments)}` : '';
  const named = chance(r, 0.6);
  const name = chance(r, 0.8) ? pick(r, ctx.names) : pick(r, badSegments);
  let path = `${prefix}${ns}/${e.resource}`;
  let sub: string | undefined;
  if (named) {
    path += `/${name}`;
    if (e.subresources.length && chance(r, 0.3)) {
      sub = chance(r, 0.9) ? pick(r, e.subresources) : pick(r, ['bogus', '..', '%2e%2e']);
      path += `/${sub}`;
    }
  }
  if (chance(r, 0.05)) path = path.replace(`/${e.resource}`, `/${pick(r, ['..', '.', '%2e%2e'])}/${e.resource}`);
  if (chance(r, 0.03)) path += '/';
  return { path, named, sub };
}

/** A valid object of the kind, the starting point that mutations then break in one place. */
function template(ctx: Ctx, e: Endpoint, name: string, ns: string): Record<string, unknown> {
  const apiVersion = e.group === '' ? e.version : `${e.group}/${e.version}`;
  const metadata: Record<string, unknown> = { name, ...(e.namespaced ? { namespace: ns } : {}), labels: { app: 'fuzz' } };
  const container = { name: 'c', image: 'busybox', resources: { limits: { cpu: '10m', memory: '8Mi' } }, securityContext: { ulimits: [{ name: 'nofile', soft: 10, hard: 20 }] } };
  const specs: Record<string, unknown> = {
    Pod: { spec: { containers: [container], initContainers: [{ ...container, name: 'i' }], oomKillMode: 'Single' } },
    Namespace: { spec: { finalizers: ['kubernetes'] } },
    Node: { spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }, status: { capacity: { cpu: '2', memory: '1Gi', pods: '10' } } },
    ResourceQuota: { spec: { hard: { pods: '10', 'requests.cpu': '1' }, scopes: ['NotTerminating'] } },
    LimitRange: { spec: { limits: [{ type: 'Container', default: { cpu: '100m' }, max: { memory: '1Gi' } }] } },
    Event: { involvedObject: { kind: 'Pod', name: 'f1', namespace: ns }, reason: 'Fuzz', message: 'm', type: 'Normal' },
    Lease: { spec: { holderIdentity: ctx.node, leaseDurationSeconds: 40 } },
    Binding: { target: { apiVersion: 'v1', kind: 'Node', name: ctx.node } },
    Eviction: { deleteOptions: { gracePeriodSeconds: 0 } },
  };
  return { apiVersion, kind: e.kind, metadata, ...((specs[e.kind] as object | undefined) ?? {}) };
}

function randomScalar(r: Rand): unknown {
  return pick(r, [null, true, false, 0, -1, 5, 1e400 === Infinity ? 1.5 : 0, 'x', '', '1e999', '-1', '5n', 'Gi', 'x'.repeat(5000), [], {}, [null], { '': 1 }, 2 ** 63, -(2 ** 63)]);
}

/** Sets `value` at a random existing path of `obj` (or adds a random key), in place. */
function mutate(r: Rand, obj: unknown, value: unknown, depth = 0): unknown {
  if (depth > 6 || obj === null || typeof obj !== 'object' || chance(r, 0.25)) return value;
  if (Array.isArray(obj)) {
    if (obj.length === 0 || chance(r, 0.2)) {
      obj.push(value);
      return obj;
    }
    const i = Math.floor(r() * obj.length);
    obj[i] = mutate(r, obj[i], value, depth + 1);
    return obj;
  }
  const o = obj as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 0 || chance(r, 0.15)) {
    o[pick(r, ['bogus', '$patch', '$retainKeys', 'spec', 'status', 'metadata', 'kind', 'apiVersion', 'containers'])] = value;
    return o;
  }
  const k = pick(r, keys);
  o[k] = mutate(r, o[k], value, depth + 1);
  return o;
}

function nested(depth: number, open: string, close: string, inner = '1'): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

const patchDirectives = (r: Rand): unknown =>
  pick(r, [
    { $patch: 'replace' },
    { $patch: 'delete' },
    { $patch: 'bogus' },
    { spec: { $patch: 'replace' } },
    { spec: { containers: [{ $patch: 'delete' }] } },
    { spec: { containers: [{ name: 'c', $patch: 'replace' }] } },
    { spec: { containers: [{ image: 'no-merge-key' }] } },
    { spec: { containers: [{ name: { a: 1 }, image: 'x' }] } },
    { spec: { $setElementOrder: 5 } },
    { spec: { '$setElementOrder/containers': 5 } },
    { spec: { '$setElementOrder/containers': [{ image: 'x' }] } },
    { spec: { '$setElementOrder/containers': [5, 'x', null] } },
    { metadata: { '$deleteFromPrimitiveList/finalizers': 'x' } },
    { metadata: { '$deleteFromPrimitiveList/finalizers': [{}] } },
    { spec: { $retainKeys: 5 } },
    { spec: { $retainKeys: ['containers', 7] } },
    { spec: { containers: 5 } },
    { spec: { containers: { name: 'c' } } },
    { metadata: { labels: [] } },
    { metadata: { managedFields: [{ manager: 5 }] } },
    { metadata: { managedFields: 'x' } },
    { status: { conditions: [{ type: 5 }] } },
  ]);

const jsonPatches = (r: Rand): unknown =>
  pick(r, [
    [{ op: 'replace', path: '/spec/nope', value: 1 }],
    [{ op: 'remove', path: '/metadata/labels/missing' }],
    [{ op: 'add', path: '/spec/containers/-', value: { name: 'd', image: 'busybox' } }],
    [{ op: 'add', path: '/spec/containers/99', value: {} }],
    [{ op: 'test', path: '/metadata/name', value: 'other' }],
    [{ op: 'move', from: '/spec', path: '/spec/x' }],
    [{ op: 'copy', from: '/nope', path: '/x' }],
    [{ op: 'bogus', path: '/x' }],
    [{ op: 'add' }],
    [{ path: '/x', value: 1 }],
    [{ op: 'replace', path: 'no-slash', value: 1 }],
    [{ op: 'replace', path: '/metadata/labels/a~2b', value: 'x' }],
    [{ op: 'replace', path: '', value: {} }],
    [{ op: 'replace', path: '/spec/containers/0/resources/limits/cpu', value: 5 }],
    [5],
    {},
    'x',
    Array.from({ length: 200 }, () => ({ op: 'add', path: '/metadata/labels/a', value: 'b' })),
  ]);

const yamlBodies = [
  // A billion-laughs bomb: nine levels of nine aliases, ~600 bytes, 9^9 nodes when expanded.
  'a: &a ["l","l","l","l","l","l","l","l","l"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\napiVersion: v1\nkind: Pod\nmetadata: {name: bomb}\n',
  'apiVersion: v1\nkind: Pod\nmetadata: &m {name: anchored}\nspec: {containers: [{name: c, image: busybox}]}\nx: *m\n',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: *undefined\n',
  'apiVersion: v1\nkind: Pod\nmetadata: !!binary aGVsbG8=\n',
  'apiVersion: v1\nkind: Pod\nmetadata: !!js/function "function(){}"\n',
  '--- a\n--- b\n',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: x, name: y}\n',
  ': : :\n\t- [',
  'apiVersion: v1\nkind: Pod\nmetadata:\n  name: 1e400\n',
  '? [a, b]\n: c\n',
  '<<: {apiVersion: v1}\nkind: Pod\n',
];

function bodyFor(r: Rand, ctx: Ctx, e: Endpoint, method: string, named: boolean, sub?: string): { contentType?: string; body?: Buffer; label: string } {
  const ns = pick(r, namespaces);
  const name = pick(r, ctx.names);
  let kind: Endpoint = e;
  if (sub === 'binding') kind = { ...e, kind: 'Binding', group: '', version: 'v1' };
  if (sub === 'eviction') kind = { ...e, kind: 'Eviction', group: 'policy', version: 'v1' };
  const obj = template(ctx, kind, name, ns);
  const mutated = (): unknown => {
    let o: unknown = structuredClone(obj);
    const n = 1 + Math.floor(r() * 3);
    for (let i = 0; i < n; i++) o = mutate(r, o, chance(r, 0.7) ? randomScalar(r) : structuredClone(patchDirectives(r)));
    return o;
  };
  const json = (v: unknown) => Buffer.from(JSON.stringify(v));
  const deep = (): Buffer => Buffer.from(pick(r, [
    nested(100_000, '[', ']'),
    nested(100_000, '{"a":', '}'),
    `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"d","labels":${nested(20_000, '{"a":', '}', '"x"')}}}`,
    `{"spec":${nested(50_000, '{"spec":', '}', '{}')}}`,
  ]));

  if (method === 'DELETE') {
    const v = pick(r, [undefined, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] }, { dryRun: ['bogus'] }, { gracePeriodSeconds: -5 }, { gracePeriodSeconds: 'x' }, { propagationPolicy: 'Bogus' }, { orphanDependents: true, propagationPolicy: 'Background' }, { preconditions: { uid: 'nope' } }, { preconditions: { resourceVersion: 5 } }, { kind: 'Pod' }, 5, 'x', null]);
    if (v === undefined) return { label: 'no body' };
    return { contentType: 'application/json', body: json(v), label: `DeleteOptions ${JSON.stringify(v)}` };
  }
  if (method === 'PATCH') {
    const type = pick(r, ['application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/json-patch+json', 'application/apply-patch+yaml', 'application/apply-patch+json', 'application/json', 'text/plain']);
    const roll = r();
    if (roll < 0.08) return { contentType: type, body: deep(), label: `${type} deep` };
    if (type === 'application/json-patch+json') return { contentType: type, body: json(jsonPatches(r)), label: `${type} ops` };
    if (type === 'application/apply-patch+yaml' && roll < 0.35) return { contentType: type, body: Buffer.from(pick(r, yamlBodies)), label: `${type} yaml` };
    const v = roll < 0.6 ? patchDirectives(r) : mutated();
    return { contentType: type, body: json(v), label: `${type} ${JSON.stringify(v).slice(0, 120)}` };
  }
  if (method === 'POST' || method === 'PUT') {
    const roll = r();
    if (roll < 0.06) return { contentType: 'application/json', body: deep(), label: 'json deep' };
    if (roll < 0.16) return { contentType: pick(r, ['application/yaml', 'application/yaml; charset=utf-8']), body: Buffer.from(pick(r, yamlBodies)), label: 'yaml' };
    if (roll < 0.22) {
      const junk = Buffer.from(Array.from({ length: Math.floor(r() * 64) }, () => Math.floor(r() * 256)));
      return { contentType: 'application/vnd.kubernetes.protobuf', body: Buffer.concat([Buffer.from('k8s\0'), junk]), label: 'protobuf junk' };
    }
    if (roll < 0.25) return { contentType: pick(r, ['text/plain', 'application/xml', '']), body: json(obj), label: 'unsupported type' };
    if (roll < 0.4) return { contentType: 'application/json', body: json(obj), label: `valid ${e.kind}` };
    const v = mutated();
    return { contentType: pick(r, ['application/json', 'application/yaml']), body: json(v), label: `mutated ${JSON.stringify(v).slice(0, 120)}` };
  }
  void named;
  return { label: 'no body' };
}

function encodeNonASCII(path: string): string {
  return path.replace(/[^\x00-\x7f]/gu, (c) => encodeURIComponent(c));
}

/** `count` requests for these endpoints from `seed`; `node` is the node whose token the test holds. */
export function* fuzzRequests(seed: number, endpoints: readonly Endpoint[], count: number, node: string): Generator<FuzzRequest> {
  const r = prng(seed);
  const ctx: Ctx = { names: [...baseNames, node], node };
  const extraPaths = ['/', '/api', '/apis', '/api/v1', '/apis/%', '/apis/x/y', '/openapi/v2', '/openapi/v3', '/openapi/v3/api/v1', '/openapi/v3/apis/x/v1', '/version', '/healthz', '/metrics', '/api/v1/namespaces/kube-system/../default/pods', '/api/v1/%', '/api/v1/namespaces/%2e%2e/pods', '/api/v1/namespaces/a/pods/%2E%2E', '//api//v1//pods', '/api/v1/pods/x/y/z/w'];
  for (let i = 0; i < count; i++) {
    const identity = pick(r, ['admin', 'admin', 'admin', 'admin', 'node', 'anonymous'] as const);
    if (chance(r, 0.04)) {
      const method = pick(r, ['GET', 'POST', 'DELETE', 'OPTIONS', 'HEAD']);
      yield { method, path: pick(r, extraPaths) + queryFor(r, method), identity, label: 'extra path' };
      continue;
    }
    const e = pick(r, endpoints);
    const method = pick(r, ['GET', 'GET', 'POST', 'PUT', 'PATCH', 'PATCH', 'DELETE', pick(r, ['HEAD', 'OPTIONS', 'TRACE'])]);
    const p = pathFor(r, ctx, e);
    const b = bodyFor(r, ctx, e, method, p.named, p.sub);
    // A raw non-ASCII byte makes the request line malformed: the server answers 400 and closes at
    // once, as Go's does, which may reset a client still sending a body. With a body, send what
    // an HTTP client sends: the percent-encoded path.
    const path = b.body ? encodeNonASCII(p.path) : p.path;
    yield { method, path: path + queryFor(r, method), identity, contentType: b.contentType, body: b.body, label: b.label };
  }
}
