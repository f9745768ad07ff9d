// Restricted `restrictedVolumes` (v1.0+, overrides `hostPathVolumes`): volumes may only use the
// configMap, csi, downwardAPI, emptyDir, ephemeral, image, persistentVolumeClaim, projected and
// secret sources. Upstream: policy/check_restrictedVolumes.go.
//
// Defaulting: upstream only ever sees API-defaulted pods, in which a volume with no source has
// become `emptyDir: {}`. This check stays exactly upstream's and reports a source-less volume as
// type "unknown"; callers evaluating raw objects apply defaultPodForPodSecurity()
// (../defaulting.ts) first, which performs that one defaulting step, as the API server would.
//
// Raw-input rules (see podfields.ts): a source key whose value is null/absent is no source (Go's
// nil pointer); any other key besides `name` counts as a source, so an unrecognised key is an
// "unknown" source rather than being dropped the way Go's decoder would drop it; and a volume
// passes only if every source it carries is allowed (the API rejects multi-source volumes before
// PSA runs upstream, so this only matters for objects upstream would never evaluate).

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { joinQuote, pluralize, sortedSet } from '../format.js';
import { v1 } from '../levels.js';
import { get, has, items, rec, specObj, text, type PodMetadataInput, type PodSpecInput } from '../podfields.js';
import { HOST_PATH_VOLUMES_ID } from './hostPathVolumes.js';

export const ALLOWED_VOLUME_SOURCES: ReadonlySet<string> = new Set([
  'configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret',
]);

/** Known restricted sources, in the order upstream tests them, with the name it reports. */
const namedRestrictedSources: readonly [key: string, reported: string][] = [
  ['hostPath', 'hostPath'],
  ['gcePersistentDisk', 'gcePersistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['gitRepo', 'gitRepo'],
  ['nfs', 'nfs'],
  ['iscsi', 'iscsi'],
  ['glusterfs', 'glusterfs'],
  ['rbd', 'rbd'],
  ['flexVolume', 'flexVolume'],
  ['cinder', 'cinder'],
  ['cephfs', 'cephfs'],
  ['flocker', 'flocker'],
  ['fc', 'fc'],
  ['azureFile', 'azureFile'],
  ['vsphereVolume', 'vsphereVolume'],
  ['quobyte', 'quobyte'],
  ['azureDisk', 'azureDisk'],
  ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'],
  ['scaleIO', 'scaleIO'],
  ['storageos', 'storageos'],
];

/** The source keys of a volume object: every key but `name` whose value is not null. */
export function volumeSourceKeys(volume: unknown): string[] {
  const v = rec(volume);
  if (!v) return [];
  return Object.keys(v).filter((k) => k !== 'name' && has(v[k]));
}

/** The restricted type a volume reports, or undefined if it is allowed. */
function restrictedType(volume: unknown): string | undefined {
  const sources = volumeSourceKeys(volume);
  if (sources.length > 0 && sources.every((k) => ALLOWED_VOLUME_SOURCES.has(k))) return undefined;
  const v = rec(volume);
  for (const [key, reported] of namedRestrictedSources) {
    if (has(get(v, key))) return reported;
  }
  return 'unknown';
}

export function restrictedVolumes_1_0(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const badVolumes: string[] = [];
  const badTypes: string[] = [];
  for (const vol of items(get(specObj(podSpec), 'volumes'))) {
    const type = restrictedType(vol);
    if (type === undefined) continue;
    badVolumes.push(text(get(rec(vol), 'name')));
    badTypes.push(type);
  }
  if (badVolumes.length === 0) return ALLOWED;
  const types = sortedSet(badTypes);
  return forbidden(
    'restricted volume types',
    `${pluralize('volume', 'volumes', badVolumes.length)} ${joinQuote(badVolumes)} ` +
      `${pluralize('uses', 'use', badVolumes.length)} ` +
      `${pluralize('restricted volume type', 'restricted volume types', types.length)} ${joinQuote(types)}`,
  );
}

export const restrictedVolumesCheck: Check = {
  id: 'restrictedVolumes',
  level: 'restricted',
  versions: [{ minimumVersion: v1(0), checkPod: restrictedVolumes_1_0, overrideCheckIDs: [HOST_PATH_VOLUMES_ID] }],
};
