// ConfigMaps and Secrets in running pods, end to end (issue 11's "a configMap volume's file
// changes in the running container after `kubectl edit`"): `bulkhead up`, the real kubectl,
// runc on this host. A ConfigMap made with `kubectl create configmap` reaches a container as env
// (configMapKeyRef) and as a file (a configMap volume); `kubectl edit` of the ConfigMap (with
// KUBE_EDITOR a sed that changes the value, as a user's editor would) changes
// the file in the running container, as the kubelet's atomic writer does on its sync (read here
// from `kubectl logs` of a container that prints the file in a loop); a Secret arrives as env and
// as a volume; a pod whose ConfigMap is missing waits in ContainerCreating with upstream's
// FailedMount event and runs once the ConfigMap is created.
// Needs root, runc, conmon, busybox-static and kubectl; anywhere else the suite skips and says why.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type UpCluster } from './upcluster.js';

const reason = realKernelSkipReason(['runc', 'conmon']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/configvolumes.test: SKIPPING ConfigMap and Secret end-to-end tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

describe('ConfigMaps and Secrets in pods (bulkhead up, real kubectl, runc)', skip, () => {
  let c: UpCluster;

  before(async () => {
    // kubectl edit runs `$KUBE_EDITOR FILE` through the shell when the editor has arguments.
    process.env.KUBE_EDITOR = 'sed -i -e s/color:\\ blue/color:\\ green/';
    c = await startUp();
  });
  after(async () => {
    await c?.stop();
  });

  const logs = async (pod: string) => (await c.kubectl(['logs', pod])).stdout;

  it('a ConfigMap as env and as a file; kubectl edit changes the file in the running container', async () => {
    await c.ok(['create', 'configmap', 'app-config', '--from-literal=greeting=hello', '--from-literal=color=blue']);
    await c.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: {name: reader}
spec:
  containers:
  - name: c
    image: busybox
    command: ["sh", "-c", "echo env=$GREETING; while true; do echo file=$(cat /etc/app/color); sleep 0.5; done"]
    env:
    - name: GREETING
      valueFrom: {configMapKeyRef: {name: app-config, key: greeting}}
    volumeMounts: [{name: cfg, mountPath: /etc/app}]
  volumes:
  - name: cfg
    configMap: {name: app-config}
`);
    await c.until('reader prints the file', async () => ((await logs('reader')).includes('file=blue') ? true : undefined), 120_000);
    assert.match(await logs('reader'), /^env=hello$/m);
    await c.ok(['edit', 'configmap', 'app-config']);
    assert.match(await c.ok(['get', 'configmap', 'app-config', '-o', 'jsonpath={.data.color}']), /^green$/, 'the edit was saved');
    // The agent rewrites the files on the pod's next sync (its resync period, as the kubelet's).
    await c.until('the file changes in the running container', async () => ((await logs('reader')).includes('file=green') ? true : undefined), 180_000);
    const pod = await c.pod('reader');
    assert.equal(pod.status.containerStatuses?.[0]?.restartCount, 0, 'the container kept running');
  });

  it('a Secret as env and as a volume', async () => {
    await c.ok(['create', 'secret', 'generic', 'db', '--from-literal=password=hunter2']);
    await c.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: {name: secret-reader}
spec:
  restartPolicy: Never
  containers:
  - name: c
    image: busybox
    command: ["sh", "-c", "echo env=$PW; echo file=$(cat /secrets/password); ls -l /secrets/..data/password"]
    env:
    - name: PW
      valueFrom: {secretKeyRef: {name: db, key: password}}
    volumeMounts: [{name: s, mountPath: /secrets}]
  volumes:
  - name: s
    secret: {secretName: db}
`);
    const out = await c.until('secret-reader printed', async () => {
      const p = await c.pod('secret-reader');
      return p.status.phase === 'Succeeded' ? logs('secret-reader') : undefined;
    }, 120_000);
    assert.match(out, /^env=hunter2$/m);
    assert.match(out, /^file=hunter2$/m);
    assert.match(out, /^-rw-r--r-- /m, 'mode 0644, the default');
  });

  it('a missing ConfigMap: ContainerCreating with FailedMount, then it runs once created', async () => {
    await c.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: {name: waiter}
spec:
  containers:
  - name: c
    image: busybox
    command: ["sh", "-c", "cat /cfg/k; sleep 3600"]
    volumeMounts: [{name: cfg, mountPath: /cfg}]
  volumes:
  - name: cfg
    configMap: {name: later}
`);
    const event = await c.until('FailedMount event', async () => {
      const r = await c.kubectl(['get', 'events', '--field-selector', 'involvedObject.name=waiter,reason=FailedMount', '-o', 'jsonpath={.items[*].message}']);
      return r.stdout.includes('MountVolume.SetUp failed') ? r.stdout : undefined;
    }, 120_000);
    assert.match(event, /MountVolume\.SetUp failed for volume "cfg" : configmap "later" not found/);
    const waiting = await c.pod('waiter');
    assert.equal(waiting.status.containerStatuses?.[0]?.state.waiting?.reason, 'ContainerCreating');
    await c.ok(['create', 'configmap', 'later', '--from-literal=k=arrived']);
    await c.until('waiter runs', async () => ((await c.pod('waiter')).status.containerStatuses?.[0]?.state.running ? true : undefined), 240_000);
    await c.until('waiter read the file', async () => ((await logs('waiter')).includes('arrived') ? true : undefined), 60_000);
  });
});
