// The User-Agent the controllers write with,
// client-go rest.DefaultKubernetesUserAgent followed by rest.AddUserAgent's suffix:
//   kube-controller-manager/v1.32.4 (linux/amd64) kubernetes/0000000/system:serviceaccount:kube-system:resourcequota-controller
// kube-apiserver names the managedFields manager of a write without fieldManager after the
// first "/" segment (handlers/patch.go managerOrUserAgent), so these writes are recorded as
// upstream's are: "kube-controller-manager", "kube-scheduler".

import { kubernetesVersion } from '../api/version.js';

export function componentUserAgent(binary: 'kube-controller-manager' | 'kube-scheduler', suffix: string): string {
  const version = kubernetesVersion.gitVersion.split('-')[0];
  return `${binary}/${version} (${kubernetesVersion.platform}) kubernetes/${kubernetesVersion.gitCommit.slice(0, 7)}/${suffix}`;
}
