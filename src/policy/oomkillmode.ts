// Effective OOM kill mode of a container (OOM kill mode design, revision 000): the container's
// `oomKillMode`, else the node agent's `singleProcessOOMKill`, else the cgroup default
// (v2: Group, v1: Single). Group on a cgroup v1 node fails container creation unless the
// agent emulates group kill.

import type { CgroupVersion } from './cgroupvalues.js';

export type OOMKillModeValue = 'Single' | 'Group';
export type OOMKillModeSource = 'container' | 'node' | 'default';

export interface OOMKillModeInput {
  /** The container's field, already dropped by the API when the gate is off. */
  containerMode?: string;
  /** Node agent setting; undefined when not configured. */
  singleProcessOOMKill?: boolean;
  cgroupVersion: CgroupVersion;
  /** Agent switch that makes Group work on v1 by killing the container's other processes. */
  groupEmulation?: boolean;
}

export interface OOMKillModeDecision {
  mode: OOMKillModeValue;
  source: OOMKillModeSource;
  /** Set when the container cannot be created with this mode on this node. */
  error?: string;
  /** True when Group on v1 is provided by the agent rather than by memory.oom.group. */
  emulated?: boolean;
}

/** The design's error text (both revisions' Go code), which the refusal starts with. */
export const groupRequiresCgroupV2Design = 'oomKillMode=Group requires cgroup v2 support on the node';
/** The refusal: the design's sentence, then how to get Group on this kind of node after all. */
export const groupRequiresCgroupV2 = `${groupRequiresCgroupV2Design} (run the node agent with --oom-group-emulation, or schedule the pod to a cgroup v2 node)`;
export const singleProcessOOMKillFalseOnV1 =
  'invalid configuration: singleProcessOOMKill must not be explicitly set to false when using cgroup v1';

export function effectiveOOMKillMode(input: OOMKillModeInput): OOMKillModeDecision {
  const v2 = input.cgroupVersion === 2;
  if (input.containerMode === 'Single' || input.containerMode === 'Group') {
    const d: OOMKillModeDecision = { mode: input.containerMode, source: 'container' };
    if (input.containerMode === 'Group' && !v2) {
      if (input.groupEmulation) d.emulated = true;
      else d.error = groupRequiresCgroupV2;
    }
    return d;
  }
  if (input.singleProcessOOMKill !== undefined) {
    return { mode: input.singleProcessOOMKill || !v2 ? 'Single' : 'Group', source: 'node' };
  }
  return { mode: v2 ? 'Group' : 'Single', source: 'default' };
}

/** Kubelet config validation: singleProcessOOMKill=false is meaningless on v1. */
export function validateSingleProcessOOMKill(value: boolean | undefined, cgroupVersion: CgroupVersion): string | undefined {
  return value === false && cgroupVersion === 1 ? singleProcessOOMKillFalseOnV1 : undefined;
}
