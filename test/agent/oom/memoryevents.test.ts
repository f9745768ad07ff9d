// cgroup v2 OOM detection without a kernel (src/agent/oom/memoryevents.ts): memory.events
// parsing, the deltas a watcher reports per container, the pairing with /dev/kmsg's kill
// records, and the OOMKilling messages. The real kernel's side is test/v2/memoryevents.test.ts.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  MemoryEventsWatcher,
  OOMKillCorrelator,
  oomCounts,
  oomDelta,
  oomKillingMessages,
  parseMemoryEvents,
  type OOMCounts,
  type OOMReport,
  type OOMReportTarget,
} from '../../../src/agent/oom/memoryevents.js';
import type { OOMKill } from '../../../src/agent/oom/kmsg.js';

const c = (oomKill: number, oomGroupKill = 0): OOMCounts => ({ oomKill, oomGroupKill });

describe('memory.events parsing', () => {
  const rows: { name: string; text: string; want: OOMCounts }[] = [
    { name: 'a fresh cgroup: all zero', text: 'low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n', want: c(0, 0) },
    { name: 'a group kill of 4 tasks (the victim counted twice)', text: 'low 0\nhigh 0\nmax 12\noom 1\noom_kill 5\noom_group_kill 1\n', want: c(5, 1) },
    { name: 'a kernel before oom_group_kill (5.x < 5.17): group counts 0', text: 'low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n', want: c(1, 0) },
    { name: '`oom` (limit reached) is not a kill', text: 'oom 7\noom_kill 2\noom_group_kill 0', want: c(2, 0) },
    { name: 'malformed lines are skipped', text: 'oom_kill x\noom_kill 3\ngarbage\n\n', want: c(3, 0) },
    { name: 'empty text: zero', text: '', want: c(0, 0) },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(oomCounts(r.text), r.want));

  it('every key is kept', () => assert.deepEqual(parseMemoryEvents('low 1\nmax 2\noom_kill 3\n'), { low: 1, max: 2, oom_kill: 3 }));
});

describe('oomDelta', () => {
  const rows: { name: string; prev: OOMCounts | undefined; next: OOMCounts; want: OOMCounts }[] = [
    { name: 'nothing seen before: every kill counts', prev: undefined, next: c(2, 1), want: c(2, 1) },
    { name: 'no change: nothing', prev: c(3, 1), next: c(3, 1), want: c(0, 0) },
    { name: 'one more single kill', prev: c(3, 0), next: c(4, 0), want: c(1, 0) },
    { name: 'a group kill after a single one', prev: c(1, 0), next: c(6, 1), want: c(5, 1) },
    { name: 'counters lower than before: a new cgroup of that name, all its kills count', prev: c(5, 1), next: c(1, 0), want: c(1, 0) },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(oomDelta(r.prev, r.next), r.want));
});

/** A memory.events file per path, with a fake inotify that fires when the test says so. */
function fakeFS() {
  const files = new Map<string, string>();
  const listeners = new Map<string, () => void>();
  const deps = {
    read: (f: string) => {
      const t = files.get(f);
      if (t === undefined) throw Object.assign(new Error(`ENOENT: ${f}`), { code: 'ENOENT' });
      return t;
    },
    watch: (f: string, onChange: () => void) => {
      if (!files.has(f)) throw new Error(`ENOENT: ${f}`);
      listeners.set(f, onChange);
      return { close: () => void listeners.delete(f) };
    },
    settleMs: 0,
  };
  const set = (f: string, k: OOMCounts, fire = true) => {
    files.set(f, `low 0\nhigh 0\nmax 0\noom ${k.oomKill}\noom_kill ${k.oomKill}\noom_group_kill ${k.oomGroupKill}\n`);
    if (fire) listeners.get(f)?.();
  };
  return { deps, set, files, listeners };
}

describe('MemoryEventsWatcher', () => {
  type Step = { add?: { id: string; file: string; from?: 'current' | 'zero' }; set?: { file: string; counts: OOMCounts; fire?: boolean }; delete?: string; check?: string };
  const rows: { name: string; steps: Step[]; want: { id: string; delta: OOMCounts }[] }[] = [
    {
      name: 'a rise after add is reported once, as the difference',
      steps: [{ set: { file: 'a', counts: c(0) } }, { add: { id: 'A', file: 'a' } }, { set: { file: 'a', counts: c(1) } }, { set: { file: 'a', counts: c(1) } }, { set: { file: 'a', counts: c(3) } }],
      want: [{ id: 'A', delta: c(1) }, { id: 'A', delta: c(2) }],
    },
    {
      name: "from 'zero' (started since the agent runs): kills before add are reported at add",
      steps: [{ set: { file: 'a', counts: c(1) } }, { add: { id: 'A', file: 'a', from: 'zero' } }],
      want: [{ id: 'A', delta: c(1) }],
    },
    {
      name: "from 'current' (adopted at start): kills before add are not reported again",
      steps: [{ set: { file: 'a', counts: c(4, 1) } }, { add: { id: 'A', file: 'a', from: 'current' } }, { set: { file: 'a', counts: c(5, 1) } }],
      want: [{ id: 'A', delta: c(1) }],
    },
    {
      name: 'deleted and added again (a rescan): only kills after the last counts seen',
      steps: [{ set: { file: 'a', counts: c(0) } }, { add: { id: 'A', file: 'a' } }, { set: { file: 'a', counts: c(1) } }, { delete: 'A' }, { set: { file: 'a', counts: c(2), fire: false } }, { add: { id: 'A', file: 'a' } }],
      want: [{ id: 'A', delta: c(1) }, { id: 'A', delta: c(1) }],
    },
    {
      name: 'added twice with the same file: one watch, no second report',
      steps: [{ set: { file: 'a', counts: c(1) } }, { add: { id: 'A', file: 'a' } }, { add: { id: 'A', file: 'a' } }, { set: { file: 'a', counts: c(2) } }],
      want: [{ id: 'A', delta: c(1) }, { id: 'A', delta: c(1) }],
    },
    {
      name: 'a group kill: both counters in one delta',
      steps: [{ set: { file: 'g', counts: c(0) } }, { add: { id: 'G', file: 'g' } }, { set: { file: 'g', counts: c(5, 1) } }],
      want: [{ id: 'G', delta: c(5, 1) }],
    },
    {
      name: 'containers are counted apart',
      steps: [{ set: { file: 'a', counts: c(0) } }, { set: { file: 'b', counts: c(0) } }, { add: { id: 'A', file: 'a' } }, { add: { id: 'B', file: 'b' } }, { set: { file: 'b', counts: c(1) } }, { set: { file: 'a', counts: c(2) } }],
      want: [{ id: 'B', delta: c(1) }, { id: 'A', delta: c(2) }],
    },
    {
      name: 'after delete no event is reported',
      steps: [{ set: { file: 'a', counts: c(0) } }, { add: { id: 'A', file: 'a' } }, { delete: 'A' }, { set: { file: 'a', counts: c(1) } }, { check: 'A' }],
      want: [],
    },
    {
      name: 'a file that cannot be watched (cgroup gone) is not added',
      steps: [{ add: { id: 'A', file: 'missing' } }, { check: 'A' }],
      want: [],
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const fs = fakeFS();
      const got: { id: string; delta: OOMCounts }[] = [];
      const w = new MemoryEventsWatcher(() => undefined, fs.deps);
      for (const s of r.steps) {
        if (s.set) fs.set(s.set.file, s.set.counts, s.set.fire ?? true);
        if (s.add) w.add(s.add.id, s.add.file, (delta) => got.push({ id: s.add!.id, delta }), s.add.from);
        if (s.delete) w.delete(s.delete);
        if (s.check) w.check(s.check);
      }
      assert.deepEqual(got, r.want);
      w.stop();
      assert.equal(fs.listeners.size, 0, 'stop closes every watch');
    });
  }
});

describe('MemoryEventsWatcher settling (a group sweep read in its middle)', () => {
  const rows: { name: string; sets: OOMCounts[]; want: OOMCounts[] }[] = [
    { name: 'the counters rising through a sweep give one delta, the final one', sets: [c(1), c(3), c(5, 1)], want: [c(5, 1)] },
    { name: 'a single kill gives one delta', sets: [c(1)], want: [c(1)] },
  ];
  for (const r of rows) {
    it(r.name, async () => {
      const fs = fakeFS();
      fs.deps.settleMs = 1;
      const got: OOMCounts[] = [];
      const w = new MemoryEventsWatcher(() => undefined, fs.deps);
      fs.set('a', c(0));
      let done!: () => void;
      const reported = new Promise<void>((resolve) => (done = resolve));
      w.add('A', 'a', (d) => {
        got.push(d);
        done();
      });
      // Every change lands before the first settled read.
      for (const k of r.sets) fs.set('a', k);
      await reported;
      // A change that leaves the OOM counters alone (memory.events `max`) reports nothing more.
      fs.set('a', r.sets[r.sets.length - 1]!);
      await new Promise((resolve) => setTimeout(resolve, 5));
      w.stop();
      assert.deepEqual(got, r.want);
    });
  }
});

describe('MemoryEventsWatcher delete reads the counters a last time', () => {
  it('a kill still settling when the container goes (the exit seen first) is reported at delete, once', async () => {
    const fs = fakeFS();
    fs.deps.settleMs = 60_000;
    const got: OOMCounts[] = [];
    const w = new MemoryEventsWatcher(() => undefined, fs.deps);
    fs.set('g', c(0));
    w.add('G', 'g', (d) => got.push(d));
    fs.set('g', c(5, 1));
    assert.deepEqual(got, [], 'waiting for the sweep to settle');
    w.delete('G');
    assert.deepEqual(got, [c(5, 1)]);
    w.stop();
    assert.equal(fs.listeners.size, 0);
  });
});

const kill = (pid: number, task: string, taskMemcg: string): OOMKill => ({ oomMemcg: taskMemcg, taskMemcg, task, pid, uid: 0, constraint: 'CONSTRAINT_MEMCG' });

describe('OOMKillCorrelator', () => {
  const cg = '/bulkhead/kubepods/burstable/podu/ctr';
  const rows: { name: string; kmsg: OOMKill[]; delta: OOMCounts; want: Omit<OOMReport, 'named'> & { named: number[] }; left: number }[] = [
    { name: 'a single kill named by kmsg', kmsg: [kill(42, 'tail', cg)], delta: c(1), want: { named: [42], unnamed: 0, groupKills: 0, processes: 1, events: 1 }, left: 0 },
    { name: 'kmsg unreadable or rate-limited: the kill is counted, unnamed', kmsg: [], delta: c(1), want: { named: [], unnamed: 1, groupKills: 0, processes: 1, events: 1 }, left: 0 },
    { name: "another cgroup's kill is not taken", kmsg: [kill(7, 'x', '/other')], delta: c(1), want: { named: [], unnamed: 1, groupKills: 0, processes: 1, events: 1 }, left: 0 },
    { name: 'a trailing slash on the kmsg path still matches', kmsg: [kill(42, 'tail', `${cg}/`)], delta: c(1), want: { named: [42], unnamed: 0, groupKills: 0, processes: 1, events: 1 }, left: 0 },
    { name: 'two single kills, named in kmsg order', kmsg: [kill(42, 'a', cg), kill(43, 'b', cg)], delta: c(2), want: { named: [42, 43], unnamed: 0, groupKills: 0, processes: 2, events: 2 }, left: 0 },
    { name: 'more kmsg records than kills: the rest waits for the next rise', kmsg: [kill(42, 'a', cg), kill(43, 'b', cg)], delta: c(1), want: { named: [42], unnamed: 0, groupKills: 0, processes: 1, events: 1 }, left: 1 },
    { name: 'a group kill of 4 tasks: one event, its victim named, 4 processes', kmsg: [kill(42, 'tail', cg)], delta: c(5, 1), want: { named: [42], unnamed: 0, groupKills: 1, processes: 4, events: 1 }, left: 0 },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const k = new OOMKillCorrelator();
      for (const m of r.kmsg) k.kmsg(m);
      const got = k.take(cg, r.delta);
      assert.deepEqual({ ...got, named: got.named.map((n) => n.pid) }, r.want);
      assert.equal(k.waiting(cg), r.left);
    });
  }

  it('keeps at most `max` records, dropping the oldest', () => {
    const k = new OOMKillCorrelator(2);
    for (const pid of [1, 2, 3]) k.kmsg(kill(pid, 't', cg));
    assert.deepEqual(k.take(cg, c(3)).named.map((n) => n.pid), [2, 3]);
  });
});

describe('OOMKilling messages on cgroup v2', () => {
  const report = (o: Partial<OOMReport>): OOMReport => ({ named: [], unnamed: 0, groupKills: 0, processes: 1, events: 1, ...o });
  const t = (o: Partial<OOMReportTarget> = {}): OOMReportTarget => ({ container: 'app', oomKillMode: 'Single', ...o });
  const rows: { name: string; target: OOMReportTarget; report: OOMReport; want: string[] }[] = [
    {
      name: 'Single, a helper process killed, the container keeps running',
      target: t({ livingInitPid: 10 }),
      report: report({ named: [kill(42, 'tail', '/c')] }),
      want: ['Memory cgroup out of memory: Killed process 42 (tail) in container app; oomKillMode Single: the container keeps running'],
    },
    { name: "Single, the init killed (its pid): no event (the status says OOMKilled)", target: t({ livingInitPid: 42 }), report: report({ named: [kill(42, 'sh', '/c')] }), want: [] },
    { name: 'Single, the init gone from the cgroup: no event', target: t(), report: report({ named: [kill(42, 'tail', '/c')] }), want: [] },
    {
      name: 'Single, unnamed (no kmsg) while the init lives',
      target: t({ livingInitPid: 10 }),
      report: report({ unnamed: 2, events: 2, processes: 2 }),
      want: ['Memory cgroup out of memory: Killed 2 processes in container app; oomKillMode Single: the container keeps running'],
    },
    {
      name: 'Group, the kernel killed the group, victim named',
      target: t({ oomKillMode: 'Group' }),
      report: report({ named: [kill(42, 'tail', '/c')], groupKills: 1, processes: 4 }),
      want: ['Memory cgroup out of memory: Killed process 42 (tail) in container app; oomKillMode Group: the kernel killed all 4 processes of the container (memory.oom.group)'],
    },
    {
      name: 'Group, victim unnamed',
      target: t({ oomKillMode: 'Group' }),
      report: report({ unnamed: 1, groupKills: 1, processes: 3 }),
      want: ['Memory cgroup out of memory in container app; oomKillMode Group: the kernel killed all 3 processes of the container (memory.oom.group)'],
    },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(oomKillingMessages(r.target, r.report), r.want));
});
