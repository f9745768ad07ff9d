// Pod volumes and volume mounts, rows ported from upstream's pkg/apis/core/validation
// validation_test.go (v1.32): TestValidateVolumes (case names quoted), TestValidateVolumeMounts,
// TestValidateSubpathMutuallyExclusive, TestValidateMountPropagation, TestValidateVolumeDevices,
// TestValidateProjectedVolume... Upstream asserts type and field; these rows pin the whole
// rendered error, with the paths validateVolumeSource and ValidateVolumeMounts build.

import { describe, test } from 'node:test';
import type { Container, Pod, Volume } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { allGates, assertErrors, container, podWith, type Want } from './helpers.js';
import { dnsLabelMsg } from './messages.js';

type Row = { name: string; pod: Pod; want: Want };

const fileModeMsg = 'must be a number between 0 and 0777 (octal), both inclusive';
const v0 = 'spec.volumes[0]';

/** A pod with these volumes and a container mounting none of them. */
function vols(...volumes: Volume[]): Pod {
  return podWith((p) => (p.spec.volumes = volumes));
}

/** A pod with one emptyDir volume `data` (and `more`), its container given `mounts`. */
function mounts(m: Container['volumeMounts'], extra: Partial<Container> = {}, more: Volume[] = []): Pod {
  return podWith((p) => {
    p.spec.volumes = [{ name: 'data', emptyDir: {} }, ...more];
    p.spec.containers = [container('c', { volumeMounts: m, ...extra })];
  });
}

const fieldRef = (fieldPath: string) => ({ apiVersion: 'v1', fieldPath });
const downward = (...items: unknown[]): Volume => ({ name: 'downapi', downwardAPI: { items } });

const volumeRows: Row[] = [
  // TestValidateVolumes: EmptyDir and basic volume names
  { name: 'valid alpha name', pod: vols({ name: 'empty', emptyDir: {} }), want: [] },
  { name: 'valid num name', pod: vols({ name: '123', emptyDir: {} }), want: [] },
  { name: 'valid numalpha name', pod: vols({ name: '123-empty', emptyDir: {} }), want: [] },
  { name: 'zero-length name', pod: vols({ name: '', emptyDir: {} }), want: [['FieldValueRequired', `${v0}.name: Required value`]] },
  {
    name: 'name > 63 characters',
    pod: vols({ name: 'a'.repeat(64), emptyDir: {} }),
    want: [['FieldValueInvalid', `${v0}.name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`]],
  },
  { name: 'name not a DNS label', pod: vols({ name: 'a.b.c', emptyDir: {} }), want: [['FieldValueInvalid', `${v0}.name: Invalid value: "a.b.c": must not contain dots`]] },
  { name: 'name not a DNS label (uppercase)', pod: vols({ name: 'Data', emptyDir: {} }), want: [['FieldValueInvalid', `${v0}.name: Invalid value: "Data": ${dnsLabelMsg}`]] },
  {
    name: 'more than one source',
    pod: vols({ name: 'dups', emptyDir: {}, hostPath: { path: '/mnt/path', type: 'Directory' } }),
    want: [['FieldValueForbidden', `${v0}.hostPath: Forbidden: may not specify more than 1 volume type`]],
  },
  {
    name: 'a second downwardAPI or cephfs source is reported at upstream\'s spelling (downwarAPI, cephFS)',
    pod: vols({ name: 'dups', secret: { secretName: 's' }, cephfs: { monitors: ['m'] }, downwardAPI: {} }),
    want: [
      ['FieldValueForbidden', `${v0}.cephFS: Forbidden: may not specify more than 1 volume type`],
      ['FieldValueForbidden', `${v0}.downwarAPI: Forbidden: may not specify more than 1 volume type`],
    ],
  },
  { name: 'no source at all', pod: vols({ name: 'none' }), want: [['FieldValueRequired', `${v0}: Required value: must specify a volume type`]] },
  {
    name: 'sources errors come before name errors, and a volume with errors is not a duplicate target',
    pod: vols({ name: 'x', emptyDir: {} }, { name: 'x', emptyDir: {} }, { name: 'Y' }, { name: 'Y', emptyDir: {} }),
    want: [
      ['FieldValueDuplicate', 'spec.volumes[1].name: Duplicate value: "x"'],
      ['FieldValueRequired', 'spec.volumes[2]: Required value: must specify a volume type'],
      ['FieldValueInvalid', `spec.volumes[2].name: Invalid value: "Y": ${dnsLabelMsg}`],
      ['FieldValueInvalid', `spec.volumes[3].name: Invalid value: "Y": ${dnsLabelMsg}`],
    ],
  },
  // sources Bulkhead's agent does not serve count toward "exactly one", their fields are not checked
  { name: 'an nfs volume is accepted as upstream accepts it', pod: vols({ name: 'nfs', nfs: { server: 'h', path: '/x' } }), want: [] },
  { name: 'persistentVolumeClaim without claimName', pod: vols({ name: 'pvc', persistentVolumeClaim: { claimName: '' } }), want: [['FieldValueRequired', `${v0}.persistentVolumeClaim.claimName: Required value`]] },
  // emptyDir
  { name: 'emptyDir with a memory medium and size limit', pod: vols({ name: 'm', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } }), want: [] },
  {
    name: 'emptyDir with a negative sizeLimit',
    pod: vols({ name: 'm', emptyDir: { sizeLimit: '-1' } }),
    want: [['FieldValueForbidden', `${v0}.emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity`]],
  },
  // HostPath
  { name: 'default HostPath', pod: vols({ name: 'hostpath', hostPath: { path: '/mnt/path', type: 'Directory' } }), want: [] },
  { name: 'valid HostPath', pod: vols({ name: 'hostpath', hostPath: { path: '/mnt/path', type: 'Socket' } }), want: [] },
  {
    name: 'invalid HostPath',
    pod: vols({ name: 'hostpath', hostPath: { path: '/mnt/path', type: 'invalid' } }),
    want: [['FieldValueNotSupported', `${v0}.hostPath.type: Unsupported value: "invalid": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"`]],
  },
  {
    name: 'invalid HostPath backsteps',
    pod: vols({ name: 'hostpath', hostPath: { path: '/mnt/path/..', type: 'Directory' } }),
    want: [['FieldValueInvalid', `${v0}.hostPath.path: Invalid value: "/mnt/path/..": must not contain '..'`]],
  },
  { name: 'HostPath without a path (the type is then not checked)', pod: vols({ name: 'h', hostPath: { path: '', type: 'bad' } }), want: [['FieldValueRequired', `${v0}.hostPath.path: Required value`]] },
  // Secret
  { name: 'valid Secret', pod: vols({ name: 'secret', secret: { secretName: 'my-secret' } }), want: [] },
  { name: 'valid Secret with defaultMode', pod: vols({ name: 'secret', secret: { secretName: 'my-secret', defaultMode: 0o644 } }), want: [] },
  { name: 'valid Secret with projection and mode', pod: vols({ name: 'secret', secret: { secretName: 'my-secret', items: [{ key: 'key', path: 'filename', mode: 0o644 }] } }), want: [] },
  { name: 'valid Secret with subdir projection', pod: vols({ name: 'secret', secret: { secretName: 'my-secret', items: [{ key: 'key', path: 'dir/filename' }] } }), want: [] },
  { name: 'secret without secretName', pod: vols({ name: 'secret', secret: {} }), want: [['FieldValueRequired', `${v0}.secret.secretName: Required value`]] },
  {
    name: 'secret with missing path',
    pod: vols({ name: 'secret', secret: { secretName: 's', items: [{ key: 'key', path: '' }] } }),
    want: [['FieldValueRequired', `${v0}.secret.items[0].path: Required value`]],
  },
  {
    name: 'secret with leading ..',
    pod: vols({ name: 'secret', secret: { secretName: 's', items: [{ key: 'key', path: '../foo' }] } }),
    want: [['FieldValueInvalid', `${v0}.secret.items[0].path: Invalid value: "../foo": must not contain '..'`]],
  },
  {
    name: 'secret with .. inside',
    pod: vols({ name: 'secret', secret: { secretName: 's', items: [{ key: 'key', path: 'foo/../bar' }] } }),
    want: [['FieldValueInvalid', `${v0}.secret.items[0].path: Invalid value: "foo/../bar": must not contain '..'`]],
  },
  {
    name: 'secret item without key, with an absolute path and a bad mode',
    pod: vols({ name: 'secret', secret: { secretName: 's', items: [{ key: '', path: '/etc/x', mode: 0o1000 }] } }),
    want: [
      ['FieldValueRequired', `${v0}.secret.items[0].key: Required value`],
      ['FieldValueInvalid', `${v0}.secret.items[0].path: Invalid value: "/etc/x": must be a relative path`],
      ['FieldValueInvalid', `${v0}.secret.items[0].mode: Invalid value: 512: ${fileModeMsg}`],
    ],
  },
  {
    name: 'secret with invalid positive defaultMode',
    pod: vols({ name: 'secret', secret: { secretName: 's', defaultMode: 0o1000 } }),
    want: [['FieldValueInvalid', `${v0}.secret.defaultMode: Invalid value: 512: ${fileModeMsg}`]],
  },
  {
    name: 'secret with invalid negative defaultMode',
    pod: vols({ name: 'secret', secret: { secretName: 's', defaultMode: -1 } }),
    want: [['FieldValueInvalid', `${v0}.secret.defaultMode: Invalid value: -1: ${fileModeMsg}`]],
  },
  // ConfigMap
  { name: 'valid ConfigMap', pod: vols({ name: 'cfgmap', configMap: { name: 'my-cfgmap' } }), want: [] },
  { name: 'valid ConfigMap with projection and mode', pod: vols({ name: 'cfgmap', configMap: { name: 'my-cfgmap', items: [{ key: 'key', path: 'filename', mode: 0o644 }] } }), want: [] },
  { name: 'configMap without name', pod: vols({ name: 'cfgmap', configMap: {} }), want: [['FieldValueRequired', `${v0}.configMap.name: Required value`]] },
  {
    name: 'configmap with missing path',
    pod: vols({ name: 'cfgmap', configMap: { name: 'c', items: [{ key: 'key', path: '' }] } }),
    want: [['FieldValueRequired', `${v0}.configMap.items[0].path: Required value`]],
  },
  {
    name: 'configmap with leading ..',
    pod: vols({ name: 'cfgmap', configMap: { name: 'c', items: [{ key: 'key', path: '../foo' }] } }),
    want: [['FieldValueInvalid', `${v0}.configMap.items[0].path: Invalid value: "../foo": must not contain '..'`]],
  },
  {
    name: 'configmap with invalid positive defaultMode',
    pod: vols({ name: 'cfgmap', configMap: { name: 'c', defaultMode: 0o1000 } }),
    want: [['FieldValueInvalid', `${v0}.configMap.defaultMode: Invalid value: 512: ${fileModeMsg}`]],
  },
  {
    name: 'configmap with invalid negative defaultMode',
    pod: vols({ name: 'cfgmap', configMap: { name: 'c', defaultMode: -1 } }),
    want: [['FieldValueInvalid', `${v0}.configMap.defaultMode: Invalid value: -1: ${fileModeMsg}`]],
  },
  // DownwardAPI
  {
    name: 'valid DownwardAPI',
    pod: vols(
      downward(
        { path: 'labels', fieldRef: fieldRef('metadata.labels') },
        { path: 'labels with subscript', fieldRef: fieldRef("metadata.labels['key']") },
        { path: 'labels with complex subscript', fieldRef: fieldRef("metadata.labels['test.example.com/key']") },
        { path: 'annotations', fieldRef: fieldRef('metadata.annotations') },
        { path: 'annotations with complex subscript', fieldRef: fieldRef("metadata.annotations['TEST.EXAMPLE.COM/key']") },
        { path: 'namespace', fieldRef: fieldRef('metadata.namespace') },
        { path: 'name', fieldRef: { fieldPath: 'metadata.name' } },
        { path: 'path/./withdot', fieldRef: fieldRef('metadata.labels') },
        { path: 'path/with/embedded..dotdot', fieldRef: fieldRef('metadata.labels') },
        { path: 'path/with/leading/..dotdot', fieldRef: fieldRef('metadata.labels') },
        { path: 'cpu_limit', resourceFieldRef: { containerName: 'test-container', resource: 'limits.cpu' } },
        { path: 'memory_request', resourceFieldRef: { containerName: 'test-container', resource: 'requests.memory', divisor: '1Mi' } },
        { path: 'hugepages', resourceFieldRef: { containerName: 'test-container', resource: 'limits.hugepages-2Mi' } },
      ),
    ),
    want: [],
  },
  { name: 'downapi valid defaultMode', pod: vols({ name: 'downapi', downwardAPI: { defaultMode: 0o644 } }), want: [] },
  {
    name: 'downapi invalid positive item mode (reported at downwardAPI.mode, without the index)',
    pod: vols(downward({ mode: 0o1000, path: 'path', fieldRef: fieldRef('metadata.labels') })),
    want: [['FieldValueInvalid', `${v0}.downwardAPI.mode: Invalid value: 512: ${fileModeMsg}`]],
  },
  {
    name: 'downapi empty metatada path',
    pod: vols(downward({ path: '', fieldRef: fieldRef('metadata.labels') })),
    want: [['FieldValueRequired', `${v0}.downwardAPI.path: Required value`]],
  },
  {
    name: 'downapi absolute path',
    pod: vols(downward({ path: '/absolutepath', fieldRef: fieldRef('metadata.labels') })),
    want: [['FieldValueInvalid', `${v0}.downwardAPI.path: Invalid value: "/absolutepath": must be a relative path`]],
  },
  {
    name: 'downapi dot dot path',
    pod: vols(downward({ path: '../../passwd', fieldRef: fieldRef('metadata.labels') })),
    want: [['FieldValueInvalid', `${v0}.downwardAPI.path: Invalid value: "../../passwd": must not contain '..'`]],
  },
  {
    name: 'downapi dot dot file name',
    pod: vols(downward({ path: '..badFileName', fieldRef: fieldRef('metadata.labels') })),
    want: [['FieldValueInvalid', `${v0}.downwardAPI.path: Invalid value: "..badFileName": must not start with '..'`]],
  },
  {
    name: 'downapi dot dot first level dirent',
    pod: vols(downward({ path: '..badDirName/goodFileName', fieldRef: fieldRef('metadata.labels') })),
    want: [['FieldValueInvalid', `${v0}.downwardAPI.path: Invalid value: "..badDirName/goodFileName": must not start with '..'`]],
  },
  {
    name: 'downapi fieldRef and ResourceFieldRef together',
    pod: vols(downward({ path: 'test', fieldRef: fieldRef('metadata.labels'), resourceFieldRef: { containerName: 'test-container', resource: 'requests.memory' } })),
    want: [['FieldValueInvalid', `${v0}.downwardAPI: Invalid value: "resource": fieldRef and resourceFieldRef can not be specified simultaneously`]],
  },
  {
    name: 'downapi item with neither fieldRef nor resourceFieldRef',
    pod: vols(downward({ path: 'test' })),
    want: [['FieldValueRequired', `${v0}.downwardAPI: Required value: one of fieldRef and resourceFieldRef is required`]],
  },
  {
    name: 'downapi invalid negative defaultMode',
    pod: vols({ name: 'downapi', downwardAPI: { defaultMode: -1 } }),
    want: [['FieldValueInvalid', `${v0}.downwardAPI.defaultMode: Invalid value: -1: ${fileModeMsg}`]],
  },
  {
    name: 'downapi fieldPath outside the volume allow-list',
    pod: vols(downward({ path: 'node', fieldRef: fieldRef('spec.nodeName') })),
    want: [['FieldValueNotSupported', `${v0}.downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"`]],
  },
  {
    name: 'downapi fieldPath that does not convert',
    pod: vols(downward({ path: 'x', fieldRef: fieldRef('metadata.foo') })),
    want: [['FieldValueInvalid', `${v0}.downwardAPI.fieldRef.fieldPath: Invalid value: "metadata.foo": error converting fieldPath: field label not supported: metadata.foo`]],
  },
  {
    name: 'downapi fieldRef of another apiVersion',
    pod: vols(downward({ path: 'x', fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } })),
    want: [['FieldValueInvalid', `${v0}.downwardAPI.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2`]],
  },
  {
    name: 'downapi resourceFieldRef without containerName, and an unsupported resource',
    pod: vols(downward({ path: 'a', resourceFieldRef: { resource: 'limits.cpu' } }, { path: 'b', resourceFieldRef: { containerName: 'c', resource: 'limits.gpu' } })),
    want: [
      ['FieldValueRequired', `${v0}.downwardAPI.resourceFieldRef.containerName: Required value`],
      ['FieldValueNotSupported', `${v0}.downwardAPI.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`],
    ],
  },
  {
    name: 'downapi cpu divisor other than 1m or 1',
    pod: vols(downward({ path: 'a', resourceFieldRef: { containerName: 'c', resource: 'limits.cpu', divisor: '10m' } })),
    want: [['FieldValueInvalid', `${v0}.downwardAPI.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor's values 1m and 1 are supported with the cpu resource`]],
  },
  // Projected (validateProjectionSources)
  {
    name: 'projected sources with one kind each',
    pod: vols({
      name: 'p',
      projected: {
        sources: [
          { secret: { name: 's', items: [{ key: 'a', path: 'a' }] } },
          { configMap: { name: 'c', items: [{ key: 'b', path: 'b' }] } },
          { downwardAPI: { items: [{ path: 'labels', fieldRef: fieldRef('metadata.labels') }] } },
          { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
        ],
      },
    }),
    want: [],
  },
  {
    name: 'projected source with two kinds',
    pod: vols({ name: 'p', projected: { sources: [{ secret: { name: 's' }, configMap: { name: 'c' } }] } }),
    want: [['FieldValueForbidden', `${v0}.projected.sources[0]: Forbidden: may not specify more than 1 volume type per source`]],
  },
  {
    name: 'projected sources with conflicting paths',
    pod: vols({
      name: 'p',
      projected: {
        sources: [
          { secret: { name: 's', items: [{ key: 'a', path: 'x' }] } },
          { configMap: { name: 'c', items: [{ key: 'b', path: 'x' }] } },
          { downwardAPI: { items: [{ path: 'x', fieldRef: fieldRef('metadata.name') }] } },
        ],
      },
    }),
    want: [
      ['FieldValueInvalid', `${v0}.projected: Invalid value: "c": conflicting duplicate paths`],
      ['FieldValueInvalid', `${v0}.projected: Invalid value: "x": conflicting duplicate paths`],
    ],
  },
  {
    name: 'projected secret and configMap without names, a bad defaultMode',
    pod: vols({ name: 'p', projected: { defaultMode: 0o1000, sources: [{ secret: {} }, { configMap: { items: [{ key: '', path: 'a' }] } }] } }),
    want: [
      ['FieldValueInvalid', `${v0}.projected.defaultMode: Invalid value: 512: ${fileModeMsg}`],
      ['FieldValueRequired', `${v0}.projected.sources[0].secret.name: Required value`],
      ['FieldValueRequired', `${v0}.projected.sources[1].configMap.name: Required value`],
      ['FieldValueRequired', `${v0}.projected.sources[1].configMap.items[0].key: Required value`],
    ],
  },
  {
    name: 'projected downwardAPI items are reported at the source, without the index',
    pod: vols({ name: 'p', projected: { sources: [{ downwardAPI: { items: [{ path: '/abs', fieldRef: fieldRef('metadata.name') }] } }] } }),
    want: [['FieldValueInvalid', `${v0}.projected.sources[0].downwardAPI.path: Invalid value: "/abs": must be a relative path`]],
  },
  {
    name: 'projected serviceAccountToken: short expiry, missing path (reported at projected.path)',
    pod: vols({ name: 'p', projected: { sources: [{ serviceAccountToken: { path: '', expirationSeconds: 60 } }, { serviceAccountToken: { path: '../t', expirationSeconds: 2 ** 33 } }] } }),
    want: [
      ['FieldValueInvalid', `${v0}.projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes`],
      ['FieldValueRequired', `${v0}.projected.path: Required value`],
      ['FieldValueInvalid', `${v0}.projected.sources[1].serviceAccountToken.expirationSeconds: Invalid value: 8589934592: may not specify a duration larger than 2^32 seconds`],
      ['FieldValueInvalid', `${v0}.projected.path: Invalid value: "../t": must not contain '..'`],
    ],
  },
];

const m0 = 'spec.containers[0].volumeMounts';

const mountRows: Row[] = [
  // TestValidateVolumeMounts: success cases
  {
    name: 'valid mounts (subPath, subPathExpr, read-only recursive)',
    pod: mounts(
      [
        { name: 'data', mountPath: '/foo' },
        { name: 'data', mountPath: '/bar', subPath: 'baz' },
        { name: 'data', mountPath: '/bar2', subPathExpr: '$(POD_NAME)' },
        { name: 'data', mountPath: '/ro', readOnly: true, recursiveReadOnly: 'Enabled' },
        { name: 'data', mountPath: '/ro2', readOnly: true, recursiveReadOnly: 'IfPossible', mountPropagation: 'None' },
        { name: 'data', mountPath: '/rw', recursiveReadOnly: 'Disabled' },
      ],
    ),
    want: [],
  },
  // TestValidateVolumeMounts: error cases
  {
    name: 'empty name',
    pod: mounts([{ name: '', mountPath: '/foo' }]),
    want: [
      ['FieldValueRequired', `${m0}[0].name: Required value`],
      ['FieldValueNotFound', `${m0}[0].name: Not found: ""`],
    ],
  },
  { name: 'name not found', pod: mounts([{ name: 'x', mountPath: '/foo' }]), want: [['FieldValueNotFound', `${m0}[0].name: Not found: "x"`]] },
  { name: 'empty mountpath', pod: mounts([{ name: 'data', mountPath: '' }]), want: [['FieldValueRequired', `${m0}[0].mountPath: Required value`]] },
  {
    name: 'mountpath collision',
    pod: mounts([{ name: 'data', mountPath: '/path/a' }, { name: 'data', mountPath: '/path/a' }]),
    want: [['FieldValueInvalid', `${m0}[1].mountPath: Invalid value: "/path/a": must be unique`]],
  },
  {
    name: 'absolute subpath (reported at volumeMounts.subPath, without the index)',
    pod: mounts([{ name: 'data', mountPath: '/bar', subPath: '/baz' }]),
    want: [['FieldValueInvalid', `${m0}.subPath: Invalid value: "/baz": must be a relative path`]],
  },
  { name: 'subpath in ..', pod: mounts([{ name: 'data', mountPath: '/bar', subPath: '../baz' }]), want: [['FieldValueInvalid', `${m0}.subPath: Invalid value: "../baz": must not contain '..'`]] },
  { name: 'subpath contains ..', pod: mounts([{ name: 'data', mountPath: '/bar', subPath: 'baz/../bat' }]), want: [['FieldValueInvalid', `${m0}.subPath: Invalid value: "baz/../bat": must not contain '..'`]] },
  { name: 'subpath ends in ..', pod: mounts([{ name: 'data', mountPath: '/bar', subPath: './..' }]), want: [['FieldValueInvalid', `${m0}.subPath: Invalid value: "./..": must not contain '..'`]] },
  // TestValidateSubpathMutuallyExclusive
  {
    name: 'subpath and subpathexpr not specified together',
    pod: mounts([{ name: 'data', mountPath: '/bar', subPath: 'baz', subPathExpr: '$(POD_NAME)' }]),
    want: [['FieldValueInvalid', `${m0}[0].subPathExpr: Invalid value: "$(POD_NAME)": subPathExpr and subPath are mutually exclusive`]],
  },
  { name: 'subpathexpr absolute', pod: mounts([{ name: 'data', mountPath: '/bar', subPathExpr: '/$(POD_NAME)' }]), want: [['FieldValueInvalid', `${m0}.subPathExpr: Invalid value: "/$(POD_NAME)": must be a relative path`]] },
  { name: 'subpathexpr contains ..', pod: mounts([{ name: 'data', mountPath: '/bar', subPathExpr: '$(POD_NAME)/../baz' }]), want: [['FieldValueInvalid', `${m0}.subPathExpr: Invalid value: "$(POD_NAME)/../baz": must not contain '..'`]] },
  // TestValidateMountPropagation
  {
    name: 'Bidirectional in a non-privileged container',
    pod: mounts([{ name: 'data', mountPath: '/foo', mountPropagation: 'Bidirectional' }]),
    want: [['FieldValueForbidden', `${m0}.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers`]],
  },
  {
    name: 'Bidirectional in a privileged container',
    pod: mounts([{ name: 'data', mountPath: '/foo', mountPropagation: 'Bidirectional' }], { securityContext: { privileged: true } }),
    want: [],
  },
  { name: 'HostToContainer in a non-privileged container', pod: mounts([{ name: 'data', mountPath: '/foo', mountPropagation: 'HostToContainer' }]), want: [] },
  {
    name: 'unsupported propagation mode',
    pod: mounts([{ name: 'data', mountPath: '/foo', mountPropagation: 'Sideways' }]),
    want: [['FieldValueNotSupported', `${m0}.mountPropagation: Unsupported value: "Sideways": supported values: "Bidirectional", "HostToContainer", "None"`]],
  },
  // validateMountRecursiveReadOnly (RecursiveReadOnlyMounts, beta in v1.32)
  {
    name: 'recursiveReadOnly Enabled on a writable mount with HostToContainer propagation',
    pod: mounts([{ name: 'data', mountPath: '/foo', recursiveReadOnly: 'Enabled', mountPropagation: 'HostToContainer' }]),
    want: [
      ['FieldValueForbidden', `${m0}.recursiveReadOnly: Forbidden: may only be specified when readOnly is true`],
      ['FieldValueForbidden', `${m0}.recursiveReadOnly: Forbidden: may only be specified when mountPropagation is None or not specified`],
    ],
  },
  {
    name: 'recursiveReadOnly outside its values',
    pod: mounts([{ name: 'data', mountPath: '/foo', readOnly: true, recursiveReadOnly: 'Always' }]),
    want: [['FieldValueNotSupported', `${m0}.recursiveReadOnly: Unsupported value: "Always": supported values: "Disabled", "Enabled", "IfPossible"`]],
  },
  // TestValidateVolumeMounts: overlap with volumeDevices; TestValidateVolumeDevices
  {
    name: 'name and path shared with a volumeDevice',
    pod: mounts([{ name: 'claim', mountPath: '/dev/b' }], { volumeDevices: [{ name: 'claim', devicePath: '/dev/b' }] }, [{ name: 'claim', persistentVolumeClaim: { claimName: 'c' } }]),
    want: [
      ['FieldValueInvalid', `${m0}[0].name: Invalid value: "claim": must not already exist in volumeDevices`],
      ['FieldValueInvalid', `${m0}[0].mountPath: Invalid value: "/dev/b": must not already exist as a path in volumeDevices`],
      ['FieldValueInvalid', 'spec.containers[0].volumeDevices[0].name: Invalid value: "claim": must not already exist in volumeMounts'],
      ['FieldValueInvalid', 'spec.containers[0].volumeDevices[0].devicePath: Invalid value: "/dev/b": must not already exist as a path in volumeMounts'],
    ],
  },
  {
    name: 'volumeDevice of a non-claim volume, unknown name, duplicate path and backsteps',
    pod: mounts([], {
      volumeDevices: [
        { name: 'data', devicePath: '/dev/a' },
        { name: 'nope', devicePath: '/dev/a' },
        { name: '', devicePath: '/dev/../x' },
      ],
    }),
    want: [
      ['FieldValueInvalid', 'spec.containers[0].volumeDevices[0].name: Invalid value: "data": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'],
      ['FieldValueNotFound', 'spec.containers[0].volumeDevices[1].name: Not found: "nope"'],
      ['FieldValueInvalid', 'spec.containers[0].volumeDevices[1].devicePath: Invalid value: "/dev/a": must be unique'],
      ['FieldValueRequired', 'spec.containers[0].volumeDevices[2].name: Required value'],
      ['FieldValueNotFound', 'spec.containers[0].volumeDevices[2].name: Not found: ""'],
      ['FieldValueInvalid', 'spec.containers[0].volumeDevices[2].devicePath: Invalid value: "/dev/../x": can not contain backsteps (\'..\')'],
    ],
  },
  // ValidatePodSpec: volumes first, mounts checked against the volumes that validated; init and ephemeral containers too
  {
    name: 'a mount of a volume that failed validation is Not found, after the volume errors',
    pod: podWith((p) => {
      p.spec.volumes = [{ name: 'cfg', configMap: {} }];
      p.spec.containers = [container('c', { volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }] })];
      p.spec.initContainers = [container('init', { volumeMounts: [{ name: 'gone', mountPath: '/x' }] })];
    }),
    want: [
      ['FieldValueRequired', 'spec.volumes[0].configMap.name: Required value'],
      ['FieldValueNotFound', `${m0}[0].name: Not found: "cfg"`],
      ['FieldValueNotFound', 'spec.initContainers[0].volumeMounts[0].name: Not found: "gone"'],
    ],
  },
  {
    name: 'mount errors sit between env and imagePullPolicy in a container\'s errors',
    pod: mounts([{ name: 'x', mountPath: '/x' }], { env: [{ name: '' }], imagePullPolicy: 'Sometimes' }),
    want: [
      ['FieldValueRequired', 'spec.containers[0].env[0].name: Required value'],
      ['FieldValueNotFound', `${m0}[0].name: Not found: "x"`],
      ['FieldValueNotSupported', 'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"'],
    ],
  },
];

// The divisor rule is shared with env (validateContainerResourceFieldSelector calls it for both).
const envDivisorRows: Row[] = [
  {
    name: 'env resourceFieldRef with a memory divisor outside the list',
    pod: podWith((p) => (p.spec.containers[0]!.env = [{ name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '3Mi' } } } as never])),
    want: [['FieldValueInvalid', "spec.containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value: \"limits.memory\": only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource"]],
  },
  {
    name: 'env resourceFieldRef with a 1m cpu divisor',
    pod: podWith((p) => (p.spec.containers[0]!.env = [{ name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } } as never])),
    want: [],
  },
];

describe('validateContainerResourceDivisor for env', () => {
  for (const r of envDivisorRows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});

describe('ValidateVolumes (TestValidateVolumes)', () => {
  for (const r of volumeRows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});

describe('ValidateVolumeMounts and ValidateVolumeDevices (TestValidateVolumeMounts, TestValidateVolumeDevices)', () => {
  for (const r of mountRows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});
