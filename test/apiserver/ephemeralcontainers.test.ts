// pods/ephemeralcontainers over HTTPS, as kube-apiserver serves it: GET answers the pod, a
// strategic-merge PATCH or a PUT adds ephemeral containers (defaulted as a decoded pod's are),
// changing or removing one is 422 with ValidatePodEphemeralContainersUpdate's causes, the main
// pod path refuses spec.ephemeralContainers changes, and the real `kubectl debug` adds one.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubectlFound, kubectlSkip, useTestServer } from './kubectlserver.js';

const podPath = (name: string) => `/api/v1/namespaces/default/pods/${name}`;
const ecPath = (name: string) => `${podPath(name)}/ephemeralcontainers`;
const smp = { 'Content-Type': 'application/strategic-merge-patch+json' };
const debugger1 = { name: 'debugger', image: 'busybox', targetContainerName: 'app', stdin: true, tty: true };

describe('pods/ephemeralcontainers', () => {
  const t = useTestServer('bulkhead-ephemeral-');
  let n = 0;
  const create = async (extra: Record<string, unknown> = {}, spec: Record<string, unknown> = {}): Promise<string> => {
    const name = `ec-${n++}`;
    const r = await t.admin().request('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...extra }, spec: { containers: [{ name: 'app', image: 'busybox' }], ...spec } });
    assert.equal(r.status, 201, r.text);
    return name;
  };
  const addDebugger = async (name: string) => {
    const r = await t.admin().request('PATCH', ecPath(name), { spec: { ephemeralContainers: [debugger1] } }, smp);
    assert.equal(r.status, 200, r.text);
    return r.json();
  };

  it('GET answers the pod', async () => {
    const name = await create();
    const r = await t.admin().request('GET', ecPath(name));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().kind, 'Pod');
    assert.equal(r.json().metadata.name, name);
  });

  it('a strategic-merge PATCH adds an ephemeral container, defaulted, and records the subresource in managedFields', async () => {
    const name = await create();
    const pod = await addDebugger(name);
    const ec = pod.spec.ephemeralContainers;
    assert.equal(ec.length, 1);
    assert.equal(ec[0].name, 'debugger');
    assert.equal(ec[0].targetContainerName, 'app');
    assert.equal(ec[0].terminationMessagePath, '/dev/termination-log');
    assert.equal(ec[0].terminationMessagePolicy, 'File');
    assert.equal(ec[0].imagePullPolicy, 'Always');
    assert.ok(pod.metadata.managedFields.some((m: { subresource?: string }) => m.subresource === 'ephemeralcontainers'), JSON.stringify(pod.metadata.managedFields));
    const second = await t.admin().request('PATCH', ecPath(name), { spec: { ephemeralContainers: [{ name: 'debugger-2', image: 'busybox' }] } }, smp);
    assert.equal(second.status, 200, second.text);
    // A strategic merge puts a new list item before the server's (mergeSortedSlice); kubectl debug sends $setElementOrder.
    assert.deepEqual(second.json().spec.ephemeralContainers.map((c: { name: string }) => c.name), ['debugger-2', 'debugger']);
  });

  it('a PUT adds one; other spec changes in the body are dropped', async () => {
    const name = await create();
    const pod = (await t.admin().request('GET', podPath(name))).json();
    pod.spec.ephemeralContainers = [{ name: 'put-debugger', image: 'busybox' }];
    pod.spec.activeDeadlineSeconds = 30;
    const r = await t.admin().request('PUT', ecPath(name), pod);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().spec.ephemeralContainers[0].name, 'put-debugger');
    assert.equal(r.json().spec.activeDeadlineSeconds, undefined);
  });

  const refused: { name: string; patch: (pod: { spec: Record<string, unknown> }) => unknown; type: string; causes: { field: string; message: RegExp }[] }[] = [
    {
      name: 'changing an existing ephemeral container is Forbidden',
      patch: () => ({ spec: { ephemeralContainers: [{ ...debugger1, image: 'alpine' }] } }),
      type: 'application/strategic-merge-patch+json',
      causes: [{ field: 'spec.ephemeralContainers', message: /^Forbidden: existing ephemeral containers "debugger" may not be changed\n-\timage: "busybox"\n\+\timage: "alpine"$/ }],
    },
    {
      name: 'removing an existing ephemeral container is Forbidden',
      patch: () => ({ spec: { ephemeralContainers: [] } }),
      type: 'application/merge-patch+json',
      causes: [{ field: 'spec.ephemeralContainers', message: /^Forbidden: existing ephemeral containers "debugger" may not be removed\n$/ }],
    },
    {
      name: 'a name taken by a container is Duplicate',
      patch: () => ({ spec: { ephemeralContainers: [{ name: 'app', image: 'busybox' }] } }),
      type: 'application/strategic-merge-patch+json',
      causes: [{ field: 'spec.ephemeralContainers[0].name', message: /^Duplicate value: "app"$/ }],
    },
    {
      name: 'ports are Forbidden on an ephemeral container',
      patch: () => ({ spec: { ephemeralContainers: [{ name: 'p', image: 'busybox', ports: [{ containerPort: 80 }] }] } }),
      type: 'application/strategic-merge-patch+json',
      causes: [{ field: 'spec.ephemeralContainers[0].ports', message: /^Forbidden: cannot be set for an Ephemeral Container$/ }],
    },
    {
      name: 'a target that names no container is Not found',
      patch: () => ({ spec: { ephemeralContainers: [{ name: 't', image: 'busybox', targetContainerName: 'nope' }] } }),
      type: 'application/strategic-merge-patch+json',
      causes: [{ field: 'spec.ephemeralContainers[0].targetContainerName', message: /^Not found: "nope"$/ }],
    },
  ];
  for (const c of refused) {
    it(`${c.name} (422)`, async () => {
      const name = await create();
      await addDebugger(name);
      const r = await t.admin().request('PATCH', ecPath(name), c.patch({ spec: {} }), { 'Content-Type': c.type });
      assert.equal(r.status, 422, r.text);
      const body = r.json();
      assert.equal(body.reason, 'Invalid');
      assert.match(body.message, new RegExp(`^Pod "${name}" is invalid: `));
      const causes = body.details.causes as { field: string; message: string }[];
      assert.equal(causes.length, c.causes.length, JSON.stringify(causes));
      c.causes.forEach((want, i) => {
        assert.equal(causes[i]!.field, want.field);
        assert.match(`${causes[i]!.message}`, want.message);
      });
      // Nothing was written.
      const pod = (await t.admin().request('GET', podPath(name))).json();
      assert.deepEqual(pod.spec.ephemeralContainers.map((e: { name: string; image: string }) => `${e.name}:${e.image}`), ['debugger:busybox']);
    });
  }

  it('a static pod takes no ephemeral containers', async () => {
    // A mirror pod names its node (ValidatePodSpecificAnnotations).
    const name = await create({ annotations: { 'kubernetes.io/config.mirror': 'mirror' } }, { nodeName: 'node-1' });
    const r = await t.admin().request('PATCH', ecPath(name), { spec: { ephemeralContainers: [debugger1] } }, smp);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json().details.causes[0].message, 'Forbidden: static pods do not support ephemeral containers');
  });

  it('the pod itself refuses spec.ephemeralContainers changes: an update may not add one', async () => {
    const name = await create();
    const r = await t.admin().request('PATCH', podPath(name), { spec: { ephemeralContainers: [debugger1] } }, smp);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json().details.causes[0].field, 'spec');
    assert.match(r.json().details.causes[0].message, /^Forbidden: pod updates may not change fields other than /);
  });

  describe('Pod Security evaluates the pod when an ephemeral container is added', () => {
    const ns = 'psa-baseline';
    const nsPod = (name: string) => `/api/v1/namespaces/${ns}/pods/${name}`;
    let created = false;
    const createIn = async (name: string) => {
      if (!created) {
        const r = await t.admin().request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' } } });
        assert.equal(r.status, 201, r.text);
        created = true;
      }
      const r = await t.admin().request('POST', `/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'busybox' }] } });
      assert.equal(r.status, 201, r.text);
    };
    const rows: { name: string; securityContext?: Record<string, unknown>; status: number; message?: RegExp; warning?: RegExp }[] = [
      {
        name: 'a privileged debugger is refused by enforce=baseline (403, the PodSecurity words)',
        securityContext: { privileged: true },
        status: 403,
        message: /^pods "psa-0" is forbidden: violates PodSecurity "baseline:latest": privileged \(container "debugger" must not set securityContext\.privileged=true\)$/,
      },
      {
        name: 'an unprivileged debugger is allowed, with the warn=restricted warning naming it',
        status: 200,
        // The Warning header quotes the text: its quotes are escaped.
        warning: /^299 - "would violate PodSecurity \\"restricted:latest\\": allowPrivilegeEscalation != false \(containers \\"app\\", \\"debugger\\" must set/,
      },
    ];
    rows.forEach((row, i) => {
      it(row.name, async () => {
        const name = `psa-${i}`;
        await createIn(name);
        const ec = { name: 'debugger', image: 'busybox', ...(row.securityContext ? { securityContext: row.securityContext } : {}) };
        const r = await t.admin().request('PATCH', `${nsPod(name)}/ephemeralcontainers`, { spec: { ephemeralContainers: [ec] } }, smp);
        assert.equal(r.status, row.status, r.text);
        if (row.message) assert.match(r.json().message, row.message);
        if (row.warning) assert.match(String(r.headers['warning'] ?? ''), row.warning);
      });
    });
  });

  it('discovery lists pods/ephemeralcontainers with get, patch and update', async () => {
    const r = await t.admin().request('GET', '/api/v1');
    const sub = r.json().resources.find((x: { name: string }) => x.name === 'pods/ephemeralcontainers');
    assert.ok(sub, 'pods/ephemeralcontainers not in /api/v1');
    assert.equal(sub.kind, 'Pod');
    assert.deepEqual(sub.verbs, ['get', 'patch', 'update']);
  });

  it('a node may not add ephemeral containers', async () => {
    const name = await create();
    const { Client } = await import('./client.js');
    const s = t.server();
    const node = new Client(s.url, s.caCert, s.nodeToken('node-1'));
    try {
      const r = await node.request('PATCH', ecPath(name), { spec: { ephemeralContainers: [debugger1] } }, smp);
      assert.equal(r.status, 403, r.text);
    } finally {
      node.close();
    }
  });

  it('the real kubectl debug adds an ephemeral container targeting the container', { skip: !kubectlFound && kubectlSkip }, async () => {
    const name = await create();
    const r = await t.kubectl('debug', name, '--image=busybox', '--target=app', '--', 'sh', '-c', 'echo hi');
    assert.equal(r.code, 0, r.stderr);
    const pod = (await t.admin().request('GET', podPath(name))).json();
    const ec = pod.spec.ephemeralContainers;
    assert.equal(ec.length, 1, JSON.stringify(ec));
    assert.match(ec[0].name, /^debugger-/);
    assert.equal(ec[0].targetContainerName, 'app');
    assert.deepEqual(ec[0].command, ['sh', '-c', 'echo hi']);
  });
});
