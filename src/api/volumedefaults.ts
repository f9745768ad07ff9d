// The defaults the API server gives a pod's volume sources and field selectors
// (pkg/apis/core/v1/defaults.go @ v1.32: SetDefaults_Volume, SetDefaults_SecretVolumeSource,
// _ConfigMapVolumeSource, _DownwardAPIVolumeSource, _ProjectedVolumeSource,
// _ServiceAccountTokenProjection, _HostPathVolumeSource, _ISCSIVolumeSource, _RBDVolumeSource,
// _AzureDiskVolumeSource, _ScaleIOVolumeSource, _PersistentVolumeClaimSpec (an ephemeral volume's
// claim template) and _ObjectFieldSelector). Every pod and every workload template gets them:
// upstream's TestPodDefaults and TestWorkloadDefaults list each one.

import type { Container, PodSpec, Volume } from './types.js';

/** Secret, ConfigMap, DownwardAPI and Projected volumes' DefaultMode (0644). */
export const VolumeSourceDefaultMode = 0o644;
/** ServiceAccountTokenProjection's ExpirationSeconds: one hour. */
const TokenExpirationSeconds = 60 * 60;

const volumeSourceKeys = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi',
  'glusterfs', 'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc',
  'azureFile', 'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected',
  'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral', 'image',
];

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** A Go pointer field: only a missing value (nil) is defaulted; 0, false and "" are values. */
function pointerDefault(o: Obj, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null) o[key] = value;
}

/** A Go string field: "" is the zero value and is defaulted too. */
function stringDefault(o: Obj, key: string, value: string): void {
  if (o[key] === undefined || o[key] === null || o[key] === '') o[key] = value;
}

/** SetDefaults_ObjectFieldSelector: a field reference without an apiVersion means v1. */
function defaultFieldRef(v: unknown): void {
  const ref = obj(v);
  if (ref) stringDefault(ref, 'apiVersion', 'v1');
}

function defaultDownwardItems(items: unknown): void {
  if (!Array.isArray(items)) return;
  for (const it of items) defaultFieldRef(obj(it)?.fieldRef);
}

/** The field references of a container's env (env[].valueFrom.fieldRef). */
export function defaultContainerFieldRefs(c: Container): void {
  if (!Array.isArray(c.env)) return;
  for (const e of c.env) defaultFieldRef(obj(obj(e)?.valueFrom)?.fieldRef);
}

function defaultProjected(p: Obj): void {
  pointerDefault(p, 'defaultMode', VolumeSourceDefaultMode);
  if (!Array.isArray(p.sources)) return;
  for (const s of p.sources) {
    const src = obj(s);
    if (!src) continue;
    defaultDownwardItems(obj(src.downwardAPI)?.items);
    const token = obj(src.serviceAccountToken);
    if (token) pointerDefault(token, 'expirationSeconds', TokenExpirationSeconds);
  }
}

/** SetDefaults_Volume (no source at all is an emptyDir) and the defaults of the source it has. */
export function defaultVolume(v: Volume): void {
  if (!volumeSourceKeys.some((k) => v[k] !== undefined && v[k] !== null)) v.emptyDir = {};
  const secret = obj(v.secret);
  if (secret) pointerDefault(secret, 'defaultMode', VolumeSourceDefaultMode);
  const configMap = obj(v.configMap);
  if (configMap) pointerDefault(configMap, 'defaultMode', VolumeSourceDefaultMode);
  const downward = obj(v.downwardAPI);
  if (downward) {
    pointerDefault(downward, 'defaultMode', VolumeSourceDefaultMode);
    defaultDownwardItems(downward.items);
  }
  const projected = obj(v.projected);
  if (projected) defaultProjected(projected);
  const hostPath = obj(v.hostPath);
  if (hostPath) pointerDefault(hostPath, 'type', '');
  const iscsi = obj(v.iscsi);
  if (iscsi) stringDefault(iscsi, 'iscsiInterface', 'default');
  const rbd = obj(v.rbd);
  if (rbd) {
    stringDefault(rbd, 'pool', 'rbd');
    stringDefault(rbd, 'user', 'admin');
    stringDefault(rbd, 'keyring', '/etc/ceph/keyring');
  }
  const azureDisk = obj(v.azureDisk);
  if (azureDisk) {
    pointerDefault(azureDisk, 'cachingMode', 'ReadWrite');
    pointerDefault(azureDisk, 'kind', 'Shared');
    pointerDefault(azureDisk, 'fsType', 'ext4');
    pointerDefault(azureDisk, 'readOnly', false);
  }
  const scaleIO = obj(v.scaleIO);
  if (scaleIO) {
    stringDefault(scaleIO, 'storageMode', 'ThinProvisioned');
    stringDefault(scaleIO, 'fsType', 'xfs');
  }
  const claimSpec = obj(obj(obj(v.ephemeral)?.volumeClaimTemplate)?.spec);
  if (claimSpec) pointerDefault(claimSpec, 'volumeMode', 'Filesystem');
}

/**
 * These defaults over a pod read from storage, as the API server's decoder defaults every read:
 * a pod stored before they were applied then compares equal to its updated self (else
 * ValidatePodUpdate would refuse the next label change as a spec change). `spec` is changed in place.
 */
export function defaultStoredPodSpec(spec: PodSpec | undefined): void {
  if (!spec || typeof spec !== 'object') return;
  for (const list of [spec.initContainers, spec.containers, spec.ephemeralContainers]) {
    if (!Array.isArray(list)) continue;
    for (const c of list) if (c && typeof c === 'object') defaultContainerFieldRefs(c);
  }
  if (Array.isArray(spec.volumes)) for (const v of spec.volumes) if (v && typeof v === 'object') defaultVolume(v);
}
