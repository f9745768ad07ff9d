// The Kubernetes protobuf envelope for the request bodies typed kubectl generators send
// (`kubectl create namespace X`, `kubectl create quota …` send `application/vnd.kubernetes.protobuf`
// and do not retry as JSON after a 415). Decodes the `k8s\0` + runtime.Unknown envelope and the
// messages of Namespace, ResourceQuota, PriorityClass, ConfigMap, Secret, ServiceAccount, Job,
// CronJob (`kubectl create job|cronjob`: the pod template fields those generators set), the apps/v1
// workloads, core/v1 Service (`kubectl create service`), policy/v1 PodDisruptionBudget (`kubectl create pdb`), the rbac/v1 kinds (`kubectl create role|clusterrole|rolebinding|clusterrolebinding`), autoscaling/v1 Scale (`kubectl create deployment`) and HorizontalPodAutoscaler (`kubectl autoscale`) and the access reviews
// (`kubectl auth`), TokenRequest (`kubectl create token`) and CertificateSigningRequests (`kubectl certificate approve|deny`) into the same JSON objects a JSON body gives; every other kind still answers 415.

import { statusErrors } from './status.js';
import { metaTime } from '../api/metatime.js';

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type Field = { no: number; wire: number; value: bigint | Buffer };

class ProtoError extends Error {}

function readVarint(b: Buffer, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    if (pos >= b.length) throw new ProtoError('truncated varint');
    const byte = b[pos++]!;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [result, pos];
    shift += 7n;
    if (shift > 63n) throw new ProtoError('varint too long');
  }
}

function fields(b: Buffer): Field[] {
  const out: Field[] = [];
  let pos = 0;
  while (pos < b.length) {
    const [key, p1] = readVarint(b, pos);
    pos = p1;
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [v, p2] = readVarint(b, pos);
      out.push({ no, wire, value: v });
      pos = p2;
    } else if (wire === 2) {
      const [len, p2] = readVarint(b, pos);
      const end = p2 + Number(len);
      if (end > b.length) throw new ProtoError('truncated field');
      out.push({ no, wire, value: b.subarray(p2, end) });
      pos = end;
    } else if (wire === 1) {
      out.push({ no, wire, value: b.subarray(pos, pos + 8) });
      pos += 8;
    } else if (wire === 5) {
      out.push({ no, wire, value: b.subarray(pos, pos + 4) });
      pos += 4;
    } else throw new ProtoError(`unsupported wire type ${wire}`);
  }
  return out;
}

const str = (f: Field) => (f.value as Buffer).toString('utf8');
const bytes = (f: Field) => f.value as Buffer;

/** A proto map (repeated key=1/value=2 entries), each value read by `value`. */
function mapOf(entries: Field[], value: (f: Field) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of entries) {
    let k = '';
    let v = '';
    for (const f of fields(bytes(e))) {
      if (f.no === 1) k = str(f);
      else if (f.no === 2) v = value(f);
    }
    out[k] = v;
  }
  return out;
}

const stringMap = (entries: Field[]) => mapOf(entries, str);

/** OwnerReference (`kubectl create job --from=cronjob/x` sets one): kind 1, name 3, uid 4, apiVersion 5, controller 6, blockOwnerDeletion 7. */
function ownerReference(b: Buffer): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const f of fields(b)) {
    if (f.no === 1) o.kind = str(f);
    else if (f.no === 3) o.name = str(f);
    else if (f.no === 4) o.uid = str(f);
    else if (f.no === 5) o.apiVersion = str(f);
    else if (f.no === 6) o.controller = f.value !== 0n;
    else if (f.no === 7) o.blockOwnerDeletion = f.value !== 0n;
  }
  return o;
}

/** The ObjectMeta fields a create request carries. */
function objectMeta(b: Buffer): Record<string, unknown> {
  const m: Record<string, unknown> = {};
  const labels: Field[] = [];
  const annotations: Field[] = [];
  const finalizers: string[] = [];
  const owners: Record<string, unknown>[] = [];
  for (const f of fields(b)) {
    // Empty strings are Go's zero values, which JSON's omitempty leaves out.
    if (f.no === 1 && bytes(f).length) m.name = str(f);
    else if (f.no === 2 && bytes(f).length) m.generateName = str(f);
    else if (f.no === 3 && bytes(f).length) m.namespace = str(f);
    else if (f.no === 11) labels.push(f);
    else if (f.no === 12) annotations.push(f);
    else if (f.no === 13) owners.push(ownerReference(bytes(f)));
    else if (f.no === 14) finalizers.push(str(f));
  }
  if (labels.length) m.labels = stringMap(labels);
  if (annotations.length) m.annotations = stringMap(annotations);
  if (owners.length) m.ownerReferences = owners;
  if (finalizers.length) m.finalizers = finalizers;
  return m;
}

/** map<string, Quantity> where Quantity is `{ string string = 1 }`. */
const quantityMap = (entries: Field[]) => mapOf(entries, (f) => fields(bytes(f)).filter((q) => q.no === 1).map(str).pop() ?? '');

function namespace(raw: Buffer): Record<string, unknown> {
  const obj: Record<string, unknown> = { apiVersion: 'v1', kind: 'Namespace' };
  for (const f of fields(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(bytes(f));
    else if (f.no === 2) {
      const finalizers = fields(bytes(f)).filter((x) => x.no === 1).map(str);
      obj.spec = finalizers.length ? { finalizers } : {};
    }
  }
  return obj;
}

function scopeSelector(b: Buffer): Record<string, unknown> {
  const exprs = fields(b)
    .filter((f) => f.no === 1)
    .map((e) => {
      const r: Record<string, unknown> = {};
      const values: string[] = [];
      for (const f of fields(bytes(e))) {
        if (f.no === 1) r.scopeName = str(f);
        else if (f.no === 2) r.operator = str(f);
        else if (f.no === 3) values.push(str(f));
      }
      if (values.length) r.values = values;
      return r;
    });
  return { matchExpressions: exprs };
}

function resourceQuota(raw: Buffer): Record<string, unknown> {
  const obj: Record<string, unknown> = { apiVersion: 'v1', kind: 'ResourceQuota' };
  for (const f of fields(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(bytes(f));
    else if (f.no === 2) {
      const spec: Record<string, unknown> = {};
      const hard: Field[] = [];
      const scopes: string[] = [];
      for (const s of fields(bytes(f))) {
        if (s.no === 1) hard.push(s);
        else if (s.no === 2) scopes.push(str(s));
        else if (s.no === 3) spec.scopeSelector = scopeSelector(bytes(s));
      }
      if (hard.length) spec.hard = quantityMap(hard);
      if (scopes.length) spec.scopes = scopes;
      obj.spec = spec;
    }
  }
  return obj;
}

/** scheduling/v1 PriorityClass (`kubectl create priorityclass`): value is an int32 varint, globalDefault a bool. */
function priorityClass(raw: Buffer): Record<string, unknown> {
  const obj: Record<string, unknown> = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass' };
  for (const f of fields(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(bytes(f));
    else if (f.no === 2 && f.wire === 0) obj.value = Number(BigInt.asIntN(32, f.value as bigint));
    else if (f.no === 3 && f.wire === 0) obj.globalDefault = (f.value as bigint) !== 0n;
    else if (f.no === 4 && f.wire === 2) obj.description = str(f);
    else if (f.no === 5 && f.wire === 2) obj.preemptionPolicy = str(f);
  }
  return obj;
}

/** A message of string fields only, by field number. */
function stringFields(b: Buffer, names: Record<number, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields(b)) if (names[f.no] && f.wire === 2) out[names[f.no]!] = str(f);
  return out;
}

/** The access reviews kubectl auth sends (authorization/v1 and authentication/v1 generated.proto). */
function review(apiVersion: string, kind: string, spec?: (b: Buffer) => Record<string, unknown>) {
  return (raw: Buffer): Record<string, unknown> => {
    const obj: Record<string, unknown> = { apiVersion, kind };
    for (const f of fields(raw)) {
      if (f.no === 1) obj.metadata = objectMeta(bytes(f));
      else if (f.no === 2 && spec) obj.spec = spec(bytes(f));
    }
    return obj;
  };
}

function accessReviewSpec(b: Buffer): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  for (const f of fields(b)) {
    if (f.no === 1) {
      const attrs = stringFields(bytes(f), { 1: 'namespace', 2: 'verb', 3: 'group', 4: 'version', 5: 'resource', 6: 'subresource', 7: 'name' });
      const fs = fields(bytes(f)).find((x) => x.no === 8);
      if (fs) attrs.fieldSelector = stringFields(bytes(fs), { 1: 'rawSelector' });
      spec.resourceAttributes = attrs;
    } else if (f.no === 2) spec.nonResourceAttributes = stringFields(bytes(f), { 1: 'path', 2: 'verb' });
  }
  return spec;
}

/** SubjectAccessReviewSpec: the attributes (1, 2) as a SelfSubjectAccessReview's, user 3, groups 4, extra 5, uid 6. */
function subjectAccessReviewSpec(b: Buffer): Record<string, unknown> {
  const spec = accessReviewSpec(b);
  const groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const f of fields(b)) {
    if (f.no === 3) spec.user = str(f);
    else if (f.no === 4) groups.push(str(f));
    else if (f.no === 5) {
      // map<string, ExtraValue>: key 1, value 2 (ExtraValue: items 1).
      let key = '';
      const values: string[] = [];
      for (const e of fields(bytes(f))) {
        if (e.no === 1) key = str(e);
        else if (e.no === 2) for (const v of fields(bytes(e))) if (v.no === 1) values.push(str(v));
      }
      extra[key] = values;
    } else if (f.no === 6) spec.uid = str(f);
  }
  if (groups.length) spec.groups = groups;
  if (Object.keys(extra).length) spec.extra = extra;
  return spec;
}

const b64 = (f: Field) => bytes(f).toString('base64');
const bool = (f: Field) => f.value !== 0n;

/** ConfigMap (core/v1 generated.proto): metadata 1, data 2, binaryData 3, immutable 4. */
function configMap(raw: Buffer): Record<string, unknown> {
  const obj: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap' };
  const data: Field[] = [];
  const binary: Field[] = [];
  for (const f of fields(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(bytes(f));
    else if (f.no === 2) data.push(f);
    else if (f.no === 3) binary.push(f);
    else if (f.no === 4) obj.immutable = bool(f);
  }
  if (data.length) obj.data = stringMap(data);
  if (binary.length) obj.binaryData = mapOf(binary, b64);
  return obj;
}

/** Secret: metadata 1, data 2 (bytes, base64 in JSON), type 3, stringData 4, immutable 5. */
function secret(raw: Buffer): Record<string, unknown> {
  const obj: Record<string, unknown> = { apiVersion: 'v1', kind: 'Secret' };
  const data: Field[] = [];
  const stringData: Field[] = [];
  for (const f of fields(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(bytes(f));
    else if (f.no === 2) data.push(f);
    else if (f.no === 3) obj.type = str(f);
    else if (f.no === 4) stringData.push(f);
    else if (f.no === 5) obj.immutable = bool(f);
  }
  if (data.length) obj.data = mapOf(data, b64);
  if (stringData.length) obj.stringData = stringMap(stringData);
  return obj;
}

/** ServiceAccount: metadata 1, secrets 2 (ObjectReference), imagePullSecrets 3, automountServiceAccountToken 4. */
function serviceAccount(raw: Buffer): Record<string, unknown> {
  const obj: Record<string, unknown> = { apiVersion: 'v1', kind: 'ServiceAccount' };
  const secrets: Record<string, unknown>[] = [];
  const pull: Record<string, unknown>[] = [];
  for (const f of fields(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(bytes(f));
    else if (f.no === 2) secrets.push(stringFields(bytes(f), { 1: 'kind', 2: 'namespace', 3: 'name', 4: 'uid', 5: 'apiVersion', 6: 'resourceVersion', 7: 'fieldPath' }));
    else if (f.no === 3) pull.push(stringFields(bytes(f), { 1: 'name' }));
    else if (f.no === 4) obj.automountServiceAccountToken = bool(f);
  }
  if (secrets.length) obj.secrets = secrets;
  if (pull.length) obj.imagePullSecrets = pull;
  return obj;
}

/**
 * A message decoded by a table of field number → JSON name and shape (batch/v1 and core/v1
 * generated.proto). Go's zero values (empty strings, false) are what omitempty leaves out, so
 * they are dropped; a non-empty field the table does not know is refused rather than lost.
 */
// 'int' is a pointer or always-serialized integer (0 kept); 'oint' an omitempty one (0 dropped);
// 'intstr' an intstr.IntOrString message (type 1: 0 int, 1 string; intVal 2; strVal 3).
type Shape = 'str' | 'strs' | 'int' | 'oint' | 'intstr' | 'bool' | 'optbool' | 'map' | 'quantities' | Msg | { list: Msg };
type Msg = { name: string; fields: Record<number, [string, Shape]> };

function message(b: Buffer, m: Msg): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const maps = new Map<string, Field[]>();
  for (const f of fields(b)) {
    const known = m.fields[f.no];
    const empty = f.wire === 2 ? bytes(f).length === 0 : f.value === 0n;
    if (!known) {
      if (empty) continue;
      throw new ProtoError(`field ${f.no} of ${m.name} is not supported`);
    }
    const [json, shape] = known;
    if (shape === 'str') {
      if (!empty) out[json] = str(f);
    } else if (shape === 'strs') ((out[json] ??= []) as string[]).push(str(f));
    else if (shape === 'int') out[json] = Number(BigInt.asIntN(64, f.value as bigint));
    else if (shape === 'oint') {
      if (!empty) out[json] = Number(BigInt.asIntN(64, f.value as bigint));
    } else if (shape === 'intstr') out[json] = intOrString(bytes(f));
    else if (shape === 'bool') {
      if (!empty) out[json] = true;
    } else if (shape === 'optbool') out[json] = f.value !== 0n;
    else if (shape === 'map' || shape === 'quantities') maps.set(json, [...(maps.get(json) ?? []), f]);
    else if ('list' in shape) ((out[json] ??= []) as unknown[]).push(message(bytes(f), shape.list));
    else if (json === 'metadata') out[json] = objectMeta(bytes(f));
    else out[json] = message(bytes(f), shape);
  }
  for (const [json, entries] of maps) out[json] = m.fields[Number(Object.keys(m.fields).find((k) => m.fields[Number(k)]![0] === json))]![1] === 'map' ? stringMap(entries) : quantityMap(entries);
  return out;
}

/** intstr.IntOrString: a number or a string, by its type. */
function intOrString(b: Buffer): number | string {
  let type = 0n;
  let intVal = 0;
  let strVal = '';
  for (const f of fields(b)) {
    if (f.no === 1) type = f.value as bigint;
    else if (f.no === 2) intVal = Number(BigInt.asIntN(32, f.value as bigint));
    else if (f.no === 3) strVal = str(f);
  }
  return type === 1n ? strVal : intVal;
}

const metaShape: Msg = { name: 'ObjectMeta', fields: {} };
const resourcesShape: Msg = { name: 'ResourceRequirements', fields: { 1: ['limits', 'quantities'], 2: ['requests', 'quantities'] } };
const envShape: Msg = { name: 'EnvVar', fields: { 1: ['name', 'str'], 2: ['value', 'str'] } };
const portShape: Msg = { name: 'ContainerPort', fields: { 1: ['name', 'str'], 2: ['hostPort', 'oint'], 3: ['containerPort', 'int'], 4: ['protocol', 'str'], 5: ['hostIP', 'str'] } };
const containerShape: Msg = {
  name: 'Container',
  fields: {
    1: ['name', 'str'], 2: ['image', 'str'], 3: ['command', 'strs'], 4: ['args', 'strs'], 5: ['workingDir', 'str'], 6: ['ports', { list: portShape }], 7: ['env', { list: envShape }],
    8: ['resources', resourcesShape], 13: ['terminationMessagePath', 'str'], 14: ['imagePullPolicy', 'str'], 16: ['stdin', 'bool'], 17: ['stdinOnce', 'bool'],
    18: ['tty', 'bool'], 20: ['terminationMessagePolicy', 'str'],
  },
};
const podSpecShape: Msg = {
  name: 'PodSpec',
  fields: {
    2: ['containers', { list: containerShape }], 3: ['restartPolicy', 'str'], 4: ['terminationGracePeriodSeconds', 'int'], 5: ['activeDeadlineSeconds', 'int'],
    6: ['dnsPolicy', 'str'], 7: ['nodeSelector', 'map'], 8: ['serviceAccountName', 'str'], 9: ['serviceAccount', 'str'], 10: ['nodeName', 'str'],
    11: ['hostNetwork', 'bool'], 12: ['hostPID', 'bool'], 13: ['hostIPC', 'bool'], 16: ['hostname', 'str'], 17: ['subdomain', 'str'],
    19: ['schedulerName', 'str'], 20: ['initContainers', { list: containerShape }], 24: ['priorityClassName', 'str'],
  },
};
const templateShape: Msg = { name: 'PodTemplateSpec', fields: { 1: ['metadata', metaShape], 2: ['spec', podSpecShape] } };
const requirementShape: Msg = { name: 'LabelSelectorRequirement', fields: { 1: ['key', 'str'], 2: ['operator', 'str'], 3: ['values', 'strs'] } };
const selectorShape: Msg = { name: 'LabelSelector', fields: { 1: ['matchLabels', 'map'], 2: ['matchExpressions', { list: requirementShape }] } };
const jobSpecShape: Msg = {
  name: 'JobSpec',
  fields: {
    1: ['parallelism', 'int'], 2: ['completions', 'int'], 3: ['activeDeadlineSeconds', 'int'], 4: ['selector', selectorShape], 5: ['manualSelector', 'optbool'],
    6: ['template', templateShape], 7: ['backoffLimit', 'int'], 8: ['ttlSecondsAfterFinished', 'int'], 9: ['completionMode', 'str'], 10: ['suspend', 'optbool'],
    12: ['backoffLimitPerIndex', 'int'], 13: ['maxFailedIndexes', 'int'], 14: ['podReplacementPolicy', 'str'], 15: ['managedBy', 'str'],
  },
};
// A create's status is empty; its zero-valued counters are all it carries.
const jobStatusShape: Msg = { name: 'JobStatus', fields: { 4: ['active', 'int'], 5: ['succeeded', 'int'], 6: ['failed', 'int'] } };
const jobTemplateShape: Msg = { name: 'JobTemplateSpec', fields: { 1: ['metadata', metaShape], 2: ['spec', jobSpecShape] } };
const cronJobSpecShape: Msg = {
  name: 'CronJobSpec',
  fields: {
    1: ['schedule', 'str'], 2: ['startingDeadlineSeconds', 'int'], 3: ['concurrencyPolicy', 'str'], 4: ['suspend', 'optbool'], 5: ['jobTemplate', jobTemplateShape],
    6: ['successfulJobsHistoryLimit', 'int'], 7: ['failedJobsHistoryLimit', 'int'], 8: ['timeZone', 'str'],
  },
};

function batchObject(kind: 'Job' | 'CronJob', spec: Msg) {
  return (raw: Buffer): Record<string, unknown> => {
    const obj: Record<string, unknown> = { apiVersion: 'batch/v1', kind };
    for (const f of fields(raw)) {
      if (f.no === 1) obj.metadata = objectMeta(bytes(f));
      else if (f.no === 2) obj.spec = message(bytes(f), spec);
      else if (f.no === 3 && kind === 'Job') message(bytes(f), jobStatusShape);
    }
    return obj;
  };
}

// apps/v1 generated.proto: what `kubectl create deployment` (and typed clients) send. A
// StatefulSet's volumeClaimTemplates are not decoded (refused as an unsupported field).
const rollingUpdateShape: Msg = { name: 'RollingUpdateDeployment', fields: { 1: ['maxUnavailable', 'intstr'], 2: ['maxSurge', 'intstr'] } };
const deploymentSpecShape: Msg = {
  name: 'DeploymentSpec',
  fields: {
    1: ['replicas', 'int'], 2: ['selector', selectorShape], 3: ['template', templateShape], 4: ['strategy', { name: 'DeploymentStrategy', fields: { 1: ['type', 'str'], 2: ['rollingUpdate', rollingUpdateShape] } }],
    5: ['minReadySeconds', 'oint'], 6: ['revisionHistoryLimit', 'int'], 7: ['paused', 'bool'], 9: ['progressDeadlineSeconds', 'int'],
  },
};
const replicaSetSpecShape: Msg = { name: 'ReplicaSetSpec', fields: { 1: ['replicas', 'int'], 2: ['selector', selectorShape], 3: ['template', templateShape], 4: ['minReadySeconds', 'oint'] } };
const statefulSetSpecShape: Msg = {
  name: 'StatefulSetSpec',
  fields: {
    1: ['replicas', 'int'], 2: ['selector', selectorShape], 3: ['template', templateShape], 5: ['serviceName', 'str'], 6: ['podManagementPolicy', 'str'],
    7: ['updateStrategy', { name: 'StatefulSetUpdateStrategy', fields: { 1: ['type', 'str'], 2: ['rollingUpdate', { name: 'RollingUpdateStatefulSetStrategy', fields: { 1: ['partition', 'int'], 2: ['maxUnavailable', 'intstr'] } }] } }],
    8: ['revisionHistoryLimit', 'int'], 9: ['minReadySeconds', 'oint'],
    10: ['persistentVolumeClaimRetentionPolicy', { name: 'StatefulSetPersistentVolumeClaimRetentionPolicy', fields: { 1: ['whenDeleted', 'str'], 2: ['whenScaled', 'str'] } }],
    11: ['ordinals', { name: 'StatefulSetOrdinals', fields: { 1: ['start', 'int'] } }],
  },
};
const daemonSetSpecShape: Msg = {
  name: 'DaemonSetSpec',
  fields: {
    1: ['selector', selectorShape], 2: ['template', templateShape],
    3: ['updateStrategy', { name: 'DaemonSetUpdateStrategy', fields: { 1: ['type', 'str'], 2: ['rollingUpdate', { name: 'RollingUpdateDaemonSet', fields: { 1: ['maxUnavailable', 'intstr'], 2: ['maxSurge', 'intstr'] } }] } }],
    4: ['minReadySeconds', 'oint'], 6: ['revisionHistoryLimit', 'int'],
  },
};

// core/v1 Service (`kubectl create service clusterip|nodeport|loadbalancer|externalname`).
const servicePortShape: Msg = { name: 'ServicePort', fields: { 1: ['name', 'str'], 2: ['protocol', 'str'], 3: ['port', 'int'], 4: ['targetPort', 'intstr'], 5: ['nodePort', 'oint'], 6: ['appProtocol', 'str'] } };
const serviceSpecShape: Msg = {
  name: 'ServiceSpec',
  fields: {
    1: ['ports', { list: servicePortShape }], 2: ['selector', 'map'], 3: ['clusterIP', 'str'], 4: ['type', 'str'], 5: ['externalIPs', 'strs'], 7: ['sessionAffinity', 'str'],
    8: ['loadBalancerIP', 'str'], 9: ['loadBalancerSourceRanges', 'strs'], 10: ['externalName', 'str'], 11: ['externalTrafficPolicy', 'str'], 12: ['healthCheckNodePort', 'oint'],
    13: ['publishNotReadyAddresses', 'bool'], 14: ['sessionAffinityConfig', { name: 'SessionAffinityConfig', fields: { 1: ['clientIP', { name: 'ClientIPConfig', fields: { 1: ['timeoutSeconds', 'int'] } }] } }],
    17: ['ipFamilyPolicy', 'str'], 18: ['clusterIPs', 'strs'], 19: ['ipFamilies', 'strs'], 20: ['allocateLoadBalancerNodePorts', 'optbool'], 21: ['loadBalancerClass', 'str'],
    22: ['internalTrafficPolicy', 'str'], 23: ['trafficDistribution', 'str'],
  },
};

/** An apps/v1 kind (or autoscaling/v1 Scale): metadata 1, spec 2; a create's status (3) is reset by the strategy, so it is read past. */
function specObject(apiVersion: string, kind: string, spec: Msg) {
  return (raw: Buffer): Record<string, unknown> => {
    const obj: Record<string, unknown> = { apiVersion, kind };
    for (const f of fields(raw)) {
      if (f.no === 1) obj.metadata = objectMeta(bytes(f));
      else if (f.no === 2) obj.spec = message(bytes(f), spec);
    }
    return obj;
  };
}

/** meta/v1 Time: seconds (1) since the epoch, as its JSON form (RFC 3339, whole seconds). */
function time(b: Buffer): string {
  const seconds = fields(b).find((f) => f.no === 1)?.value as bigint | undefined;
  return metaTime(Number(seconds ?? 0n) * 1000);
}

/**
 * certificates.k8s.io/v1 CertificateSigningRequest: what `kubectl certificate approve|deny` PUTs
 * to /approval (the object it read, with a condition added). Spec: request 1 (bytes), username
 * 2, uid 3, groups 4, usages 5, signerName 7, expirationSeconds 8; status: conditions 1,
 * certificate 2 (bytes); a condition: type 1, reason 2, message 3, lastUpdateTime 4,
 * lastTransitionTime 5, status 6.
 */
function certificateSigningRequest(raw: Buffer): Record<string, unknown> {
  const obj: Record<string, unknown> = { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest' };
  const spec = (b: Buffer) => {
    const out: Record<string, unknown> = {};
    for (const f of fields(b)) {
      if (f.no === 1) out.request = b64(f);
      else if (f.no === 2 || f.no === 3) {
        if (bytes(f).length) out[f.no === 2 ? 'username' : 'uid'] = str(f);
      }
      else if (f.no === 4) ((out.groups ??= []) as string[]).push(str(f));
      else if (f.no === 5) ((out.usages ??= []) as string[]).push(str(f));
      else if (f.no === 7) out.signerName = str(f);
      else if (f.no === 8) out.expirationSeconds = Number(BigInt.asIntN(32, f.value as bigint));
      else if (f.wire === 2 && bytes(f).length === 0) continue;
      else throw new ProtoError(`field ${f.no} of CertificateSigningRequestSpec is not supported`);
    }
    return out;
  };
  const condition = (b: Buffer) => {
    const names: Record<number, string> = { 1: 'type', 2: 'reason', 3: 'message', 6: 'status' };
    const out: Record<string, unknown> = {};
    for (const f of fields(b)) {
      if (names[f.no]) {
        if (bytes(f).length) out[names[f.no]!] = str(f);
      } else if (f.no === 4) out.lastUpdateTime = time(bytes(f));
      else if (f.no === 5) out.lastTransitionTime = time(bytes(f));
    }
    return out;
  };
  const status = (b: Buffer) => {
    const out: Record<string, unknown> = {};
    for (const f of fields(b)) {
      if (f.no === 1) ((out.conditions ??= []) as unknown[]).push(condition(bytes(f)));
      else if (f.no === 2 && bytes(f).length) out.certificate = b64(f);
    }
    return out;
  };
  for (const f of fields(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(bytes(f));
    else if (f.no === 2) obj.spec = spec(bytes(f));
    else if (f.no === 3) obj.status = status(bytes(f));
  }
  return obj;
}

// rbac/v1 generated.proto (`kubectl create role|clusterrole|rolebinding|clusterrolebinding`).
const policyRuleShape: Msg = { name: 'PolicyRule', fields: { 1: ['verbs', 'strs'], 2: ['apiGroups', 'strs'], 3: ['resources', 'strs'], 4: ['resourceNames', 'strs'], 5: ['nonResourceURLs', 'strs'] } };
const subjectShape: Msg = { name: 'Subject', fields: { 1: ['kind', 'str'], 2: ['apiGroup', 'str'], 3: ['name', 'str'], 4: ['namespace', 'str'] } };
const roleRefShape: Msg = { name: 'RoleRef', fields: { 1: ['apiGroup', 'str'], 2: ['kind', 'str'], 3: ['name', 'str'] } };
const rbacKinds: Record<string, Msg> = {
  Role: { name: 'Role', fields: { 1: ['metadata', metaShape], 2: ['rules', { list: policyRuleShape }] } },
  ClusterRole: { name: 'ClusterRole', fields: { 1: ['metadata', metaShape], 2: ['rules', { list: policyRuleShape }], 3: ['aggregationRule', { name: 'AggregationRule', fields: { 1: ['clusterRoleSelectors', { list: selectorShape }] } }] } },
  RoleBinding: { name: 'RoleBinding', fields: { 1: ['metadata', metaShape], 2: ['subjects', { list: subjectShape }], 3: ['roleRef', roleRefShape] } },
  ClusterRoleBinding: { name: 'ClusterRoleBinding', fields: { 1: ['metadata', metaShape], 2: ['subjects', { list: subjectShape }], 3: ['roleRef', roleRefShape] } },
};
const rbacObject = (kind: string) => (raw: Buffer): Record<string, unknown> => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind, ...message(raw, rbacKinds[kind]!) });

const decoders: Record<string, (raw: Buffer) => Record<string, unknown>> = {
  'certificates.k8s.io/v1/CertificateSigningRequest': certificateSigningRequest,
  'v1/Namespace': namespace,
  'v1/ResourceQuota': resourceQuota,
  'scheduling.k8s.io/v1/PriorityClass': priorityClass,
  'v1/ConfigMap': configMap,
  'v1/Secret': secret,
  'v1/ServiceAccount': serviceAccount,
  'batch/v1/Job': batchObject('Job', jobSpecShape),
  'batch/v1/CronJob': batchObject('CronJob', cronJobSpecShape),
  'apps/v1/Deployment': specObject('apps/v1', 'Deployment', deploymentSpecShape),
  'apps/v1/ReplicaSet': specObject('apps/v1', 'ReplicaSet', replicaSetSpecShape),
  'apps/v1/StatefulSet': specObject('apps/v1', 'StatefulSet', statefulSetSpecShape),
  'apps/v1/DaemonSet': specObject('apps/v1', 'DaemonSet', daemonSetSpecShape),
  'v1/Service': specObject('v1', 'Service', serviceSpecShape),
  'policy/v1/PodDisruptionBudget': specObject('policy/v1', 'PodDisruptionBudget', {
    name: 'PodDisruptionBudgetSpec',
    fields: { 1: ['minAvailable', 'intstr'], 2: ['selector', selectorShape], 3: ['maxUnavailable', 'intstr'], 4: ['unhealthyPodEvictionPolicy', 'str'] },
  }),
  // `kubectl autoscale` (1.32 sends autoscaling/v1): scaleTargetRef 1 (kind 1, name 2, apiVersion 3), minReplicas 2, maxReplicas 3, targetCPUUtilizationPercentage 4.
  'autoscaling/v1/HorizontalPodAutoscaler': specObject('autoscaling/v1', 'HorizontalPodAutoscaler', {
    name: 'HorizontalPodAutoscalerSpec',
    fields: { 1: ['scaleTargetRef', { name: 'CrossVersionObjectReference', fields: { 1: ['kind', 'str'], 2: ['name', 'str'], 3: ['apiVersion', 'str'] } }], 2: ['minReplicas', 'int'], 3: ['maxReplicas', 'int'], 4: ['targetCPUUtilizationPercentage', 'int'] },
  }),
  ...Object.fromEntries(Object.keys(rbacKinds).map((k) => [`rbac.authorization.k8s.io/v1/${k}`, rbacObject(k)])),
  'autoscaling/v1/Scale': specObject('autoscaling/v1', 'Scale', { name: 'ScaleSpec', fields: { 1: ['replicas', 'oint'] } }),
  'authorization.k8s.io/v1/SelfSubjectAccessReview': review('authorization.k8s.io/v1', 'SelfSubjectAccessReview', accessReviewSpec),
  'authorization.k8s.io/v1/SubjectAccessReview': review('authorization.k8s.io/v1', 'SubjectAccessReview', subjectAccessReviewSpec),
  'authorization.k8s.io/v1/LocalSubjectAccessReview': review('authorization.k8s.io/v1', 'LocalSubjectAccessReview', subjectAccessReviewSpec),
  'authorization.k8s.io/v1/SelfSubjectRulesReview': review('authorization.k8s.io/v1', 'SelfSubjectRulesReview', (b) => stringFields(b, { 1: 'namespace' })),
  'authentication.k8s.io/v1/SelfSubjectReview': review('authentication.k8s.io/v1', 'SelfSubjectReview'),
  // `kubectl create token`: audiences 1, boundObjectRef 3 (kind 1, apiVersion 2, name 3, uid 4), expirationSeconds 4.
  'authentication.k8s.io/v1/TokenRequest': specObject('authentication.k8s.io/v1', 'TokenRequest', {
    name: 'TokenRequestSpec',
    fields: {
      1: ['audiences', 'strs'],
      3: ['boundObjectRef', { name: 'BoundObjectReference', fields: { 1: ['kind', 'str'], 2: ['apiVersion', 'str'], 3: ['name', 'str'], 4: ['uid', 'str'] } }],
      4: ['expirationSeconds', 'int'],
    },
  }),
};

/** The JSON form of a protobuf request body, or a 415 for kinds Bulkhead does not decode. */
export function decodeProtobufBody(body: Buffer, contentType: string): Record<string, unknown> {
  if (body.length < 4 || !body.subarray(0, 4).equals(magic)) throw statusErrors.badRequest('protobuf body does not start with the "k8s\\0" envelope');
  try {
    let apiVersion = '';
    let kind = '';
    let raw: Buffer = Buffer.alloc(0);
    for (const f of fields(body.subarray(4))) {
      if (f.no === 1) {
        for (const t of fields(bytes(f))) {
          if (t.no === 1) apiVersion = str(t);
          else if (t.no === 2) kind = str(t);
        }
      } else if (f.no === 2) raw = bytes(f);
    }
    const decode = decoders[`${apiVersion}/${kind}`];
    if (!decode) throw statusErrors.unsupportedMediaType(contentType);
    return decode(raw);
  } catch (e) {
    if (e instanceof ProtoError) throw statusErrors.badRequest(`cannot decode protobuf body: ${e.message}`);
    throw e;
  }
}
