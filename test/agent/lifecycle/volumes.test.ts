// The projected-file volumes' contents and the atomic writer's names, as pure rules
// (src/agent/lifecycle/volumes.ts, after pkg/volume/{configmap,secret,downwardapi,projected}
// and pkg/volume/util/atomic_writer.go), and hostPath's type checks: one row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatMap } from '../../../src/api/fieldpath.js';
import { checkPayloadPath, downwardFieldValue, failedMountMessage, hostPathCheck, payloadDiffers, resourceFieldValue, timestampedDirName, userVisiblePaths, volumePayload, VolumeSetUpError, type Payload, type PodObjects } from '../../../src/agent/lifecycle/volumes.js';
import type { Pod, Volume } from '../../../src/api/types.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const pod = { metadata: { name: 'web', namespace: 'shop', uid: 'u-1', labels: { app: 'w', tier: 'front' }, annotations: { note: 'say "hi"\n' } }, spec: { containers: [{ name: 'c', resources: { limits: { memory: '64Mi' }, requests: { cpu: '250m' } } }] } } as unknown as Pod;
const objects: PodObjects = {
  configMaps: new Map([
    ['cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'A', b: 'B' }, binaryData: { bin: b64('\u0001\u0002') } }],
    ['gone', null],
  ]),
  secrets: new Map([['s', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { pw: b64('secret') } }]]),
  serviceAccountTokens: new Map<string, { token: string } | { error: string }>([
    ['/3607', { token: 'tok-api' }],
    ['vault/3600', { token: 'tok-vault' }],
    ['denied/3600', { error: 'failed to fetch token: pods "web" not found' }],
  ]),
};
const files = (p: Payload) => Object.fromEntries([...p].map(([k, f]) => [k, `${f.data.toString('utf8')}@${f.mode.toString(8)}`]));

describe('volumePayload', () => {
  const rows: { rule: string; v: Volume; want?: Record<string, string>; error?: string }[] = [
    { rule: 'configMap: every key of data and binaryData, mode 0644', v: { name: 'v', configMap: { name: 'cm' } }, want: { a: 'A@644', b: 'B@644', bin: '\u0001\u0002@644' } },
    { rule: 'configMap items: key → path, item mode over defaultMode', v: { name: 'v', configMap: { name: 'cm', defaultMode: 0o400, items: [{ key: 'a', path: 'dir/a.txt' }, { key: 'b', path: 'b', mode: 0o600 }] } }, want: { 'dir/a.txt': 'A@400', b: 'B@600' } },
    { rule: 'configMap missing: upstream\'s NotFound', v: { name: 'v', configMap: { name: 'gone' } }, error: 'configmap "gone" not found' },
    { rule: 'configMap missing and optional: empty', v: { name: 'v', configMap: { name: 'gone', optional: true } }, want: {} },
    { rule: 'configMap item of a missing key', v: { name: 'v', configMap: { name: 'cm', items: [{ key: 'z', path: 'z' }] } }, error: 'configmap references non-existent config key: z' },
    { rule: 'configMap item of a missing key, optional: skipped', v: { name: 'v', configMap: { name: 'cm', optional: true, items: [{ key: 'z', path: 'z' }, { key: 'a', path: 'a' }] } }, want: { a: 'A@644' } },
    { rule: 'secret: decoded, mode 0644', v: { name: 'v', secret: { secretName: 's' } }, want: { pw: 'secret@644' } },
    { rule: 'secret missing', v: { name: 'v', secret: { secretName: 'nope' } }, error: 'secret "nope" not found' },
    { rule: 'secret item of a missing key', v: { name: 'v', secret: { secretName: 's', items: [{ key: 'x', path: 'x' }] } }, error: 'references non-existent secret key: x' },
    { rule: 'downwardAPI: metadata fields', v: { name: 'v', downwardAPI: { items: [{ path: 'name', fieldRef: { fieldPath: 'metadata.name' } }, { path: 'ns', fieldRef: { fieldPath: 'metadata.namespace' } }, { path: 'uid', fieldRef: { fieldPath: 'metadata.uid' } }, { path: 'app', fieldRef: { fieldPath: "metadata.labels['app']" } }] } }, want: { name: 'web@644', ns: 'shop@644', uid: 'u-1@644', app: 'w@644' } },
    { rule: 'projected: sources merged under one defaultMode', v: { name: 'v', projected: { defaultMode: 0o440, sources: [{ configMap: { name: 'cm', items: [{ key: 'a', path: 'a' }] } }, { secret: { name: 's' } }, { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } }] } }, want: { a: 'A@440', pw: 'secret@440', n: 'web@440' } },
    {
      rule: 'projected serviceAccountToken: the token fetched for its audience and lifetime, with the volume\'s mode',
      v: { name: 'v', projected: { defaultMode: 420, sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }, { serviceAccountToken: { path: 'vault', audience: 'vault' } }] } },
      want: { token: 'tok-api@644', vault: 'tok-vault@644' },
    },
    { rule: 'projected serviceAccountToken that could not be fetched: the token manager\'s error', v: { name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't', audience: 'denied' } }] } }, error: 'failed to fetch token: pods "web" not found' },
    { rule: 'projected serviceAccountToken without a client to ask', v: { name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't', audience: 'other' } }] } }, error: 'failed to fetch token: the node agent has no API client to ask for it' },
  ];
  for (const r of rows) {
    it(r.rule, () => {
      if (r.error) {
        assert.throws(() => volumePayload(r.v, pod, objects), (e: unknown) => e instanceof VolumeSetUpError && e.message === r.error);
        return;
      }
      assert.deepEqual(files(volumePayload(r.v, pod, objects)), r.want);
    });
  }
  it('FailedMount wording', () => {
    assert.equal(failedMountMessage('cfg', 'configmap "x" not found'), 'MountVolume.SetUp failed for volume "cfg" : configmap "x" not found');
  });
});

describe('downward API formatting', () => {
  it('labels: sorted key="value" lines', () => assert.equal(downwardFieldValue(pod, 'metadata.labels'), 'app="w"\ntier="front"'));
  it('annotations: Go-quoted values', () => assert.equal(formatMap(pod.metadata.annotations), 'note="say \\"hi\\"\\n"'));
  it('an unknown field', () => assert.throws(() => downwardFieldValue(pod, 'spec.nodeName'), /unsupported fieldPath: spec\.nodeName/));
  const rows: { rule: string; resource: string; divisor?: string; want: string }[] = [
    { rule: 'limits.memory in bytes', resource: 'limits.memory', want: String(64 * 1024 * 1024) },
    { rule: 'limits.memory with a divisor, rounded up', resource: 'limits.memory', divisor: '1M', want: '68' },
    { rule: 'requests.cpu in cores, rounded up', resource: 'requests.cpu', want: '1' },
    { rule: 'requests.cpu in millicores', resource: 'requests.cpu', divisor: '1m', want: '250' },
    { rule: 'an unset limit is the node allocatable', resource: 'limits.cpu', divisor: '1m', want: '4000' },
    { rule: 'an unset request is 0', resource: 'requests.memory', want: '0' },
  ];
  for (const r of rows) it(r.rule, () => assert.equal(resourceFieldValue(pod, { containerName: 'c', resource: r.resource, ...(r.divisor ? { divisor: r.divisor } : {}) }, { cpu: '4' }), r.want));
});

describe('atomic writer rules', () => {
  const rows: [string, string | undefined][] = [
    ['a', undefined],
    ['dir/a', undefined],
    ['/abs', 'invalid path: must be relative path'],
    ['a/../b', "invalid path: must not contain '..'"],
    ['..data', "invalid path: must not start with '..'"],
    ['', 'invalid path: must not be empty'],
  ];
  for (const [p, why] of rows) it(`path ${JSON.stringify(p)}: ${why ?? 'valid'}`, () => assert.equal(checkPayloadPath(p), why));
  it('user-visible paths: first components, once', () => {
    const f = { data: Buffer.from(''), mode: 0o644 };
    assert.deepEqual(userVisiblePaths(new Map([['b/x', f], ['a', f], ['b/y', f]])), ['a', 'b']);
  });
  it('the timestamped directory is named for the UTC time', () => assert.equal(timestampedDirName(new Date('2026-03-04T05:06:07.890Z'), '123'), '..2026_03_04_05_06_07.123'));
  it('payloadDiffers: content, mode, and the set of paths', () => {
    const p = (data: string, mode = 0o644): Payload => new Map([['a', { data: Buffer.from(data), mode }]]);
    assert.equal(payloadDiffers(p('x'), p('x')), false);
    assert.equal(payloadDiffers(p('x'), p('y')), true);
    assert.equal(payloadDiffers(p('x', 0o600), p('x')), true);
    assert.equal(payloadDiffers(p('x'), undefined), true);
    assert.equal(payloadDiffers(new Map(), p('x')), true);
  });
});

describe('hostPath type checks', () => {
  const rows: { type?: string; found: Parameters<typeof hostPathCheck>[2]; want: ReturnType<typeof hostPathCheck> }[] = [
    { found: 'missing', want: {} },
    { type: 'DirectoryOrCreate', found: 'missing', want: { create: 'directory' } },
    { type: 'DirectoryOrCreate', found: 'file', want: { error: 'hostPath type check failed: /h is not a directory' } },
    { type: 'Directory', found: 'missing', want: { error: 'hostPath type check failed: /h is not a directory' } },
    { type: 'Directory', found: 'directory', want: {} },
    { type: 'FileOrCreate', found: 'missing', want: { create: 'file' } },
    { type: 'File', found: 'directory', want: { error: 'hostPath type check failed: /h is not a file' } },
    { type: 'Socket', found: 'file', want: { error: 'hostPath type check failed: /h is not a socket file' } },
    { type: 'CharDevice', found: 'char', want: {} },
    { type: 'BlockDevice', found: 'char', want: { error: 'hostPath type check failed: /h is not a block device' } },
  ];
  for (const r of rows) it(`${r.type ?? '(none)'} with ${r.found}`, () => assert.deepEqual(hostPathCheck('/h', r.type, r.found), r.want));
});
