// Shared by the schema tests: the PSA fixture pods (real upstream pods), a full-featured sample
// pod, and a reader that walks an OpenAPI v3 document the way kubectl does (properties, then
// `allOf: [{$ref}]` or `$ref`, then `items`).

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';

// Tests run with cwd = repo root; CI places shared/ beside the repo clone.
export const psaFixturesDir = path.resolve(process.cwd(), '..', 'shared', 'conformance', 'psa', 'fixtures');

export function fixturePods(): { file: string; pod: unknown }[] {
  if (!existsSync(psaFixturesDir)) throw new Error(`PSA fixtures not found at ${psaFixturesDir} (expected shared/ beside the repo; cwd=${process.cwd()})`);
  const files: string[] = [];
  const rec = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = path.join(d, f);
      if (statSync(p).isDirectory()) rec(p);
      else if (f.endsWith('.yaml')) files.push(p);
    }
  };
  rec(psaFixturesDir);
  return files.map((file) => ({ file: path.relative(psaFixturesDir, file), pod: load(readFileSync(file, 'utf8')) }));
}

/** A pod touching most of PodSpec: volumes, sidecars, probes, env, resources, affinity, the design fields. */
export function samplePod(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web',
      namespace: 'default',
      labels: { app: 'web' },
      annotations: { note: 'x' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u-1', controller: true }],
      finalizers: ['example.com/f'],
      creationTimestamp: '2024-05-01T12:00:00Z',
      managedFields: [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: '2024-05-01T12:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }],
    },
    spec: {
      volumes: [
        { name: 'data', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } },
        { name: 'cfg', configMap: { name: 'cfg', items: [{ key: 'a', path: 'a', mode: 420 }], defaultMode: 420, optional: true } },
        {
          name: 'proj',
          projected: {
            sources: [
              { serviceAccountToken: { path: 'token', expirationSeconds: 3600, audience: 'api' } },
              { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }, { path: 'cpu', resourceFieldRef: { containerName: 'app', resource: 'limits.cpu', divisor: '1m' } }] } },
              { secret: { name: 's', items: [{ key: 'k', path: 'k' }] } },
              { configMap: { name: 'c' } },
            ],
          },
        },
        { name: 'claim', ephemeral: { volumeClaimTemplate: { metadata: { labels: { a: 'b' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'fast' } } } },
        { name: 'host', hostPath: { path: '/var/log', type: 'Directory' } },
        { name: 'img', image: { reference: 'quay.io/x/y:1', pullPolicy: 'IfNotPresent' } },
      ],
      initContainers: [{ name: 'sidecar', image: 'busybox', restartPolicy: 'Always', oomKillMode: 'Single' }],
      containers: [
        {
          name: 'app',
          image: 'nginx:1.25',
          command: ['nginx'],
          args: ['-g', 'daemon off;'],
          workingDir: '/',
          ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP', hostPort: 5353, hostIP: '0.0.0.0' }],
          envFrom: [{ prefix: 'X_', configMapRef: { name: 'cm', optional: true } }, { secretRef: { name: 'sec' } }],
          env: [
            { name: 'A', value: '1' },
            { name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
            { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
            { name: 'K', valueFrom: { secretKeyRef: { name: 'sec', key: 'k', optional: false } } },
            { name: 'C', valueFrom: { configMapKeyRef: { name: 'cm', key: 'c' } } },
          ],
          resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: 1, memory: '128Mi', 'example.com/gpu': '1' } },
          resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
          volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: false, subPath: 'x', mountPropagation: 'None' }],
          livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X', value: 'y' }] }, initialDelaySeconds: 1, periodSeconds: 5, timeoutSeconds: 1, failureThreshold: 3, successThreshold: 1, terminationGracePeriodSeconds: 10 },
          readinessProbe: { tcpSocket: { port: 80 } },
          startupProbe: { grpc: { port: 9000, service: 'health' } },
          lifecycle: { postStart: { exec: { command: ['true'] } }, preStop: { sleep: { seconds: 5 } }, stopSignal: 'SIGTERM' },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'FallbackToLogsOnError',
          imagePullPolicy: 'IfNotPresent',
          securityContext: {
            capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
            privileged: false,
            runAsUser: 1000,
            runAsGroup: 1000,
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            seccompProfile: { type: 'RuntimeDefault' },
            appArmorProfile: { type: 'RuntimeDefault' },
            ulimits: [{ name: 'nofile', soft: 1024, hard: 65536 }, { name: 'core', soft: -1, hard: -1 }],
          },
          oomKillMode: 'Group',
          stdin: false,
          tty: false,
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'default',
      automountServiceAccountToken: false,
      securityContext: { runAsNonRoot: true, fsGroup: 2000, supplementalGroups: [3000], sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65535' }], seccompProfile: { type: 'RuntimeDefault' } },
      imagePullSecrets: [{ name: 'pull' }],
      hostname: 'web',
      subdomain: 'svc',
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }] },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n1'] }] } }],
        },
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname', matchLabelKeys: ['pod-template-hash'] } }],
        },
      },
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      hostAliases: [{ ip: '10.0.0.1', hostnames: ['db'] }],
      priorityClassName: 'high',
      priority: 1000,
      dnsConfig: { nameservers: ['1.1.1.1'], searches: ['svc'], options: [{ name: 'ndots', value: '2' }] },
      readinessGates: [{ conditionType: 'example.com/ready' }],
      enableServiceLinks: false,
      preemptionPolicy: 'PreemptLowerPriority',
      overhead: { cpu: '10m' },
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } }, minDomains: 1, nodeTaintsPolicy: 'Honor' }],
      os: { name: 'linux' },
      hostUsers: false,
      schedulingGates: [{ name: 'gate' }],
      resources: { limits: { cpu: '2', memory: '256Mi' } },
    },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-05-01T12:00:01Z' }],
      hostIP: '10.0.0.2',
      hostIPs: [{ ip: '10.0.0.2' }],
      podIP: '10.1.0.5',
      podIPs: [{ ip: '10.1.0.5' }],
      startTime: '2024-05-01T12:00:00Z',
      qosClass: 'Burstable',
      containerStatuses: [
        {
          name: 'app',
          state: { running: { startedAt: '2024-05-01T12:00:02Z' } },
          lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: '2024-05-01T11:00:00Z', finishedAt: '2024-05-01T11:59:00Z', containerID: 'containerd://abc' } },
          ready: true,
          restartCount: 1,
          image: 'nginx:1.25',
          imageID: 'sha256:abc',
          containerID: 'containerd://def',
          started: true,
        },
      ],
    },
  };
}

type Json = Record<string, unknown>;

/** kubectl's view of a v3 document: resolve `$ref` / `allOf[0]`, descend `properties` and `items`. */
export class DocReader {
  constructor(readonly doc: Json) {}

  get schemas(): Record<string, Json> {
    return (this.doc['components'] as Json)['schemas'] as Record<string, Json>;
  }

  /** Follows allOf[0] and $ref like kubectl's strategic-patch and explain code. */
  resolve(s: Json): Json {
    let cur = s;
    for (let i = 0; i < 10; i++) {
      const allOf = cur['allOf'] as Json[] | undefined;
      if (allOf && allOf.length > 0) cur = allOf[0]!;
      const ref = cur['$ref'] as string | undefined;
      if (!ref) return cur;
      const name = ref.replace('#/components/schemas/', '');
      const target = this.schemas[name];
      if (!target) throw new Error(`unresolvable ${ref}`);
      cur = target;
    }
    throw new Error('ref loop');
  }

  /** The schema name whose x-kubernetes-group-version-kind lists this GVK. */
  kind(group: string, version: string, kind: string): string | undefined {
    for (const [name, s] of Object.entries(this.schemas)) {
      const list = s['x-kubernetes-group-version-kind'] as { group: string; version: string; kind: string }[] | undefined;
      if (list?.some((g) => g.group === group && g.version === version && g.kind === kind)) return name;
    }
    return undefined;
  }

  /** The property schema (unresolved, as kubectl reads extensions from it) at a dotted path like spec.containers.oomKillMode. */
  field(rootName: string, dotted: string): Json {
    let cur: Json = this.schemas[rootName]!;
    let prop: Json | undefined;
    for (const part of dotted.split('.')) {
      cur = this.resolve(cur);
      if (cur['type'] === 'array' && cur['items']) cur = this.resolve(cur['items'] as Json);
      const props = cur['properties'] as Record<string, Json> | undefined;
      prop = props?.[part];
      if (!prop) throw new Error(`unable to find api field "${part}" (${dotted})`);
      cur = prop;
    }
    return prop!;
  }
}

/** Every `$ref` string anywhere in a JSON value. */
export function allRefs(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) allRefs(x, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') out.push(x);
      else allRefs(x, out);
    }
  }
  return out;
}
