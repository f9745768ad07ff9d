// Small builders for scheduler tests.

import type { Container, Node, Pod, ResourceList } from '../../src/api/types.js';

export function node(name: string, allocatable: ResourceList = { cpu: '2', memory: '4Gi', pods: '110' }, extra: { labels?: Record<string, string>; spec?: Node['spec']; conditions?: { type: string; status: string }[]; declaredFeatures?: string[] } = {}): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(extra.labels ?? {}) } },
    spec: extra.spec ?? {},
    status: {
      capacity: allocatable,
      allocatable,
      conditions: extra.conditions ?? [{ type: 'Ready', status: 'True' }],
      ...(extra.declaredFeatures ? { declaredFeatures: extra.declaredFeatures } : {}),
    },
  };
}

export function container(requests?: ResourceList, limits?: ResourceList, name = 'c'): Container {
  const resources = requests || limits ? { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } : undefined;
  return { name, image: 'busybox', ...(resources ? { resources } : {}) } as Container;
}

export function pod(name: string, requests?: ResourceList, spec: Partial<Pod['spec']> = {}, extra: { nodeName?: string; phase?: string; limits?: ResourceList } = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: { containers: [container(requests, extra.limits)], ...spec, ...(extra.nodeName ? { nodeName: extra.nodeName } : {}) },
    ...(extra.phase ? { status: { phase: extra.phase } } : {}),
  };
}
