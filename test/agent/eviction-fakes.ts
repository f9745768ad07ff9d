// Fakes shared by the eviction manager tests: cgroup files as a path → text map, pods.

import type { ListCgroupDir, ReadCgroupFile } from '../../src/agent/eviction/memcg.js';
import type { Container, Pod, ResourceList } from '../../src/api/types.js';

/** A reader over a path → text map; a missing path fails as readFileSync does. */
export function fakeReader(files: Map<string, string>): ReadCgroupFile {
  return (path) => {
    const t = files.get(path);
    if (t === undefined) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
    return t;
  };
}

/** A lister over the same map: a directory's entries are the first components of the paths below it. */
export function fakeLister(files: Map<string, string>): ListCgroupDir {
  return (dir) => {
    const names = new Set<string>();
    for (const k of files.keys()) if (k.startsWith(`${dir}/`)) names.add(k.slice(dir.length + 1).split('/')[0]!);
    if (names.size === 0) throw Object.assign(new Error(`ENOENT: no such file or directory, scandir '${dir}'`), { code: 'ENOENT' });
    return [...names];
  };
}

/** A v1 memcg as its three files. */
export function setMemcg(files: Map<string, string>, dir: string, m: { usage: bigint; inactiveFile?: bigint; limit?: bigint }): void {
  files.set(`${dir}/memory.usage_in_bytes`, `${m.usage}\n`);
  files.set(`${dir}/memory.stat`, `cache 0\nrss ${m.usage}\ntotal_inactive_file ${m.inactiveFile ?? 0n}\n`);
  files.set(`${dir}/memory.limit_in_bytes`, `${m.limit ?? 9223372036854771712n}\n`);
}

export function removeMemcg(files: Map<string, string>, dir: string): void {
  for (const k of [...files.keys()]) if (k.startsWith(`${dir}/`)) files.delete(k);
}

export function ctr(name: string, requests: ResourceList = {}, limits: ResourceList = {}): Container {
  return { name, image: 'busybox', resources: { requests, limits } };
}

export function mkPod(name: string, containers: Container[], o: { priority?: number; tolerations?: Pod['spec']['tolerations']; annotations?: Record<string, string>; qosClass?: 'Guaranteed' | 'Burstable' | 'BestEffort' } = {}): Pod {
  const p: Pod = { metadata: { name, namespace: 'default', uid: `uid-${name}` }, spec: { containers } };
  if (o.priority !== undefined) p.spec.priority = o.priority;
  if (o.tolerations) p.spec.tolerations = o.tolerations;
  if (o.annotations) p.metadata.annotations = o.annotations;
  if (o.qosClass) p.status = { qosClass: o.qosClass };
  return p;
}
