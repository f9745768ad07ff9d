// containerSwapFiles: the kubelet's NoSwap (pkg/kubelet/kuberuntime/kuberuntime_container_linux.go
// @ v1.32 configureContainerSwapResources / swapConfigurationHelper.ConfigureNoSwap), as upstream's
// TestGenerateLinuxContainerResourcesWithSwap checks it: expectNoSwap (v1: the memsw limit equals
// the memory limit; v2: memory.swap.max "0") and expectSwapDisabled (no swap controller: neither
// is set). Its pod-shaped rows run through the plan in test/plan/node.test.ts.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { containerSwapFiles, type ContainerSwapInput } from '../../src/policy/swap.js';

const Mi64 = 64n << 20n;

describe('containerSwapFiles (NoSwap, the default swap behaviour)', () => {
  const rows: [string, ContainerSwapInput, Record<string, string>][] = [
    ['v1 with the swap controller: memsw limit = memory limit', { cgroupVersion: 1, swapControllerAvailable: true, memoryLimit: Mi64 }, { 'memory.memsw.limit_in_bytes': '67108864' }],
    ['v1 with the swap controller, no memory limit: the CRI\'s 0 sets no memsw limit', { cgroupVersion: 1, swapControllerAvailable: true, memoryLimit: 0n }, {}],
    ['v1 without the swap controller: nothing, limit or not', { cgroupVersion: 1, swapControllerAvailable: false, memoryLimit: Mi64 }, {}],
    ['v2 with the swap controller: memory.swap.max 0', { cgroupVersion: 2, swapControllerAvailable: true, memoryLimit: Mi64 }, { 'memory.swap.max': '0' }],
    ['v2 with the swap controller, no memory limit: memory.swap.max 0 all the same', { cgroupVersion: 2, swapControllerAvailable: true, memoryLimit: 0n }, { 'memory.swap.max': '0' }],
    ['v2 without the swap controller: nothing', { cgroupVersion: 2, swapControllerAvailable: false, memoryLimit: Mi64 }, {}],
  ];
  for (const [name, input, want] of rows) it(name, () => assert.deepEqual(containerSwapFiles(input), want));
});
