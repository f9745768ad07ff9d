// Pod and QoS-tier cgroup placement. Rows from reference/qos-oom-cgroup-quantity.md §3.7 and
// DESIGN.md ("Guaranteed pod cgroups": directly under kubepods), plus the cgroupRoot "/" rows of
// upstream kubernetes/kubernetes pkg/kubelet/cm/helpers_linux_test.go TestNodeAllocatableRoot and
// TestGetPodCgroupNameSuffix, and cgroup_manager_linux_test.go TestCgroupNameToSystemd(Basename) and
// TestCgroupNameToCgroupfs (read, not copied).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cgroupPath, kubepodsName, podCgroupName, podCgroupPath, qosTierCgroupName, type CgroupDriver } from '../../src/policy/cgrouplayout.js';
import type { QOSClass } from '../../src/api/types.js';

const uid = '2b3c4d5e-0000-4000-8000-123456789abc';
const uidSystemd = '2b3c4d5e_0000_4000_8000_123456789abc';

describe('podCgroupPath: cgroupfs and systemd drivers (reference §3.7)', () => {
  const rows: [string, QOSClass, CgroupDriver, string][] = [
    ['Guaranteed pods sit directly under kubepods (no guaranteed tier), cgroupfs', 'Guaranteed', 'cgroupfs', `/kubepods/pod${uid}`],
    ['Burstable pods sit in the burstable tier, cgroupfs', 'Burstable', 'cgroupfs', `/kubepods/burstable/pod${uid}`],
    ['BestEffort pods sit in the besteffort tier, cgroupfs', 'BestEffort', 'cgroupfs', `/kubepods/besteffort/pod${uid}`],
    ['Guaranteed under kubepods.slice, systemd (dashes in the uid become underscores)', 'Guaranteed', 'systemd', `/kubepods.slice/kubepods-pod${uidSystemd}.slice`],
    ['Burstable, systemd: slices expand every prefix', 'Burstable', 'systemd', `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${uidSystemd}.slice`],
    ['BestEffort, systemd', 'BestEffort', 'systemd', `/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod${uidSystemd}.slice`],
  ];
  for (const [name, qos, driver, want] of rows) it(`${name}: ${want}`, () => assert.equal(podCgroupPath(qos, uid, driver), want));
});

describe('podCgroupName / qosTierCgroupName: abstract names', () => {
  const rows: [string, string[], string[]][] = [
    ['Guaranteed pod: [kubepods, pod<uid>]', podCgroupName('Guaranteed', 'abc'), ['kubepods', 'podabc']],
    ['Burstable pod: [kubepods, burstable, pod<uid>]', podCgroupName('Burstable', 'abc'), ['kubepods', 'burstable', 'podabc']],
    ['BestEffort pod: [kubepods, besteffort, pod<uid>]', podCgroupName('BestEffort', 'abc'), ['kubepods', 'besteffort', 'podabc']],
    ['burstable tier', qosTierCgroupName('Burstable'), ['kubepods', 'burstable']],
    ['besteffort tier', qosTierCgroupName('BestEffort'), ['kubepods', 'besteffort']],
    // TestGetPodCgroupNameSuffix rows: the leaf is "pod" + UID, verbatim
    ['"standard UID": leaf podabc123-def456', podCgroupName('Guaranteed', 'abc123-def456').slice(-1), ['podabc123-def456']],
    ['"full UUID format": leaf keeps the dashes', podCgroupName('Guaranteed', 'a1b2c3d4-e5f6-7890-abcd-ef1234567890').slice(-1), ['poda1b2c3d4-e5f6-7890-abcd-ef1234567890']],
    ['"empty UID returns prefix only"', podCgroupName('Guaranteed', '').slice(-1), ['pod']],
  ];
  for (const [name, got, want] of rows) it(name, () => assert.deepEqual(got, want));
  it('the node-allocatable root is named kubepods', () => assert.equal(kubepodsName, 'kubepods'));
});

describe('cgroupPath: ToCgroupfs / ToSystemd (upstream TestNodeAllocatableRoot, cgroupRoot "/")', () => {
  const rows: [string, string[], CgroupDriver, string][] = [
    ['"cgroupfs with cgroupsPerQOS from root"', ['kubepods'], 'cgroupfs', '/kubepods'],
    ['"systemd with cgroupsPerQOS from root"', ['kubepods'], 'systemd', '/kubepods.slice'],
    ['the root itself, cgroupfs', [], 'cgroupfs', '/'],
    ['the root itself, systemd', [], 'systemd', '/'],
    ['burstable tier, cgroupfs', ['kubepods', 'burstable'], 'cgroupfs', '/kubepods/burstable'],
    ['burstable tier, systemd', ['kubepods', 'burstable'], 'systemd', '/kubepods.slice/kubepods-burstable.slice'],
    ['besteffort tier, systemd', ['kubepods', 'besteffort'], 'systemd', '/kubepods.slice/kubepods-besteffort.slice'],
    ['every dash inside a component is escaped for systemd', ['a-b', 'c-d-e'], 'systemd', '/a_b.slice/a_b-c_d_e.slice'],
    ['cgroupfs keeps dashes', ['a-b', 'c-d-e'], 'cgroupfs', '/a-b/c-d-e'],
  ];
  for (const [name, parts, driver, want] of rows) it(`${name}: ${want}`, () => assert.equal(cgroupPath(parts, driver), want));
});

// kubernetes/kubernetes pkg/kubelet/cm/cgroup_manager_linux_test.go TestCgroupNameToSystemdBasename,
// TestCgroupNameToSystemd and TestCgroupNameToCgroupfs (the stored copy with TestCpuSharesToCPUWeight).
// TestParseSystemdToCgroupName is not ported: Bulkhead never parses a systemd path back.
describe('cgroupPath: upstream TestCgroupNameToSystemd and TestCgroupNameToCgroupfs rows', () => {
  const uuidPod = 'pod-6c1a4e95-6bb6-11e6-bc26-28d2444e470d';
  const rows: [string, string[], CgroupDriver, string][] = [
    ['TestCgroupNameToSystemd: the root', [], 'systemd', '/'],
    ['TestCgroupNameToSystemd: Burstable', ['Burstable'], 'systemd', '/Burstable.slice'],
    ['TestCgroupNameToSystemd: Burstable, pod-123', ['Burstable', 'pod-123'], 'systemd', '/Burstable.slice/Burstable-pod_123.slice'],
    ['TestCgroupNameToSystemd: BestEffort, a UUID pod', ['BestEffort', uuidPod], 'systemd', '/BestEffort.slice/BestEffort-pod_6c1a4e95_6bb6_11e6_bc26_28d2444e470d.slice'],
    ['TestCgroupNameToSystemd: kubepods', ['kubepods'], 'systemd', '/kubepods.slice'],
    ['TestCgroupNameToCgroupfs: the root', [], 'cgroupfs', '/'],
    ['TestCgroupNameToCgroupfs: Burstable', ['Burstable'], 'cgroupfs', '/Burstable'],
  ];
  for (const [name, parts, driver, want] of rows) it(`${name}: ${want}`, () => assert.equal(cgroupPath(parts, driver), want));
});

describe('cgroupPath: upstream TestCgroupNameToSystemdBasename rows (path.Base of ToSystemd)', () => {
  const base = (p: string) => (p === '/' ? '/' : p.slice(p.lastIndexOf('/') + 1));
  const rows: [string[], string][] = [
    [[], '/'],
    [['system'], 'system.slice'],
    [['system', 'Burstable'], 'system-Burstable.slice'],
    [['Burstable', 'pod-123'], 'Burstable-pod_123.slice'],
    [['test', 'a', 'b'], 'test-a-b.slice'],
    [['test', 'a', 'b', 'Burstable'], 'test-a-b-Burstable.slice'],
    [['Burstable'], 'Burstable.slice'],
    [['BestEffort', 'pod-6c1a4e95-6bb6-11e6-bc26-28d2444e470d'], 'BestEffort-pod_6c1a4e95_6bb6_11e6_bc26_28d2444e470d.slice'],
  ];
  for (const [parts, want] of rows) it(`[${parts.join(', ')}] -> ${want}`, () => assert.equal(base(cgroupPath(parts, 'systemd')), want));
});
