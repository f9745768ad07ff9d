// A container's process from the pod spec and the image config, as Kubernetes defines it:
// $(VAR) expansion, env, command/args over entrypoint/cmd, the user, runAsNonRoot.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkSubPath, ContainerConfigError, containerEnv, expand, processArgs, processEnv, processUser } from '../../../src/agent/lifecycle/containerconfig.js';
import type { Container, Pod } from '../../../src/api/types.js';

const pod = (over: Partial<Pod['spec']> = {}, meta: Partial<Pod['metadata']> = {}): Pod =>
  ({ metadata: { name: 'web', namespace: 'shop', uid: 'u-1', labels: { app: 'w' }, ...meta }, spec: { containers: [], nodeName: 'n1', ...over } }) as Pod;

describe('expand (the kubelet\'s $(VAR) syntax)', () => {
  const vars: Record<string, string> = { A: 'a', EMPTY: '' };
  const rows: [string, string][] = [
    ['$(A)', 'a'],
    ['x$(A)y$(A)', 'xaya'],
    ['$(B)', '$(B)'],
    ['$$(A)', '$(A)'],
    ['$$', '$'],
    ['$A', '$A'],
    ['a$', 'a$'],
    ['$(', '$('],
    ['$(A', '$(A'],
    ['$(EMPTY)-', '-'],
    ['no vars', 'no vars'],
  ];
  for (const [input, out] of rows) it(`${JSON.stringify(input)} → ${JSON.stringify(out)}`, () => assert.equal(expand(input, (n) => vars[n]), out));
});

describe('containerEnv', () => {
  const rows: { name: string; env: Container['env']; want: [string, string][] }[] = [
    { name: 'values expand earlier variables only', env: [{ name: 'A', value: 'x' }, { name: 'B', value: '$(A)-$(C)' }, { name: 'C', value: 'c' }], want: [['A', 'x'], ['B', 'x-$(C)'], ['C', 'c']] },
    { name: 'a repeated name keeps its first position with the last value', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }, { name: 'A', value: '3' }], want: [['A', '3'], ['B', '2']] },
    {
      name: 'fieldRef: metadata and spec fields',
      env: [
        { name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'UID', valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } },
        { name: 'L', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
        { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      ],
      want: [['N', 'web'], ['NS', 'shop'], ['UID', 'u-1'], ['L', 'w'], ['NODE', 'n1']],
    },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(containerEnv(pod(), { name: 'c', env: r.env }), r.want));

  const ipEnv: Container['env'] = [
    { name: 'HOST', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
    { name: 'HOSTS', valueFrom: { fieldRef: { fieldPath: 'status.hostIPs' } } },
    { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
    { name: 'PODS', valueFrom: { fieldRef: { fieldPath: 'status.podIPs' } } },
  ];
  const addr = { hostIPs: ['10.0.0.5', 'fd00::5'] };
  const ipRows: { name: string; pod: Pod; want: [string, string][] }[] = [
    {
      name: 'fieldRef status.hostIP(s): the node\'s addresses, known before the pod has a status',
      pod: pod(),
      want: [['HOST', '10.0.0.5'], ['HOSTS', '10.0.0.5,fd00::5'], ['POD', ''], ['PODS', '']],
    },
    {
      name: 'fieldRef status.podIP(s) of a hostNetwork pod: the node\'s addresses',
      pod: pod({ hostNetwork: true }),
      want: [['HOST', '10.0.0.5'], ['HOSTS', '10.0.0.5,fd00::5'], ['POD', '10.0.0.5'], ['PODS', '10.0.0.5,fd00::5']],
    },
  ];
  for (const r of ipRows) it(r.name, () => assert.deepEqual(containerEnv(r.pod, { name: 'c', env: ipEnv }, addr), r.want));

  it('Secrets and ConfigMaps cannot be read yet: CreateContainerConfigError', () => {
    assert.throws(
      () => containerEnv(pod(), { name: 'c', env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] }),
      (e: unknown) => e instanceof ContainerConfigError && e.reason === 'CreateContainerConfigError' && e.message === "env P: secretKeyRef is not supported by Bulkhead's node agent yet",
    );
  });
});

describe('processArgs (containerd\'s merge with the image)', () => {
  const image = { entrypoint: ['/entry'], cmd: ['default-arg'] };
  const rows: { name: string; c: Partial<Container>; image?: { entrypoint: string[] | null; cmd: string[] | null }; want: string[] }[] = [
    { name: 'neither: entrypoint + cmd', c: {}, want: ['/entry', 'default-arg'] },
    { name: 'args only: entrypoint + args', c: { args: ['x'] }, want: ['/entry', 'x'] },
    { name: 'command only: the image cmd is dropped', c: { command: ['/bin/sh'] }, want: ['/bin/sh'] },
    { name: 'command and args', c: { command: ['/bin/sh', '-c'], args: ['echo $(GREETING) $(UNSET)'] }, want: ['/bin/sh', '-c', 'echo hi $(UNSET)'] },
    { name: 'an entrypoint of [""] means none', c: {}, image: { entrypoint: [''], cmd: ['sh'] }, want: ['sh'] },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(processArgs({ name: 'c', ...r.c }, r.image ?? image, [['GREETING', 'hi']]), r.want));

  it('nothing to run: CreateContainerError "no command specified"', () => {
    assert.throws(() => processArgs({ name: 'c' }, { entrypoint: null, cmd: null }, []), (e: unknown) => e instanceof ContainerConfigError && e.reason === 'CreateContainerError' && e.message === 'no command specified');
  });
});

describe('processEnv', () => {
  it('image env first, HOSTNAME, then the container\'s, a repeated name replaced in place', () => {
    assert.deepEqual(processEnv(['PATH=/bin', 'LANG=C'], 'web', [['LANG', 'en'], ['X', '1']]), ['PATH=/bin', 'LANG=en', 'HOSTNAME=web', 'X=1']);
  });
});

describe('processUser', () => {
  const passwd = 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\napp:x:1000:1001::/home/app:/bin/sh\n';
  const group = 'root:x:0:\nstaff:x:50:\n';
  const rows: { name: string; image: string; spec?: Partial<Pod['spec']>; c?: Partial<Container>; want: { uid: number; gid: number; additionalGids?: number[] } }[] = [
    { name: 'no user: root', image: '', want: { uid: 0, gid: 0 } },
    { name: 'a name from /etc/passwd', image: 'nobody', want: { uid: 65534, gid: 65534 } },
    { name: 'a uid takes its group from /etc/passwd', image: '1000', want: { uid: 1000, gid: 1001 } },
    { name: 'a uid not in /etc/passwd: group 0', image: '4242', want: { uid: 4242, gid: 0 } },
    { name: 'user:group by name', image: 'app:staff', want: { uid: 1000, gid: 50 } },
    { name: 'runAsUser wins over the image', image: 'nobody', c: { securityContext: { runAsUser: 1000 } }, want: { uid: 1000, gid: 1001 } },
    { name: 'pod runAsUser/runAsGroup and supplementalGroups', image: '', spec: { securityContext: { runAsUser: 7, runAsGroup: 8, supplementalGroups: [9, 8] } }, want: { uid: 7, gid: 8, additionalGids: [9] } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(processUser(pod(r.spec), { name: 'c', ...r.c }, r.image, passwd, group), r.want));

  const refusals: { name: string; image: string; c?: Partial<Container>; msg: string }[] = [
    { name: 'an unknown user name', image: 'ghost', msg: 'unable to find user ghost: no matching entries in passwd file' },
    { name: 'runAsNonRoot with an image that runs as root', image: '', c: { securityContext: { runAsNonRoot: true } }, msg: 'container has runAsNonRoot and image will run as root (pod: "web_shop(u-1)", container: c)' },
    { name: 'runAsNonRoot with a non-numeric image user', image: 'app', c: { securityContext: { runAsNonRoot: true } }, msg: 'container has runAsNonRoot and image has non-numeric user (app), cannot verify user is non-root (pod: "web_shop(u-1)", container: c)' },
    { name: 'runAsNonRoot with runAsUser 0', image: 'app', c: { securityContext: { runAsNonRoot: true, runAsUser: 0 } }, msg: 'container\'s runAsUser breaks non-root policy (pod: "web_shop(u-1)", container: c)' },
  ];
  for (const r of refusals) it(`refused: ${r.name}`, () => assert.throws(() => processUser(pod(), { name: 'c', ...r.c }, r.image, passwd, group), (e: unknown) => e instanceof ContainerConfigError && e.message === r.msg));

  it('runAsNonRoot with a numeric non-root image user is fine', () => {
    assert.deepEqual(processUser(pod(), { name: 'c', securityContext: { runAsNonRoot: true } }, '1000', passwd, group), { uid: 1000, gid: 1001 });
  });
});

describe('checkSubPath', () => {
  it('relative paths split into components', () => assert.deepEqual(checkSubPath('a/./b/', 'v'), ['a', 'b']));
  for (const bad of ['/abs', '../up', 'a/../../b']) it(`refuses ${bad}`, () => assert.throws(() => checkSubPath(bad, 'v'), ContainerConfigError));
});
