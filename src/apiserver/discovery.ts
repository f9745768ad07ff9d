// Discovery documents: aggregated (apidiscovery.k8s.io v2 and v2beta1, which kubectl picks by
// content type) and the legacy APIVersions / APIGroupList / APIResourceList forms.

import { groupVersion, resources, type ResourceDef } from './resources.js';

export const aggregatedV2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
export const aggregatedV2beta1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

/** The aggregated form the client asked for, if any. */
export function wantsAggregated(accept: string | undefined): 'v2' | 'v2beta1' | undefined {
  const a = accept ?? '';
  if (/g=apidiscovery\.k8s\.io;\s*v=v2(;|,|$)/.test(a) || a.includes('g=apidiscovery.k8s.io;v=v2;')) return 'v2';
  if (a.includes('v=v2beta1') && a.includes('apidiscovery.k8s.io')) return 'v2beta1';
  return undefined;
}

function groupsOf(core: boolean): Map<string, ResourceDef[]> {
  const m = new Map<string, ResourceDef[]>();
  for (const r of resources) {
    if ((r.group === '') !== core) continue;
    const list = m.get(r.group) ?? [];
    list.push(r);
    m.set(r.group, list);
  }
  return m;
}

function discoveryResource(r: ResourceDef) {
  const out: Record<string, unknown> = {
    resource: r.resource,
    responseKind: { group: r.group, version: r.version, kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singular,
    verbs: r.verbs,
  };
  if (r.shortNames.length) out.shortNames = r.shortNames;
  if (r.categories.length) out.categories = r.categories;
  if (r.subresources.length) {
    out.subresources = r.subresources.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group ?? r.group, version: s.version ?? r.version, kind: s.kind },
      verbs: s.verbs,
    }));
  }
  return out;
}

/** A group's versions, preferred first (the order the resources list them in: autoscaling v2, v1). */
function versionsOf(defs: ResourceDef[]): string[] {
  return [...new Set(defs.map((d) => d.version))];
}

export function aggregatedDiscovery(core: boolean, version: 'v2' | 'v2beta1'): unknown {
  const items = [...groupsOf(core)].map(([group, defs]) => ({
    metadata: core ? { creationTimestamp: null } : { name: group, creationTimestamp: null },
    versions: versionsOf(defs).map((v) => ({ version: v, resources: defs.filter((d) => d.version === v).map(discoveryResource), freshness: 'Current' })),
  }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}

export function legacyAPIVersions(serverAddress: string): unknown {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

export function legacyAPIGroupList(): unknown {
  const groups = [...groupsOf(false)].map(([name, defs]) => {
    const versions = versionsOf(defs).map((version) => ({ groupVersion: groupVersion({ group: name, version }), version }));
    return { name, versions, preferredVersion: versions[0]! };
  });
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function legacyAPIGroup(group: string): unknown | undefined {
  const defs = resources.filter((r) => r.group === group);
  if (!defs.length) return undefined;
  const versions = versionsOf(defs).map((version) => ({ groupVersion: groupVersion({ group, version }), version }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions, preferredVersion: versions[0]! };
}

export function apiResourceList(group: string, version: string): unknown | undefined {
  const defs = resources.filter((r) => r.group === group && r.version === version);
  if (!defs.length) return undefined;
  const list: unknown[] = [];
  for (const r of defs) {
    const entry: Record<string, unknown> = { name: r.resource, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs };
    if (r.shortNames.length) entry.shortNames = r.shortNames;
    if (r.categories.length) entry.categories = r.categories;
    list.push(entry);
    for (const s of r.subresources) {
      const sub: Record<string, unknown> = { name: `${r.resource}/${s.name}`, singularName: '', namespaced: r.namespaced, kind: s.kind, verbs: s.verbs };
      if (s.group !== undefined) sub.group = s.group;
      if (s.version !== undefined) sub.version = s.version;
      list.push(sub);
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersion(defs[0]!), resources: list };
}
