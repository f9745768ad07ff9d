// The API token in a running pod, end to end: `bulkhead up`, the real kubectl, runc on this
// host. A busybox pod admitted with the ServiceAccount plugin's projected kube-api-access-*
// volume finds /var/run/secrets/kubernetes.io/serviceaccount/{token,ca.crt,namespace} (read
// from its log): the token is the one the node agent asked for, bound to the pod, and
// authenticates as the pod's service account (`kubectl --token … auth whoami`, with the pod
// named in its extras); ca.crt is the cluster CA of kube-root-ca.crt; namespace is the pod's.
// A pod with automountServiceAccountToken: false has no such directory. The token stops working
// once the pod is deleted.
// Needs root, runc, conmon, busybox-static and kubectl; anywhere else the suite skips and says why.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type UpCluster } from './upcluster.js';

const reason = realKernelSkipReason(['runc', 'conmon']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/serviceaccounttoken.test: SKIPPING service account token end-to-end tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

const dir = '/var/run/secrets/kubernetes.io/serviceaccount';

describe('the API token in a pod (bulkhead up, real kubectl, runc)', skip, () => {
  let c: UpCluster;

  before(async () => {
    c = await startUp();
  });
  after(async () => {
    await c?.stop();
  });

  const logs = async (pod: string) => (await c.kubectl(['logs', pod])).stdout;

  it('token, ca.crt and namespace are there, and the token is the pod\'s service account', async () => {
    await c.ok(['create', 'serviceaccount', 'reader']);
    await c.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: {name: token-reader}
spec:
  serviceAccountName: reader
  containers:
  - name: c
    image: busybox
    command: ["sh", "-c", "echo token=$(cat ${dir}/token); echo namespace=$(cat ${dir}/namespace); echo ca-begin; cat ${dir}/ca.crt; echo ca-end; touch ${dir}/x 2>/dev/null || echo read-only; sleep 3600"]
`);
    await c.until('the pod prints its files', async () => ((await logs('token-reader')).includes('ca-end') ? true : undefined), 120_000);
    const out = await logs('token-reader');
    const pod = JSON.parse(await c.ok(['get', 'pod', 'token-reader', '-o', 'json']));
    const volume = pod.spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
    assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(pod.spec.containers[0].volumeMounts, [{ name: volume.name, readOnly: true, mountPath: dir }]);

    assert.match(out, /^namespace=default$/m);
    assert.match(out, /^read-only$/m, 'the mount is read-only');
    const ca = /ca-begin\n([\s\S]*?)ca-end/.exec(out)![1]!;
    const rootCA = JSON.parse(await c.ok(['get', 'configmap', 'kube-root-ca.crt', '-o', 'json'])).data['ca.crt'];
    assert.equal(ca.trim(), rootCA.trim());

    const token = /^token=(\S+)$/m.exec(out)![1]!;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    assert.deepEqual(claims['kubernetes.io'].pod, { name: 'token-reader', uid: pod.metadata.uid });
    assert.equal(claims['kubernetes.io'].node.name, pod.spec.nodeName);
    const who = JSON.parse(await c.ok(['--token', token, 'auth', 'whoami', '-o', 'json'])).status.userInfo;
    assert.equal(who.username, 'system:serviceaccount:default:reader');
    assert.deepEqual(who.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    assert.deepEqual(who.extra['authentication.kubernetes.io/pod-name'], ['token-reader']);
    assert.deepEqual(who.extra['authentication.kubernetes.io/pod-uid'], [pod.metadata.uid]);
    assert.deepEqual(who.extra['authentication.kubernetes.io/node-name'], [pod.spec.nodeName]);

    await c.ok(['delete', 'pod', 'token-reader', '--grace-period=0', '--force']);
    await c.until('the deleted pod\'s token stops working', async () => ((await c.kubectl(['--token', token, 'auth', 'whoami'])).code !== 0 ? true : undefined), 60_000);
  });

  it('automountServiceAccountToken: false leaves the directory out', async () => {
    await c.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: {name: no-token}
spec:
  automountServiceAccountToken: false
  restartPolicy: Never
  containers:
  - name: c
    image: busybox
    command: ["sh", "-c", "ls ${dir} 2>/dev/null && echo present || echo absent"]
`);
    await c.until('the pod says', async () => (/present|absent/.test(await logs('no-token')) ? true : undefined), 120_000);
    assert.match(await logs('no-token'), /^absent$/m);
    const pod = JSON.parse(await c.ok(['get', 'pod', 'no-token', '-o', 'json']));
    assert.equal((pod.spec.volumes ?? []).length, 0);
  });
});
