// The scheduler's rules: filters (fitsNode), scoring and the choice of a node (pickNode), the
// FailedScheduling message (failedSchedulingMessage).
export * from './filters.js';
export * from './pick.js';
