// The ConfigMaps and Secrets a pod refers to, as the node authorizer's graph records them
// (plugin/pkg/auth/authorizer/node/graph.go AddPod, over pkg/api/v1/pod VisitPodSecretNames and
// VisitPodConfigmapNames): volumes (configMap, secret, projected sources, and the secretRefs of
// the volume plugins that carry one), env valueFrom and envFrom of every container kind, and
// imagePullSecrets. Pure.

import type { Container, Pod } from './types.js';

export interface PodReferences {
  configMaps: Set<string>;
  secrets: Set<string>;
}

interface NameRef {
  name?: string;
}

type Obj = Record<string, unknown>;

const asObj = (v: unknown): Obj | undefined => (v && typeof v === 'object' ? (v as Obj) : undefined);
const nameOf = (v: unknown): string | undefined => {
  const n = (asObj(v) as NameRef | undefined)?.name;
  return typeof n === 'string' && n !== '' ? n : undefined;
};

/** Volume plugins whose source names a Secret in `secretRef` (VisitPodSecretNames; azureFile has a `secretName`, csi a `nodePublishSecretRef`). */
const secretRefPlugins = ['cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos', 'csi'];

function containers(pod: Pod): Container[] {
  return [...(pod.spec.initContainers ?? []), ...pod.spec.containers, ...(pod.spec.ephemeralContainers ?? [])];
}

/** Every ConfigMap and Secret name the pod refers to (in its own namespace). */
export function podReferences(pod: Pod): PodReferences {
  const configMaps = new Set<string>();
  const secrets = new Set<string>();
  const add = (set: Set<string>, n: string | undefined) => {
    if (n) set.add(n);
  };
  for (const s of (pod.spec as { imagePullSecrets?: NameRef[] }).imagePullSecrets ?? []) add(secrets, nameOf(s));
  for (const c of containers(pod)) {
    for (const e of (c as { envFrom?: Obj[] }).envFrom ?? []) {
      add(configMaps, nameOf(e.configMapRef));
      add(secrets, nameOf(e.secretRef));
    }
    for (const e of c.env ?? []) {
      const from = asObj(e.valueFrom);
      add(configMaps, nameOf(from?.configMapKeyRef));
      add(secrets, nameOf(from?.secretKeyRef));
    }
  }
  for (const v of pod.spec.volumes ?? []) {
    add(configMaps, nameOf(v.configMap));
    add(secrets, (asObj(v.secret)?.secretName as string | undefined) || undefined);
    add(secrets, (asObj(v.azureFile)?.secretName as string | undefined) || undefined);
    for (const p of (asObj(v.projected)?.sources as Obj[] | undefined) ?? []) {
      add(configMaps, nameOf(p.configMap));
      add(secrets, nameOf(p.secret));
    }
    for (const plugin of secretRefPlugins) {
      const src = asObj(v[plugin]);
      add(secrets, nameOf(src?.secretRef) ?? nameOf(src?.nodePublishSecretRef));
    }
  }
  return { configMaps, secrets };
}

/** Whether a pod bound to a node gives that node a path to the named ConfigMap or Secret. */
export function podsReference(pods: Iterable<Pod>, kind: 'configmaps' | 'secrets', namespace: string, name: string): boolean {
  for (const pod of pods) {
    if ((pod.metadata.namespace ?? 'default') !== namespace) continue;
    const refs = podReferences(pod);
    if ((kind === 'configmaps' ? refs.configMaps : refs.secrets).has(name)) return true;
  }
  return false;
}
