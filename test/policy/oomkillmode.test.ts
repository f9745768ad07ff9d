// Effective OOM kill mode, from the OOM kill mode design (designs/000_563a1a7e2af205a5.txt, the
// revision Bulkhead follows) and DESIGN.md "Readings where the texts disagree": precedence
// container field > node singleProcessOOMKill > cgroup default (v2 Group, v1 Single); Group on a
// cgroup v1 node fails container creation with "oomKillMode=Group requires cgroup v2 support on
// the node" (and how to get Group after all) unless the agent's group-kill emulation is on. Reference §3.8: singleProcessOOMKill
// false on v1 is a configuration error.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  effectiveOOMKillMode,
  groupRequiresCgroupV2,
  groupRequiresCgroupV2Design,
  singleProcessOOMKillFalseOnV1,
  validateSingleProcessOOMKill,
  type OOMKillModeDecision,
  type OOMKillModeInput,
} from '../../src/policy/oomkillmode.js';

const groupV1Refusal = 'oomKillMode=Group requires cgroup v2 support on the node (run the node agent with --oom-group-emulation, or schedule the pod to a cgroup v2 node)';

const rows: [string, OOMKillModeInput, OOMKillModeDecision][] = [
  // cgroup default
  ['nothing set on v2: cgroup default Group', { cgroupVersion: 2 }, { mode: 'Group', source: 'default' }],
  ['nothing set on v1: cgroup default Single', { cgroupVersion: 1 }, { mode: 'Single', source: 'default' }],
  // node setting
  ['node singleProcessOOMKill=true on v2: Single from the node', { cgroupVersion: 2, singleProcessOOMKill: true }, { mode: 'Single', source: 'node' }],
  ['node singleProcessOOMKill=false on v2: Group from the node', { cgroupVersion: 2, singleProcessOOMKill: false }, { mode: 'Group', source: 'node' }],
  ['node singleProcessOOMKill=true on v1: Single from the node', { cgroupVersion: 1, singleProcessOOMKill: true }, { mode: 'Single', source: 'node' }],
  ['node singleProcessOOMKill=false on v1: still Single (v1 cannot group-kill)', { cgroupVersion: 1, singleProcessOOMKill: false }, { mode: 'Single', source: 'node' }],
  // container field wins
  ['container Single overrides node false on v2', { cgroupVersion: 2, containerMode: 'Single', singleProcessOOMKill: false }, { mode: 'Single', source: 'container' }],
  ['container Group overrides node true on v2', { cgroupVersion: 2, containerMode: 'Group', singleProcessOOMKill: true }, { mode: 'Group', source: 'container' }],
  ['container Single overrides the v2 default', { cgroupVersion: 2, containerMode: 'Single' }, { mode: 'Single', source: 'container' }],
  ['container Single on v1 is fine', { cgroupVersion: 1, containerMode: 'Single' }, { mode: 'Single', source: 'container' }],
  // Group on v1
  ['container Group on v1 fails creation with the design\'s message (no fallback to Single)', { cgroupVersion: 1, containerMode: 'Group' }, { mode: 'Group', source: 'container', error: groupV1Refusal }],
  ['container Group on v1 with node true still fails', { cgroupVersion: 1, containerMode: 'Group', singleProcessOOMKill: true }, { mode: 'Group', source: 'container', error: groupV1Refusal }],
  ['container Group on v1 with group emulation is emulated, no error', { cgroupVersion: 1, containerMode: 'Group', groupEmulation: true }, { mode: 'Group', source: 'container', emulated: true }],
  ['group emulation does not change a v2 Group', { cgroupVersion: 2, containerMode: 'Group', groupEmulation: true }, { mode: 'Group', source: 'container' }],
  ['group emulation does not turn the v1 default into Group', { cgroupVersion: 1, groupEmulation: true }, { mode: 'Single', source: 'default' }],
  // field values the API would have rejected are not a container choice
  ['an unknown container value falls through to the node setting', { cgroupVersion: 2, containerMode: 'Whole', singleProcessOOMKill: true }, { mode: 'Single', source: 'node' }],
  ['an empty container value falls through to the default', { cgroupVersion: 2, containerMode: '' }, { mode: 'Group', source: 'default' }],
];

describe('effectiveOOMKillMode: precedence container > node > cgroup default', () => {
  for (const [name, input, want] of rows) it(name, () => assert.deepEqual(effectiveOOMKillMode(input), want));
  it('the v1 Group error text starts with the design\'s sentence and then names the remedy', () => {
    assert.equal(groupRequiresCgroupV2Design, 'oomKillMode=Group requires cgroup v2 support on the node');
    assert.equal(groupRequiresCgroupV2, groupV1Refusal);
    assert.ok(groupRequiresCgroupV2.startsWith(`${groupRequiresCgroupV2Design} (`));
  });
});

describe('validateSingleProcessOOMKill: node configuration', () => {
  const vrows: [string, boolean | undefined, 1 | 2, string | undefined][] = [
    ['false on v1 is rejected', false, 1, singleProcessOOMKillFalseOnV1],
    ['true on v1 is fine', true, 1, undefined],
    ['unset on v1 is fine', undefined, 1, undefined],
    ['false on v2 is fine', false, 2, undefined],
    ['true on v2 is fine', true, 2, undefined],
  ];
  for (const [name, v, cg, want] of vrows) it(name, () => assert.equal(validateSingleProcessOOMKill(v, cg), want));
});
