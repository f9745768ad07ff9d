// The OOM reporter on cgroup v2 when a container's cgroup is removed (src/agent/oom/reporter.ts
// containerRemoving): the sync that sees an OOM-killed container exit removes its cgroup, and
// can do so before the watch's settle timer has read the kill, or before any rescan has watched
// the container at all. The counters must be read before the cgroup goes, so the kill is
// reported once. A temporary directory stands in for the cgroup tree (memory.events files
// written by the test); the kernel's side is test/v2/oom.test.ts.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CgroupManager } from '../../../src/agent/cgroups/manager.js';
import { OOMReporter } from '../../../src/agent/oom/reporter.js';
import type { MemcgContainer } from '../../../src/agent/podworker/context.js';

const events = (oomKill: number, oomGroupKill: number) => `low 0\nhigh 0\nmax 9\noom 1\noom_kill ${oomKill}\noom_group_kill ${oomGroupKill}\n`;

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'bulkhead-oomreporter-'));
  const cgroupPath = '/kubepods/burstable/pod-u1/c1';
  const dir = join(root, cgroupPath);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'memory.events'), events(0, 0));
  const owner: MemcgContainer = { podUID: 'u1', namespace: 'ns', pod: 'p', container: 'db', containerID: 'runc://c1', oomKillMode: 'Group', emulated: false, cgroupDir: dir };
  const cgroups = {
    version: 2,
    memoryDir: (p: string) => join(root, p),
    oomEventsFile: (p: string) => join(root, p, 'memory.events'),
    pidIn: () => false,
  } as unknown as CgroupManager;
  const counted: string[] = [];
  const kicked: string[] = [];
  const reporter = new OOMReporter({
    runtime: { containerByMemcg: (p) => (p === cgroupPath ? owner : undefined), containerPid: async () => undefined },
    cgroups,
    kubepods: '/kubepods',
    metrics: { oomEvent: (mode: string) => void counted.push(mode), groupKillEmulated: () => undefined } as never,
    pod: () => ({ metadata: { name: 'p', namespace: 'ns', uid: 'u1' } }) as never,
    record: () => undefined,
    kick: (uid) => void kicked.push(uid),
    log: () => undefined,
  });
  const kill = () => writeFileSync(join(dir, 'memory.events'), events(3, 1));
  const removeCgroup = () => rmSync(dir, { recursive: true, force: true });
  const done = () => {
    reporter.stop();
    rmSync(root, { recursive: true, force: true });
  };
  return { reporter, counted, kicked, kill, removeCgroup, done };
}

describe('OOM reporter: a container cgroup about to be removed is read a last time', () => {
  const rows: { name: string; watchedFirst: boolean }[] = [
    { name: 'watched, the kill not yet settled: reported at removal, once', watchedFirst: true },
    { name: 'never watched (no rescan since it started): found and reported at removal, once', watchedFirst: false },
  ];
  for (const r of rows) {
    it(r.name, async () => {
      const t = setup();
      try {
        t.reporter.start();
        if (r.watchedFirst) {
          t.reporter.containersChanged();
          await new Promise((res) => setImmediate(res));
        }
        t.kill();
        t.reporter.containerRemoving('runc://c1');
        t.removeCgroup();
        // Let any inotify event and settle timer that were under way run out.
        await new Promise((res) => setTimeout(res, 100));
        assert.deepEqual(t.counted, ['Group'], 'one group kill, counted in the container\'s mode');
        assert.deepEqual(t.kicked, ['u1']);
      } finally {
        t.done();
      }
    });
  }

  it('a container with no kill: nothing counted at removal', async () => {
    const t = setup();
    try {
      t.reporter.start();
      t.reporter.containersChanged();
      await new Promise((res) => setImmediate(res));
      t.reporter.containerRemoving('runc://c1');
      t.removeCgroup();
      assert.deepEqual(t.counted, []);
    } finally {
      t.done();
    }
  });
});
