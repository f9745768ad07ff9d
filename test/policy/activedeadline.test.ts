// The kubelet's active deadline rule (active_deadline.go pastActiveDeadline): a deadline and a
// start time, and at least that long since the start.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Pod } from '../../src/api/types.js';
import { activeDeadlineRemainingMs, pastActiveDeadline } from '../../src/policy/activedeadline.js';

const pod = (activeDeadlineSeconds?: number): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...(activeDeadlineSeconds === undefined ? {} : { activeDeadlineSeconds }) },
});
const start = '2026-11-27T10:00:00Z';
const at = (seconds: number) => Date.parse(start) + seconds * 1000;

const rows: { name: string; pod: Pod; startTime?: string; now: number; past: boolean; left?: number }[] = [
  { name: 'no deadline: never', pod: pod(), startTime: start, now: at(1e9), past: false },
  { name: 'not started: never', pod: pod(5), now: at(1e9), past: false },
  { name: 'an unparsable start time counts as none', pod: pod(5), startTime: 'soon', now: at(1e9), past: false },
  { name: 'before the deadline', pod: pod(30), startTime: start, now: at(29), past: false, left: 1000 },
  { name: 'exactly at the deadline: past (duration >= allowed)', pod: pod(30), startTime: start, now: at(30), past: true, left: 0 },
  { name: 'after the deadline', pod: pod(30), startTime: start, now: at(45), past: true, left: -15000 },
  { name: 'a deadline of 0 is past as soon as the pod started', pod: pod(0), startTime: start, now: at(0), past: true, left: 0 },
];

for (const r of rows) {
  it(r.name, () => {
    assert.equal(pastActiveDeadline(r.pod, r.startTime, r.now), r.past);
    if (r.left !== undefined) assert.equal(activeDeadlineRemainingMs(r.pod, r.startTime, r.now), r.left);
  });
}
