// The Kubernetes version Bulkhead speaks: kubectl's dispatcher picks its client from `minor`
// (1.29–1.33 work; 1.32 sends the requests recorded in shared/reference/kubectl-protocol.md).

export const kubernetesVersion = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.4-bulkhead',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-11-22T00:00:00Z',
  goVersion: 'go1.23.6',
  compiler: 'gc',
  platform: 'linux/amd64',
};
