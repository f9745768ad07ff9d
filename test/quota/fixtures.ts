// Shared builders for the quota tests (no tests here). Objects are plain JSON as the API holds
// them: quantities are strings, optional fields absent.

import { Quantity } from '../../src/api/quantity.js';
import type { Resources } from '../../src/api/resourcelist.js';
import type {
  Container,
  Pod,
  PodSpec,
  PodStatus,
  ObjectMeta,
  ResourceList,
  ResourceQuota,
  ScopedResourceSelectorRequirement,
} from '../../src/api/types.js';

/** A fixed clock: every test that cares about time uses it. */
export const NOW = new Date('2026-03-01T12:00:00Z');

export const gatesOn = { PodLevelResources: true };
export const gatesOff = { PodLevelResources: false };
export const optsOn = { gates: gatesOn, now: NOW };
export const optsOff = { gates: gatesOff, now: NOW };

/** upstream getResourceList(cpu, memory): only the non-empty ones. */
export function cm(cpu = '', memory = ''): ResourceList {
  const rl: ResourceList = {};
  if (cpu !== '') rl['cpu'] = cpu;
  if (memory !== '') rl['memory'] = memory;
  return rl;
}

/** upstream getLocalStorageResourceList(ephemeralStorage). */
export function es(storage = ''): ResourceList {
  return storage === '' ? {} : { 'ephemeral-storage': storage };
}

export function ctr(name: string, requests?: ResourceList, limits?: ResourceList, extra: Partial<Container> = {}): Container {
  const c: Container = { name, image: 'image', ...extra };
  if (requests !== undefined || limits !== undefined) {
    c.resources = {};
    if (requests !== undefined) c.resources.requests = requests;
    if (limits !== undefined) c.resources.limits = limits;
  }
  return c;
}

export function sidecar(name: string, requests?: ResourceList, limits?: ResourceList): Container {
  return ctr(name, requests, limits, { restartPolicy: 'Always' });
}

export interface PodParts {
  metadata?: Partial<ObjectMeta>;
  status?: PodStatus;
}

export function mkPod(name: string, spec: Partial<PodSpec>, parts: PodParts = {}): Pod {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'test', ...(parts.metadata ?? {}) },
    spec: { containers: [], ...spec },
  };
  if (parts.status) pod.status = parts.status;
  return pod;
}

/**
 * upstream validPod(name, n, resources) of the resourcequota admission tests: n containers that
 * share one requirements block and have no name.
 */
export function quotaValidPod(name: string, n: number, requests: ResourceList, limits: ResourceList): Pod {
  const containers: Container[] = [];
  for (let i = 0; i < n; i++) containers.push({ name: '', image: `foo:V${i}`, resources: { requests: { ...requests }, limits: { ...limits } } });
  return mkPod(name, { containers });
}

export interface QuotaParts {
  specHard?: ResourceList;
  hard?: ResourceList;
  used?: ResourceList;
  scopes?: string[];
  selector?: ScopedResourceSelectorRequirement[];
}

/** A quota; `hard`/`used` go to status (what admission reads), `specHard` to spec. */
export function mkQuota(name: string, parts: QuotaParts): ResourceQuota {
  const q: ResourceQuota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'test', resourceVersion: '124' } };
  const spec: NonNullable<ResourceQuota['spec']> = {};
  if (parts.specHard) spec.hard = parts.specHard;
  if (parts.scopes) spec.scopes = parts.scopes;
  if (parts.selector) spec.scopeSelector = { matchExpressions: parts.selector };
  q.spec = spec;
  if (parts.hard || parts.used) {
    q.status = {};
    if (parts.hard) q.status.hard = parts.hard;
    if (parts.used) q.status.used = parts.used;
  }
  return q;
}

/** A parsed list in canonical wire form, for comparing values independently of spelling. */
export function render(m: Resources): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...m.keys()].sort()) out[k] = m.get(k)!.canonical();
  return out;
}

/** The canonical form of an expected list written with upstream's spellings. */
export function canon(rl: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(rl).sort()) out[k] = Quantity.parse(rl[k]!).canonical();
  return out;
}

/** The same, for a list that is already strings (status.used as written by a charge). */
export function canonList(rl: Record<string, string> | undefined): Record<string, string> {
  return canon(rl ?? {});
}
