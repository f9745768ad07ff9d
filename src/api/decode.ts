// Structural decoding of user objects before any rule looks at them: what the API server's JSON
// decoder refuses with 400 BadRequest ("cannot be handled as a Pod") rather than 422. Checks
// the JSON types of every field Bulkhead's rules read and that each quantity parses, so that
// the pure rules can rely on shapes; each problem names its field path.

import { Quantity, QuantityError } from './quantity.js';

type Leaf = 'string' | 'int' | 'bool' | 'quantity' | 'any' | 'object';
interface ArrayOf { array: Schema; go: string }
interface MapOf { map: Schema; go: string }
interface Struct { fields: Record<string, Schema>; go: string }
type Schema = Leaf | ArrayOf | MapOf | Struct;

const goLeaf: Record<Leaf, string> = {
  string: 'string',
  int: 'int64',
  bool: 'bool',
  quantity: 'resource.Quantity',
  any: 'interface {}',
  object: 'map[string]interface {}',
};

const stringMap: MapOf = { map: 'string', go: 'map[string]string' };
const resourceList: MapOf = { map: 'quantity', go: 'v1.ResourceList' };
const resources: Struct = { go: 'v1.ResourceRequirements', fields: { limits: resourceList, requests: resourceList, claims: { array: 'object', go: '[]v1.ResourceClaim' } } };

const seLinux: Struct = { go: 'v1.SELinuxOptions', fields: { user: 'string', role: 'string', type: 'string', level: 'string' } };
const profile = (go: string): Struct => ({ go, fields: { type: 'string', localhostProfile: 'string' } });
const windowsOptions: Struct = { go: 'v1.WindowsSecurityContextOptions', fields: { hostProcess: 'bool', gmsaCredentialSpecName: 'string', gmsaCredentialSpec: 'string', runAsUserName: 'string' } };

const securityContext: Struct = {
  go: 'v1.SecurityContext',
  fields: {
    capabilities: { go: 'v1.Capabilities', fields: { add: { array: 'string', go: '[]v1.Capability' }, drop: { array: 'string', go: '[]v1.Capability' } } },
    privileged: 'bool',
    seLinuxOptions: seLinux,
    windowsOptions,
    runAsUser: 'int',
    runAsGroup: 'int',
    runAsNonRoot: 'bool',
    readOnlyRootFilesystem: 'bool',
    allowPrivilegeEscalation: 'bool',
    procMount: 'string',
    seccompProfile: profile('v1.SeccompProfile'),
    appArmorProfile: profile('v1.AppArmorProfile'),
    ulimits: { go: '[]v1.Ulimit', array: { go: 'v1.Ulimit', fields: { name: 'string', soft: 'int', hard: 'int' } } },
  },
};

const handler = (go: string): Struct => ({
  go,
  fields: {
    exec: 'object',
    httpGet: { go: 'v1.HTTPGetAction', fields: { path: 'string', port: 'any', host: 'string', scheme: 'string' } },
    tcpSocket: { go: 'v1.TCPSocketAction', fields: { port: 'any', host: 'string' } },
    grpc: 'object',
  },
});

const containerFields: Record<string, Schema> = {
  name: 'string',
  image: 'string',
  command: { array: 'string', go: '[]string' },
  args: { array: 'string', go: '[]string' },
  workingDir: 'string',
  ports: { go: '[]v1.ContainerPort', array: { go: 'v1.ContainerPort', fields: { name: 'string', hostPort: 'int', containerPort: 'int', protocol: 'string', hostIP: 'string' } } },
  env: { array: 'object', go: '[]v1.EnvVar' },
  resources,
  restartPolicy: 'string',
  volumeMounts: { array: 'object', go: '[]v1.VolumeMount' },
  livenessProbe: handler('v1.Probe'),
  readinessProbe: handler('v1.Probe'),
  startupProbe: handler('v1.Probe'),
  lifecycle: { go: 'v1.Lifecycle', fields: { postStart: handler('v1.LifecycleHandler'), preStop: handler('v1.LifecycleHandler') } },
  imagePullPolicy: 'string',
  securityContext,
  oomKillMode: 'string',
  targetContainerName: 'string',
};

const container = (go: string): Struct => ({ go, fields: containerFields });

const objectMeta: Struct = {
  go: 'v1.ObjectMeta',
  fields: {
    name: 'string',
    generateName: 'string',
    namespace: 'string',
    uid: 'string',
    resourceVersion: 'string',
    labels: stringMap,
    annotations: stringMap,
    deletionTimestamp: 'string',
    deletionGracePeriodSeconds: 'int',
  },
};

const affinityTerm: Struct = { go: 'v1.PodAffinityTerm', fields: { namespaces: { array: 'string', go: '[]string' }, namespaceSelector: 'object', labelSelector: 'object', topologyKey: 'string' } };
const podAffinity = (go: string): Struct => ({
  go,
  fields: {
    requiredDuringSchedulingIgnoredDuringExecution: { array: affinityTerm, go: '[]v1.PodAffinityTerm' },
    preferredDuringSchedulingIgnoredDuringExecution: { go: '[]v1.WeightedPodAffinityTerm', array: { go: 'v1.WeightedPodAffinityTerm', fields: { weight: 'int', podAffinityTerm: affinityTerm } } },
  },
});

const podSpec: Struct = {
  go: 'v1.PodSpec',
  fields: {
    volumes: { array: 'object', go: '[]v1.Volume' },
    initContainers: { array: container('v1.Container'), go: '[]v1.Container' },
    containers: { array: container('v1.Container'), go: '[]v1.Container' },
    ephemeralContainers: { array: container('v1.EphemeralContainer'), go: '[]v1.EphemeralContainer' },
    restartPolicy: 'string',
    terminationGracePeriodSeconds: 'int',
    activeDeadlineSeconds: 'int',
    nodeSelector: stringMap,
    nodeName: 'string',
    hostNetwork: 'bool',
    hostPID: 'bool',
    hostIPC: 'bool',
    hostUsers: 'bool',
    securityContext: {
      go: 'v1.PodSecurityContext',
      fields: {
        seLinuxOptions: seLinux,
        windowsOptions,
        runAsUser: 'int',
        runAsGroup: 'int',
        runAsNonRoot: 'bool',
        sysctls: { go: '[]v1.Sysctl', array: { go: 'v1.Sysctl', fields: { name: 'string', value: 'string' } } },
        seccompProfile: profile('v1.SeccompProfile'),
        appArmorProfile: profile('v1.AppArmorProfile'),
      },
    },
    affinity: { go: 'v1.Affinity', fields: { nodeAffinity: 'object', podAffinity: podAffinity('v1.PodAffinity'), podAntiAffinity: podAffinity('v1.PodAntiAffinity') } },
    tolerations: { array: 'object', go: '[]v1.Toleration' },
    priorityClassName: 'string',
    priority: 'int',
    runtimeClassName: 'string',
    overhead: resourceList,
    os: { go: 'v1.PodOS', fields: { name: 'string' } },
    resources,
  },
};

const podStatus: Struct = { go: 'v1.PodStatus', fields: { phase: 'string', qosClass: 'string' } };

export const podSchema: Struct = { go: 'v1.Pod', fields: { apiVersion: 'string', kind: 'string', metadata: objectMeta, spec: podSpec, status: podStatus } };

export const resourceQuotaSchema: Struct = {
  go: 'v1.ResourceQuota',
  fields: {
    apiVersion: 'string',
    kind: 'string',
    metadata: objectMeta,
    spec: {
      go: 'v1.ResourceQuotaSpec',
      fields: {
        hard: resourceList,
        scopes: { array: 'string', go: '[]v1.ResourceQuotaScope' },
        scopeSelector: {
          go: 'v1.ScopeSelector',
          fields: {
            matchExpressions: {
              go: '[]v1.ScopedResourceSelectorRequirement',
              array: { go: 'v1.ScopedResourceSelectorRequirement', fields: { scopeName: 'string', operator: 'string', values: { array: 'string', go: '[]string' } } },
            },
          },
        },
      },
    },
    status: { go: 'v1.ResourceQuotaStatus', fields: { hard: resourceList, used: resourceList } },
  },
};

const limitRangeItem: Struct = {
  go: 'v1.LimitRangeItem',
  fields: { type: 'string', max: resourceList, min: resourceList, default: resourceList, defaultRequest: resourceList, maxLimitRequestRatio: resourceList },
};

export const limitRangeSchema: Struct = {
  go: 'v1.LimitRange',
  fields: { apiVersion: 'string', kind: 'string', metadata: objectMeta, spec: { go: 'v1.LimitRangeSpec', fields: { limits: { array: limitRangeItem, go: '[]v1.LimitRangeItem' } } } },
};

export const namespaceSchema: Struct = { go: 'v1.Namespace', fields: { apiVersion: 'string', kind: 'string', metadata: objectMeta, spec: 'object', status: 'object' } };

export interface DecodeProblem {
  /** Field path, e.g. `spec.containers[0].resources.limits[cpu]`. */
  field: string;
  /** The decoder's text, e.g. `json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`. */
  message: string;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return `number ${v}`;
  return typeof v;
}

function goTypeOf(s: Schema): string {
  return typeof s === 'string' ? goLeaf[s] : s.go;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function structName(go: string): string {
  return go.replace(/^\[\]/, '').replace(/^v1\./, '');
}

/**
 * `path` is the field path with indices (what Bulkhead reports); `goPath` is the dotted path
 * without indices and `owner` the innermost struct, which is how Go's decoder names a field.
 */
function walk(v: unknown, s: Schema, path: string, goPath: string, owner: string, out: DecodeProblem[]): void {
  if (v === null || v === undefined) return; // null decodes as the zero value
  const mismatch = () => {
    const what = typeof v === 'number' ? `number ${String(v)}` : jsonType(v);
    out.push({ field: path, message: `json: cannot unmarshal ${what} into Go struct field ${owner}.${goPath} of type ${goTypeOf(s)}` });
  };
  if (typeof s === 'string') {
    switch (s) {
      case 'string':
        if (typeof v !== 'string') mismatch();
        return;
      case 'bool':
        if (typeof v !== 'boolean') mismatch();
        return;
      case 'int':
        if (typeof v !== 'number' || !Number.isInteger(v)) mismatch();
        return;
      case 'object':
        if (!isPlainObject(v)) mismatch();
        return;
      case 'any':
        return;
      case 'quantity':
        if (typeof v !== 'string' && typeof v !== 'number') {
          out.push({ field: path, message: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" });
          return;
        }
        try {
          // value() forces the exact magnitude: an exponent like 1e999999999 parses but
          // cannot be computed with, so it is refused here rather than failing deep inside.
          Quantity.fromJSON(v).value();
        } catch (e) {
          if (e instanceof QuantityError) out.push({ field: path, message: e.message });
          else if (e instanceof RangeError) out.push({ field: path, message: `quantity ${JSON.stringify(v)} is too large` });
          else throw e;
        }
        return;
    }
  }
  if ('array' in s) {
    if (!Array.isArray(v)) return mismatch();
    v.forEach((item, i) => walk(item, s.array, `${path}[${i}]`, goPath, owner, out));
    return;
  }
  if ('map' in s) {
    if (!isPlainObject(v)) return mismatch();
    for (const [k, item] of Object.entries(v)) walk(item, s.map, `${path}[${k}]`, goPath, owner, out);
    return;
  }
  if (!isPlainObject(v)) return mismatch();
  const inner = structName(s.go);
  for (const [k, fs] of Object.entries(s.fields)) {
    if (k in v) walk(v[k], fs, path === '' ? k : `${path}.${k}`, goPath === '' ? k : `${goPath}.${k}`, inner, out);
  }
}

/** Every structural problem in `raw` against `schema`; empty when it decodes. */
export function decodeProblems(raw: unknown, schema: Struct): DecodeProblem[] {
  const out: DecodeProblem[] = [];
  if (!isPlainObject(raw)) {
    out.push({ field: '', message: `json: cannot unmarshal ${jsonType(raw)} into Go value of type ${schema.go}` });
    return out;
  }
  walk(raw, schema, '', '', structName(schema.go), out);
  return out;
}
