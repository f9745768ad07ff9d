// A node's capacity and allocatable as the kubelet's MachineInfo setter and
// hardEvictionReservation make them (pkg/kubelet/nodestatus/setters.go,
// pkg/kubelet/cm/helpers.go @ release-1.32), and the host readings behind them. One row per rule.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { filesystemCapacityBytes, hostHugePages } from '../../src/agent/host.js';
import { allocatableOf, capacityOf, type NodeFacts } from '../../src/agent/nodeobject.js';
import { parseEvictionThresholds, thresholdQuantity, defaultEvictionHard } from '../../src/policy/eviction.js';

type Facts = Pick<NodeFacts, 'memoryBytes' | 'milliCPU' | 'maxPods' | 'ephemeralStorageBytes' | 'hugePages' | 'evictionHardMemoryBytes' | 'evictionHardNodefsBytes'>;
const Gi = 1n << 30n;
const Mi = 1n << 20n;
const base: Facts = { memoryBytes: 4n * Gi, milliCPU: 2000n, maxPods: 110, evictionHardMemoryBytes: 100n * Mi };

const rows: { rule: string; facts: Facts; capacity: Record<string, string>; allocatable: Record<string, string> }[] = [
  {
    rule: 'an unreadable root filesystem reports ephemeral-storage 0 (the kubelet\'s "0Gi")',
    facts: base,
    capacity: { cpu: '2', 'ephemeral-storage': '0', memory: '4Gi', pods: '110' },
    allocatable: { cpu: '2', 'ephemeral-storage': '0', memory: '3996Mi', pods: '110' },
  },
  {
    rule: 'ephemeral-storage allocatable is capacity less the nodefs.available threshold',
    facts: { ...base, ephemeralStorageBytes: 100n * Gi, evictionHardNodefsBytes: 10n * Gi },
    capacity: { cpu: '2', 'ephemeral-storage': '100Gi', memory: '4Gi', pods: '110' },
    allocatable: { cpu: '2', 'ephemeral-storage': '90Gi', memory: '3996Mi', pods: '110' },
  },
  {
    rule: 'a reservation larger than the capacity leaves zero, never a negative allocatable',
    facts: { ...base, ephemeralStorageBytes: 1n * Gi, evictionHardNodefsBytes: 2n * Gi, evictionHardMemoryBytes: 5n * Gi },
    capacity: { cpu: '2', 'ephemeral-storage': '1Gi', memory: '4Gi', pods: '110' },
    allocatable: { cpu: '2', 'ephemeral-storage': '0', memory: '0', pods: '110' },
  },
  {
    rule: 'each huge page size is a capacity named hugepages-<size>, in Go\'s sorted key order',
    facts: { ...base, hugePages: [{ pageSizeBytes: 2n * Mi, totalBytes: 0n }, { pageSizeBytes: Gi, totalBytes: 0n }] },
    capacity: { cpu: '2', 'ephemeral-storage': '0', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '4Gi', pods: '110' },
    allocatable: { cpu: '2', 'ephemeral-storage': '0', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '3996Mi', pods: '110' },
  },
  {
    rule: 'reserved huge pages come off allocatable memory, after the eviction threshold',
    facts: { ...base, hugePages: [{ pageSizeBytes: 2n * Mi, totalBytes: 512n * Mi }, { pageSizeBytes: Gi, totalBytes: Gi }] },
    capacity: { cpu: '2', 'ephemeral-storage': '0', 'hugepages-1Gi': '1Gi', 'hugepages-2Mi': '512Mi', memory: '4Gi', pods: '110' },
    allocatable: { cpu: '2', 'ephemeral-storage': '0', 'hugepages-1Gi': '1Gi', 'hugepages-2Mi': '512Mi', memory: '2460Mi', pods: '110' },
  },
  {
    rule: 'a byte count that is not a whole number of KiB prints as bytes',
    facts: { ...base, ephemeralStorageBytes: 269_427_781_632n, evictionHardNodefsBytes: thresholdQuantity(parseEvictionThresholds(defaultEvictionHard).find((t) => t.signal === 'nodefs.available')!, 269_427_781_632n) },
    capacity: { cpu: '2', 'ephemeral-storage': '263113068Ki', memory: '4Gi', pods: '110' },
    // int64(float64(capacity) × float64(float32(0.1))): 26,942,778,564 reserved.
    allocatable: { cpu: '2', 'ephemeral-storage': '242485003068', memory: '3996Mi', pods: '110' },
  },
];

describe('node capacity and allocatable', () => {
  for (const row of rows) {
    test(row.rule, () => {
      assert.deepEqual(capacityOf(row.facts), row.capacity);
      assert.deepEqual(Object.keys(capacityOf(row.facts)), Object.keys(row.capacity), 'key order');
      assert.deepEqual(allocatableOf(row.facts), row.allocatable);
    });
  }
});

describe('host readings behind capacity', () => {
  test('huge page sizes and their reserved bytes come from nr_hugepages of each size', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bulkhead-hugepages-'));
    try {
      for (const [size, pages] of [['2048', '3'], ['1048576', '0']] as const) {
        mkdirSync(join(dir, `hugepages-${size}kB`));
        writeFileSync(join(dir, `hugepages-${size}kB`, 'nr_hugepages'), `${pages}\n`);
      }
      mkdirSync(join(dir, 'not-a-size'));
      const got = hostHugePages(dir).sort((a, b) => Number(a.pageSizeBytes - b.pageSizeBytes));
      assert.deepEqual(got, [
        { pageSizeBytes: 2n * Mi, totalBytes: 6n * Mi },
        { pageSizeBytes: Gi, totalBytes: 0n },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('no hugepages directory means no huge page sizes', () => {
    assert.deepEqual(hostHugePages(join(tmpdir(), 'bulkhead-no-such-dir-for-hugepages')), []);
  });

  test('the capacity of a real filesystem is its blocks times its block size; an unreadable path is 0', () => {
    const bytes = filesystemCapacityBytes(tmpdir());
    assert.ok(bytes > 0n, `statfs of ${tmpdir()} gave ${bytes}`);
    assert.equal(bytes % 512n, 0n);
    assert.equal(filesystemCapacityBytes(join(tmpdir(), 'bulkhead-no-such-dir', 'x')), 0n);
  });
});
