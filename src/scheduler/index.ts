// The scheduler's rules: filters (fitsNode), scoring (score.ts) and the choice of a node (pickNode), the
// FailedScheduling message (failedSchedulingMessage), preemption (preempt and its parts), and
// the cache the decisions read (NodeInfo, SchedulerCache).
export * from './cache.js';
export * from './filters.js';
export * from './fiterror.js';
export { NodeInfo, HostPortInfo, podHostPorts, podInfo, amounts, type HostPort, type InfoGates, type PodInfo } from './nodeinfo.js';
export * from './pick.js';
export * from './preemption.js';
export * from './score.js';
