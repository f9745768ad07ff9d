// The node cgroups on the real kernel, in a test-owned root: what a clean shutdown with no pods
// removes (the QoS tiers, kubepods, and the root when the agent made it, in every hierarchy) and
// what it leaves (anything still holding a cgroup, and a root that was there before). rmdir
// only; every cgroup here is the test's own, removed afterwards.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { NodeCgroups } from '../../src/agent/nodecgroups.js';
import { probeCgroups } from '../../src/agent/runtime/hostprobe.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { NodeConfig } from '../../src/plan/node.js';
import { hierarchyRoots, realKernelSkipReason, removeTestCgroups } from './cgrouptrees.js';

const reason = realKernelSkipReason([]);
if (reason) console.error(`\n*** SKIPPING real-kernel node cgroup tests: ${reason} ***\n`);

const node: NodeConfig = { memoryBytes: 4n << 30n, milliCPU: 2000n, cgroupVersion: 1, cgroupDriver: 'cgroupfs' };

interface Row {
  name: string;
  /** Made by the test before the agent's first ensure(), in every hierarchy (below the root). */
  before?: string[];
  /** Made by the test after ensure(), in the memory hierarchy only (a pod's cgroup, say). */
  inUse?: string[];
  /** A second NodeCgroups (an agent restart) does the removal. */
  restart?: boolean;
  /** Paths below the root (empty string: the root) that must exist afterwards, in the memory hierarchy. */
  stays: string[];
}

describe('NodeCgroups.removeUnused on cgroup v1 (real kernel)', { skip: reason }, () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'bulkhead-nodecgroups-'));
  const tops: string[] = [];
  after(() => {
    const left = tops.flatMap((t) => removeTestCgroups(t));
    rmSync(stateDir, { recursive: true, force: true });
    assert.deepEqual(left, [], `left behind: ${left.join(', ')}`);
  });

  const rows: Row[] = [
    { name: 'no pods: the tiers, kubepods and the root the agent made go from every hierarchy', stays: [] },
    { name: 'a root that was there before the agent stays; what the agent made below it goes', before: [''], stays: [''] },
    { name: 'after an agent restart the root the first run made is still known as the agent\'s, and goes', restart: true, stays: [] },
    {
      name: 'a cgroup still below a tier: that tier, kubepods and the root stay (rmdir only); the empty tier goes',
      inUse: ['kubepods/burstable/podx'],
      stays: ['', 'kubepods', 'kubepods/burstable', 'kubepods/burstable/podx'],
    },
  ];
  for (const [i, r] of rows.entries()) {
    it(r.name, () => {
      const top = `bulkhead-test-${randomBytes(4).toString('hex')}`;
      tops.push(top);
      const createdFile = join(stateDir, `created-${i}.json`);
      const make = () => new NodeCgroups(`/${top}`, node, defaultFeatureGates, { hierarchies: hierarchyRoots(), createdFile });
      for (const p of r.before ?? []) for (const h of hierarchyRoots()) mkdirSync(join(h, top, p), { recursive: true });
      const cg = make();
      cg.ensure();
      const mem = probeCgroups().v1.memory!;
      assert.ok(existsSync(join(mem, top, 'kubepods', 'besteffort')), 'ensure() made the tiers');
      for (const p of r.inUse ?? []) mkdirSync(join(mem, top, p), { recursive: true });
      const stayed = (r.restart ? make() : cg).removeUnused();
      const expected = ['', 'kubepods', 'kubepods/burstable', 'kubepods/besteffort', 'kubepods/burstable/podx'];
      const present = expected.filter((p) => existsSync(join(mem, top, p)));
      assert.deepEqual(present, r.stays);
      for (const h of hierarchyRoots().filter((x) => x !== mem)) {
        const kept = r.before?.includes('') ? [''] : [];
        assert.deepEqual(expected.filter((p) => existsSync(join(h, top, p))), kept, `in ${h}`);
      }
      assert.deepEqual(stayed, r.inUse ? ['kubepods/burstable', 'kubepods', ''].map((p) => join(mem, top, p)) : []);
    });
  }
});
