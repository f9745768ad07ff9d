// The scheduler's rules: filters (fitsNode), scoring and the choice of a node (pickNode), the
// FailedScheduling message (failedSchedulingMessage), preemption (preempt and its parts).
export * from './filters.js';
export * from './fiterror.js';
export * from './pick.js';
export * from './preemption.js';
