// Pod volumes, volume mounts and volume devices: upstream's ValidateVolumes, validateVolumeSource,
// ValidateVolumeMounts and ValidateVolumeDevices (pkg/apis/core/validation/validation.go), with
// their paths and wording, quirks included: a second source of the downwardAPI kind is Forbidden
// at `downwarAPI` and of the cephfs kind at `cephFS`; a downwardAPI volume's items are reported
// at `downwardAPI.path` (no index); a mount's subPath, subPathExpr, mountPropagation and
// recursiveReadOnly errors at `volumeMounts.subPath` etc. (no index).
//
// Every volume source counts toward "exactly one source". The contents are checked for the
// sources the node agent serves (emptyDir, hostPath, secret, configMap, downwardAPI, projected)
// and for persistentVolumeClaim (StatefulSets create them); the other sources' own fields are not
// (see wordings.md, "Not covered"). Fields that API defaulting fills (a fieldRef's apiVersion, a
// token's expirationSeconds) are checked only when present.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import type { Container, Volume, VolumeDevice, VolumeMount } from '../types.js';
import { validateObjectFieldSelector, validateResourceFieldSelector, volumeFieldPaths } from './downwardapi.js';
import { isDNS1123Label } from './names.js';
import { quantityAt } from './quantities.js';

/** fileModeErrorMsg. */
export const fileModeErrorMsg = 'must be a number between 0 and 0777 (octal), both inclusive';
const moreThanOneMsg = 'may not specify more than 1 volume type';
const conflictingPathsMsg = 'conflicting duplicate paths';

/**
 * The sources in the order validateVolumeSource visits them (the internal VolumeSource's field
 * order), each with the path a second source is reported at.
 */
export const volumeSourceOrder: readonly (readonly [key: string, forbiddenAt: string])[] = [
  ['emptyDir', 'emptyDir'],
  ['hostPath', 'hostPath'],
  ['gitRepo', 'gitRepo'],
  ['gcePersistentDisk', 'gcePersistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['secret', 'secret'],
  ['nfs', 'nfs'],
  ['iscsi', 'iscsi'],
  ['glusterfs', 'glusterfs'],
  ['flocker', 'flocker'],
  ['persistentVolumeClaim', 'persistentVolumeClaim'],
  ['rbd', 'rbd'],
  ['cinder', 'cinder'],
  ['cephfs', 'cephFS'],
  ['quobyte', 'quobyte'],
  ['downwardAPI', 'downwarAPI'],
  ['fc', 'fc'],
  ['flexVolume', 'flexVolume'],
  ['configMap', 'configMap'],
  ['azureFile', 'azureFile'],
  ['vsphereVolume', 'vsphereVolume'],
  ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'],
  ['azureDisk', 'azureDisk'],
  ['storageos', 'storageos'],
  ['projected', 'projected'],
  ['scaleIO', 'scaleIO'],
  ['csi', 'csi'],
  ['ephemeral', 'ephemeral'],
  ['image', 'image'],
];

/** supportedHostPathTypes, sorted. */
export const hostPathTypeValues = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
/** Mount propagation modes, sorted. */
export const mountPropagationModes = ['Bidirectional', 'HostToContainer', 'None'];
/** Recursive read-only modes, sorted. */
export const recursiveReadOnlyModes = ['Disabled', 'Enabled', 'IfPossible'];

/** The volumes that validated cleanly, by name: what mounts and devices may refer to. */
export type VolumeMap = Map<string, Volume>;

type Obj = Record<string, unknown>;

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** A set struct field as an object (a malformed one reads as empty, as its zero value would). */
function obj(v: unknown): Obj {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** path.IsAbs. */
function isAbs(p: string): boolean {
  return p.startsWith('/');
}

/** validatePathNoBacksteps: no `..` element (one error however many there are). */
function validatePathNoBacksteps(p: string, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (p.split('/').includes('..')) errs.push(fieldError.invalid(path, p, "must not contain '..'"));
  return errs;
}

/** validateLocalDescendingPath: relative, without `..` elements. */
export function validateLocalDescendingPath(p: string, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (isAbs(p)) errs.push(fieldError.invalid(path, p, 'must be a relative path'));
  return validatePathNoBacksteps(p, path, errs);
}

/** ValidateLocalNonReservedPath: validateLocalDescendingPath, and no leading `..` (`..data`). */
function validateLocalNonReservedPath(p: string, path: FieldPath, errs: FieldError[]): FieldError[] {
  validateLocalDescendingPath(p, path, errs);
  if (p.startsWith('..') && !p.startsWith('../')) errs.push(fieldError.invalid(path, p, "must not start with '..'"));
  return errs;
}

function validateFileMode(mode: unknown, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (typeof mode === 'number' && (mode > 0o777 || mode < 0)) errs.push(fieldError.invalid(path, mode, fileModeErrorMsg));
  return errs;
}

/** validateKeyToPath. */
function validateKeyToPath(kp: Obj, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (str(kp.key).length === 0) errs.push(fieldError.required(path.child('key')));
  const p = str(kp.path);
  if (p.length === 0) errs.push(fieldError.required(path.child('path')));
  validateLocalNonReservedPath(p, path.child('path'), errs);
  return validateFileMode(kp.mode, path.child('mode'), errs);
}

function validateHostPath(hp: Obj, path: FieldPath, errs: FieldError[]): FieldError[] {
  const p = str(hp.path);
  if (p.length === 0) {
    errs.push(fieldError.required(path.child('path')));
    return errs;
  }
  validatePathNoBacksteps(p, path.child('path'), errs);
  if (isSet(hp.type) && !hostPathTypeValues.includes(str(hp.type))) errs.push(fieldError.notSupported(path.child('type'), hp.type, hostPathTypeValues));
  return errs;
}

function validateEmptyDir(ed: Obj, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (!isSet(ed.sizeLimit)) return errs;
  const q = quantityAt(ed.sizeLimit, path.child('sizeLimit'), errs);
  if (q !== undefined && q.sign() < 0) errs.push(fieldError.forbidden(path.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity'));
  return errs;
}

/** validateSecretVolumeSource and validateConfigMapVolumeSource: the object's name, defaultMode, items. */
function validateKeyVolume(src: Obj, nameField: 'secretName' | 'name', path: FieldPath, errs: FieldError[]): FieldError[] {
  if (str(src[nameField]).length === 0) errs.push(fieldError.required(path.child(nameField)));
  validateFileMode(src.defaultMode, path.child('defaultMode'), errs);
  const items = list(src.items);
  for (let i = 0; i < items.length; i++) validateKeyToPath(obj(items[i]), path.child('items').index(i), errs);
  return errs;
}

/** validateDownwardAPIVolumeFile: reported at `path` itself (upstream passes the source's path, not the item's). */
function validateDownwardAPIFile(file: Obj, path: FieldPath, errs: FieldError[]): FieldError[] {
  const p = str(file.path);
  if (p.length === 0) errs.push(fieldError.required(path.child('path')));
  validateLocalNonReservedPath(p, path.child('path'), errs);
  if (isSet(file.fieldRef)) {
    validateObjectFieldSelector(obj(file.fieldRef), volumeFieldPaths, path.child('fieldRef'), errs);
    if (isSet(file.resourceFieldRef)) errs.push(fieldError.invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (isSet(file.resourceFieldRef)) {
    validateResourceFieldSelector(obj(file.resourceFieldRef), true, path.child('resourceFieldRef'), errs);
  } else {
    errs.push(fieldError.required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  return validateFileMode(file.mode, path.child('mode'), errs);
}

function validateDownwardAPIVolume(src: Obj, path: FieldPath, errs: FieldError[]): FieldError[] {
  validateFileMode(src.defaultMode, path.child('defaultMode'), errs);
  for (const item of list(src.items)) validateDownwardAPIFile(obj(item), path, errs);
  return errs;
}

/** validateProjectionSources' secret and configMap parts: name, items, and their paths unique across the volume. */
function validateKeyProjection(src: Obj, projPath: FieldPath, volPath: FieldPath, allPaths: Set<string>, errs: FieldError[]): FieldError[] {
  const name = str(src.name);
  if (name.length === 0) errs.push(fieldError.required(projPath.child('name')));
  const items = list(src.items);
  for (let i = 0; i < items.length; i++) {
    const kp = obj(items[i]);
    validateKeyToPath(kp, projPath.child('items').index(i), errs);
    const p = str(kp.path);
    if (p.length === 0) continue;
    if (allPaths.has(p)) errs.push(fieldError.invalid(volPath, name, conflictingPathsMsg));
    else allPaths.add(p);
  }
  return errs;
}

/** validateProjectedVolumeSource. A clusterTrustBundle (alpha, off in v1.32) counts as a source only. */
function validateProjected(src: Obj, path: FieldPath, errs: FieldError[]): FieldError[] {
  validateFileMode(src.defaultMode, path.child('defaultMode'), errs);
  const allPaths = new Set<string>();
  const sources = list(src.sources);
  for (let i = 0; i < sources.length; i++) {
    const s = obj(sources[i]);
    const srcPath = path.child('sources').index(i);
    let n = 0;
    if (isSet(s.secret)) {
      n++;
      validateKeyProjection(obj(s.secret), srcPath.child('secret'), path, allPaths, errs);
    }
    if (isSet(s.configMap)) {
      n++;
      validateKeyProjection(obj(s.configMap), srcPath.child('configMap'), path, allPaths, errs);
    }
    if (isSet(s.downwardAPI)) {
      n++;
      const projPath = srcPath.child('downwardAPI');
      for (const item of list(obj(s.downwardAPI).items)) {
        const file = obj(item);
        validateDownwardAPIFile(file, projPath, errs);
        const p = str(file.path);
        if (p.length === 0) continue;
        if (allPaths.has(p)) errs.push(fieldError.invalid(path, p, conflictingPathsMsg));
        else allPaths.add(p);
      }
    }
    if (isSet(s.serviceAccountToken)) {
      n++;
      const t = obj(s.serviceAccountToken);
      const exp = t.expirationSeconds;
      const expPath = srcPath.child('serviceAccountToken').child('expirationSeconds');
      if (typeof exp === 'number' && exp < 600) errs.push(fieldError.invalid(expPath, exp, 'may not specify a duration less than 10 minutes'));
      if (typeof exp === 'number' && exp > 2 ** 32) errs.push(fieldError.invalid(expPath, exp, 'may not specify a duration larger than 2^32 seconds'));
      // Upstream reports the token's path at the volume's `path`, not the source's.
      const p = str(t.path);
      if (p === '') errs.push(fieldError.required(path.child('path')));
      else validateLocalNonReservedPath(p, path.child('path'), errs);
    }
    if (isSet(s.clusterTrustBundle)) n++;
    if (n > 1) errs.push(fieldError.forbidden(srcPath, 'may not specify more than 1 volume type per source'));
  }
  return errs;
}

/** The contents of the one source validateVolumeSource descends into. */
function validateSourceContents(key: string, src: Obj, path: FieldPath, errs: FieldError[]): FieldError[] {
  switch (key) {
    case 'emptyDir':
      return validateEmptyDir(src, path, errs);
    case 'hostPath':
      return validateHostPath(src, path, errs);
    case 'secret':
      return validateKeyVolume(src, 'secretName', path, errs);
    case 'configMap':
      return validateKeyVolume(src, 'name', path, errs);
    case 'downwardAPI':
      return validateDownwardAPIVolume(src, path, errs);
    case 'projected':
      return validateProjected(src, path, errs);
    case 'persistentVolumeClaim':
      if (str(src.claimName).length === 0) errs.push(fieldError.required(path.child('claimName')));
      return errs;
    default:
      return errs;
  }
}

/** validateVolumeSource: exactly one source, and that source's own fields. */
function validateVolumeSource(v: Obj, path: FieldPath, errs: FieldError[]): FieldError[] {
  let n = 0;
  for (const [key, forbiddenAt] of volumeSourceOrder) {
    if (!isSet(v[key])) continue;
    if (n > 0) {
      errs.push(fieldError.forbidden(path.child(forbiddenAt), moreThanOneMsg));
      continue;
    }
    n++;
    validateSourceContents(key, obj(v[key]), path.child(key), errs);
  }
  if (n === 0) errs.push(fieldError.required(path, 'must specify a volume type'));
  return errs;
}

/**
 * ValidateVolumes: each volume's source, then its name (a DNS-1123 label, unique). Only a volume
 * without errors is recorded: mounts of any other are `Not found`, and a later volume of the same
 * name is not a duplicate of it.
 */
export function validateVolumes(volumes: Volume[] | undefined, path: FieldPath, errs: FieldError[] = []): VolumeMap {
  const vols: VolumeMap = new Map();
  if (!Array.isArray(volumes)) return vols;
  for (let i = 0; i < volumes.length; i++) {
    const v = obj(volumes[i]);
    const p = path.index(i);
    const before = errs.length;
    validateVolumeSource(v, p, errs);
    const name = str(v.name);
    if (name.length === 0) errs.push(fieldError.required(p.child('name')));
    else for (const m of isDNS1123Label(name)) errs.push(fieldError.invalid(p.child('name'), name, m));
    if (vols.has(name)) errs.push(fieldError.duplicate(p.child('name'), name));
    if (errs.length === before) vols.set(name, v as Volume);
  }
  return vols;
}

/** GetVolumeMountMap / GetVolumeDeviceMap: name → path, the last entry of a name winning. */
function pathsByName(entries: unknown, pathField: 'mountPath' | 'devicePath'): Map<string, string> {
  const m = new Map<string, string>();
  for (const e of list(entries)) m.set(str(obj(e).name), str(obj(e)[pathField]));
  return m;
}

function hasPath(m: Map<string, string>, p: string): boolean {
  for (const v of m.values()) if (v === p) return true;
  return false;
}

/** validateMountRecursiveReadOnly. */
function validateRecursiveReadOnly(m: Obj, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (!isSet(m.recursiveReadOnly)) return errs;
  const rro = str(m.recursiveReadOnly);
  if (rro === 'Disabled') return errs;
  if (rro === 'Enabled' || rro === 'IfPossible') {
    if (m.readOnly !== true) errs.push(fieldError.forbidden(path, 'may only be specified when readOnly is true'));
    if (isSet(m.mountPropagation) && str(m.mountPropagation) !== 'None') {
      errs.push(fieldError.forbidden(path, 'may only be specified when mountPropagation is None or not specified'));
    }
    return errs;
  }
  errs.push(fieldError.notSupported(path, m.recursiveReadOnly, recursiveReadOnlyModes));
  return errs;
}

/** ValidateVolumeMounts for one container (`c` decides whether Bidirectional propagation is allowed). */
export function validateVolumeMounts(c: Container, volumes: VolumeMap, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const mounts = list(c.volumeMounts);
  if (mounts.length === 0) return errs;
  const devices = pathsByName(c.volumeDevices, 'devicePath');
  const privileged = c.securityContext?.privileged === true;
  const mountPoints = new Set<string>();
  for (let i = 0; i < mounts.length; i++) {
    const m = obj(mounts[i]) as Obj & Partial<VolumeMount>;
    const p = path.index(i);
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (name.length === 0) errs.push(fieldError.required(p.child('name')));
    if (!volumes.has(name)) errs.push(fieldError.notFound(p.child('name'), name));
    if (mountPath.length === 0) errs.push(fieldError.required(p.child('mountPath')));
    if (mountPoints.has(mountPath)) errs.push(fieldError.invalid(p.child('mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (devices.has(name)) errs.push(fieldError.invalid(p.child('name'), name, 'must not already exist in volumeDevices'));
    if (hasPath(devices, mountPath)) errs.push(fieldError.invalid(p.child('mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = str(m.subPath);
    const subPathExpr = str(m.subPathExpr);
    if (subPath.length > 0) validateLocalDescendingPath(subPath, path.child('subPath'), errs);
    if (subPathExpr.length > 0) {
      if (subPath.length > 0) errs.push(fieldError.invalid(p.child('subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      validateLocalDescendingPath(subPathExpr, path.child('subPathExpr'), errs);
    }
    if (isSet(m.mountPropagation)) {
      const mp = str(m.mountPropagation);
      const mpPath = path.child('mountPropagation');
      if (!mountPropagationModes.includes(mp)) errs.push(fieldError.notSupported(mpPath, m.mountPropagation, mountPropagationModes));
      if (mp === 'Bidirectional' && !privileged) errs.push(fieldError.forbidden(mpPath, 'Bidirectional mount propagation is available only to privileged containers'));
    }
    validateRecursiveReadOnly(m, path.child('recursiveReadOnly'), errs);
  }
  return errs;
}

/** ValidateVolumeDevices for one container: block devices come from claims (persistentVolumeClaim or ephemeral) only. */
export function validateVolumeDevices(c: Container, volumes: VolumeMap, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const devices = list(c.volumeDevices);
  if (devices.length === 0) return errs;
  const mounts = pathsByName(c.volumeMounts, 'mountPath');
  const devicePaths = new Set<string>();
  const deviceNames = new Set<string>();
  for (let i = 0; i < devices.length; i++) {
    const d = obj(devices[i]) as Obj & Partial<VolumeDevice>;
    const p = path.index(i);
    const name = str(d.name);
    const devPath = str(d.devicePath);
    const vol = volumes.get(name);
    if (name.length === 0) errs.push(fieldError.required(p.child('name')));
    if (deviceNames.has(name)) errs.push(fieldError.invalid(p.child('name'), name, 'must be unique'));
    if (vol !== undefined && !isSet(vol.persistentVolumeClaim) && !isSet(vol.ephemeral)) {
      errs.push(fieldError.invalid(p.child('name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (vol === undefined) errs.push(fieldError.notFound(p.child('name'), name));
    if (devPath.length === 0) errs.push(fieldError.required(p.child('devicePath')));
    if (devicePaths.has(devPath)) errs.push(fieldError.invalid(p.child('devicePath'), devPath, 'must be unique'));
    if (devPath.length > 0 && devPath.split('/').includes('..')) errs.push(fieldError.invalid(p.child('devicePath'), devPath, "can not contain backsteps ('..')"));
    else devicePaths.add(devPath);
    if (mounts.has(name)) errs.push(fieldError.invalid(p.child('name'), name, 'must not already exist in volumeMounts'));
    if (hasPath(mounts, devPath)) errs.push(fieldError.invalid(p.child('devicePath'), devPath, 'must not already exist as a path in volumeMounts'));
    if (name.length > 0) deviceNames.add(name);
  }
  return errs;
}
