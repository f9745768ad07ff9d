// Stored objects and their metadata bookkeeping: resourceVersion from the store revision,
// uid, creation time, generateName, and the JSON encoding kept in the store.

import { randomFillSync, randomUUID } from 'node:crypto';
import { defaultNamespace } from '../api/namespacedefaults.js';
import type { KubeObject, Namespace, Pod } from '../api/types.js';
import { defaultStoredPodSpec } from '../api/volumedefaults.js';
import type { KeyValue } from '../storage/store.js';

/** The object in a KeyValue with metadata.resourceVersion set from its modRevision. */
export function decodeStored<T extends KubeObject>(kv: KeyValue): T {
  const obj = JSON.parse(kv.value) as T;
  obj.metadata = { ...(obj.metadata ?? {}), resourceVersion: String(kv.modRevision) };
  return defaultedOnRead(obj);
}

/**
 * A stored object as the API server's decoder defaults it on every read: a Namespace written
 * before it was labelled with its name on create (SetDefaults_Namespace) reads with the label,
 * and a Pod written before its volume sources and field selectors were defaulted reads with
 * those defaults, as on kube-apiserver after an upgrade. `obj` is changed in place.
 */
export function defaultedOnRead<T extends KubeObject>(obj: T): T {
  if (obj.kind === 'Namespace') defaultNamespace(obj as unknown as Namespace);
  else if (obj.kind === 'Pod') defaultStoredPodSpec((obj as unknown as Pod).spec);
  return obj;
}

/** What goes into the store: the object without its resourceVersion (the revision is the truth). */
export function encodeForStore(obj: KubeObject): string {
  if (obj.metadata?.resourceVersion === undefined) return JSON.stringify(obj);
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  return JSON.stringify({ ...obj, metadata: meta });
}

const alphanumerics = 'bcdfghjklmnpqrstvwxz2456789';

/** names.SimpleNameGenerator: the prefix plus five random characters from a vowel-free alphabet. */
/**
 * Random bytes drawn a kilobyte at a time: every pod's token volume gets a generated name, and a
 * getrandom call per name was 1.5% of a pod create's CPU (as randomUUID keeps its own pool).
 */
const randomPool = Buffer.alloc(1024);
let randomUsed = randomPool.length;

function randomByte(): number {
  if (randomUsed === randomPool.length) {
    randomFillSync(randomPool);
    randomUsed = 0;
  }
  return randomPool[randomUsed++]!;
}

export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += alphanumerics[randomByte() % alphanumerics.length];
  const maxPrefix = 63 - 5;
  return (prefix.length > maxPrefix ? prefix.slice(0, maxPrefix) : prefix) + suffix;
}

export function newUID(): string {
  return randomUUID();
}
