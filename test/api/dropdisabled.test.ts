// Fields behind a disabled feature gate are dropped from new pods before validation
// (dropDisabledFields): Bulkhead's own design fields with a warning, Kubernetes' own silently.
// The create rows (old pod nil) of upstream's TestDropInPlacePodVerticalScaling-style matrices for
// the gates Bulkhead has (kubernetes/kubernetes pkg/api/pod/util_test.go, index file 17746144):
// resizePolicy (InPlacePodVerticalScaling) and spec.resources (PodLevelResources, v1.32
// dropDisabledPodLevelResources; that test is not in the index, its rule is util.go's).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dropDisabledPodFields } from '../../src/api/dropdisabled.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Container, Pod } from '../../src/api/types.js';

const resize = [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] as Container['resizePolicy'];

function pod(containers: Partial<Container>[], initContainers: Partial<Container>[] = []): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec: { containers: containers as Container[], ...(initContainers.length ? { initContainers: initContainers as Container[] } : {}) } };
}

const on = { ...defaultFeatureGates, ContainerOOMKillMode: true, ContainerUlimits: true, InPlacePodVerticalScaling: true, PodLevelResources: true };

describe('dropDisabledPodFields', () => {
  const rows: { name: string; pod: Pod; gates: typeof on; want: Pod; warnings: string[] }[] = [
    {
      name: 'InPlacePodVerticalScaling off (v1.32 default): resizePolicy dropped from containers and init containers, silently as upstream',
      pod: pod([{ name: 'a', image: 'i', resizePolicy: resize }], [{ name: 'b', image: 'i', resizePolicy: resize }]),
      gates: { ...on, InPlacePodVerticalScaling: false },
      want: pod([{ name: 'a', image: 'i' }], [{ name: 'b', image: 'i' }]),
      warnings: [],
    },
    {
      name: 'InPlacePodVerticalScaling on: resizePolicy kept',
      pod: pod([{ name: 'a', image: 'i', resizePolicy: resize }]),
      gates: on,
      want: pod([{ name: 'a', image: 'i', resizePolicy: resize }]),
      warnings: [],
    },
    {
      name: 'ContainerOOMKillMode off: oomKillMode dropped with a warning naming the field and the gate',
      pod: pod([{ name: 'a', image: 'i', oomKillMode: 'Group' } as Partial<Container>]),
      gates: { ...on, ContainerOOMKillMode: false },
      want: pod([{ name: 'a', image: 'i' }]),
      warnings: ['spec.containers[0].oomKillMode: field dropped because the ContainerOOMKillMode feature gate is disabled'],
    },
  ];
  const withPodLevel = (): Pod => ({ ...pod([{ name: 'a', image: 'i' }]), spec: { containers: [{ name: 'a', image: 'i' }] as Container[], resources: { requests: { cpu: '1' }, limits: { cpu: '2' } } } });
  const withoutPodLevel = (): Pod => pod([{ name: 'a', image: 'i' }]);
  for (const enabled of [true, false]) {
    for (const [desc, make, has] of [['has pod-level resources', withPodLevel, true], ['does not have pod-level resources', withoutPodLevel, false]] as const) {
      rows.push({
        name: `PodLevelResources enabled=${enabled}, old pod is nil, new pod ${desc}`,
        pod: make(),
        gates: { ...on, PodLevelResources: enabled },
        want: enabled || !has ? make() : withoutPodLevel(),
        warnings: [],
      });
    }
  }
  for (const enabled of [true, false]) {
    for (const [desc, has] of [['has in-place vertical scaling enabled with resources', true], ['has in-place vertical scaling disabled', false]] as const) {
      const make = () => pod([{ name: 'c1', image: 'image', resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } }, ...(has ? { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }, { resourceName: 'memory', restartPolicy: 'RestartContainer' }] as Container['resizePolicy'] } : {}) }]);
      const without = () => pod([{ name: 'c1', image: 'image', resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } } }]);
      rows.push({ name: `upstream TestDropInPlacePodVerticalScaling: feature enabled=${enabled}, old pod is nil, new pod ${desc}`, pod: make(), gates: { ...on, InPlacePodVerticalScaling: enabled }, want: enabled || !has ? make() : without(), warnings: [] });
    }
  }
  it('a pod without a spec is handed back as it is (validation refuses it with a 422)', () => {
    const bare = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } as unknown as Pod;
    assert.deepEqual(dropDisabledPodFields(bare, { ...on, InPlacePodVerticalScaling: false }), { pod: bare, warnings: [] });
  });
  for (const r of rows) {
    it(r.name, () => {
      const before = structuredClone(r.pod);
      const got = dropDisabledPodFields(r.pod, r.gates);
      assert.deepEqual(got.pod, r.want);
      assert.deepEqual(got.warnings, r.warnings);
      assert.deepEqual(r.pod, before, 'the input is not modified');
    });
  }
});
