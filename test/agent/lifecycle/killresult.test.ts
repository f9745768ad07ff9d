// The kubelet's words for a kill that did not end a pod (src/agent/lifecycle/killresult.ts, after
// PodSyncResult.Error in pkg/kubelet/container/sync_result.go and the FailedKillPod event of
// SyncTerminatingPod): one row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deadlineExceeded, killPodError, type KillFailure } from '../../../src/agent/lifecycle/killresult.js';
import { messages, reasons } from '../../../src/agent/lifecycle/wording.js';

describe('killPodError', () => {
  const stuck = (name: string, message = deadlineExceeded): KillFailure => ({ action: 'KillContainer', target: name, message });
  const rows: { rule: string; failures: KillFailure[]; want: string }[] = [
    {
      rule: 'one container past its CRI timeout: the SyncResult alone, each part quoted',
      failures: [stuck('app')],
      want: 'failed to "KillContainer" for "app" with KillContainerError: "rpc error: code = DeadlineExceeded desc = context deadline exceeded"',
    },
    {
      rule: 'several: utilerrors.NewAggregate brackets them, comma-separated, in order',
      failures: [stuck('app'), stuck('sidecar', 'runc kill x KILL: exit status 1')],
      want: '[failed to "KillContainer" for "app" with KillContainerError: "rpc error: code = DeadlineExceeded desc = context deadline exceeded", failed to "KillContainer" for "sidecar" with KillContainerError: "runc kill x KILL: exit status 1"]',
    },
    {
      rule: 'the sandbox: KillPodSandbox for the pod UID with KillPodSandboxError',
      failures: [{ action: 'KillPodSandbox', target: 'u-1', message: deadlineExceeded }],
      want: 'failed to "KillPodSandbox" for "u-1" with KillPodSandboxError: "rpc error: code = DeadlineExceeded desc = context deadline exceeded"',
    },
    {
      rule: 'the message is %q-quoted: quotes and newlines escaped',
      failures: [stuck('app', 'said "no"\n')],
      want: 'failed to "KillContainer" for "app" with KillContainerError: "said \\"no\\"\\n"',
    },
    {
      rule: 'the same text twice is said once, without brackets',
      failures: [stuck('app'), stuck('app')],
      want: 'failed to "KillContainer" for "app" with KillContainerError: "rpc error: code = DeadlineExceeded desc = context deadline exceeded"',
    },
  ];
  for (const r of rows) it(r.rule, () => assert.equal(killPodError(r.failures), r.want));

  it('the event: FailedKillPod, "error killing pod: <error>"', () => {
    assert.equal(reasons.failedKillPod, 'FailedKillPod');
    assert.equal(messages.errorKillingPod('x'), 'error killing pod: x');
  });
});
