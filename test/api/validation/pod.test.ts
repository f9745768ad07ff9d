import { describe, test } from 'node:test';
import type { Pod } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { allGates, assertErrors, container, podWith, type Want } from './helpers.js';
import { dnsLabelMsg, dnsSubdomainMsg, labelValueMsg, namePartMsg, validIPMsg } from './messages.js';

type Row = { name: string; pod: Pod; want: Want };

const rows: Row[] = [
  // metadata
  { name: 'a defaulted pod with one container is valid', pod: podWith(() => {}), want: [] },
  {
    name: 'name is required when there is no generateName',
    pod: podWith((p) => delete p.metadata.name),
    want: [['FieldValueRequired', 'metadata.name: Required value: name or generateName is required']],
  },
  {
    name: 'generateName alone is accepted (the name is generated after validation)',
    pod: podWith((p) => {
      delete p.metadata.name;
      p.metadata.generateName = 'web-';
    }),
    want: [],
  },
  {
    name: 'generateName is checked as a DNS-1123 subdomain prefix',
    pod: podWith((p) => {
      delete p.metadata.name;
      p.metadata.generateName = 'Web-';
    }),
    want: [['FieldValueInvalid', `metadata.generateName: Invalid value: "Web-": ${dnsSubdomainMsg}`]],
  },
  {
    name: 'name must be a DNS-1123 subdomain',
    pod: podWith((p) => (p.metadata.name = 'Web')),
    want: [['FieldValueInvalid', `metadata.name: Invalid value: "Web": ${dnsSubdomainMsg}`]],
  },
  {
    name: 'namespace is required',
    pod: podWith((p) => delete p.metadata.namespace),
    want: [['FieldValueRequired', 'metadata.namespace: Required value']],
  },
  {
    name: 'namespace must be a DNS-1123 label',
    pod: podWith((p) => (p.metadata.namespace = 'team.a')),
    want: [['FieldValueInvalid', 'metadata.namespace: Invalid value: "team.a": must not contain dots']],
  },
  {
    name: 'label keys are qualified names, reported at metadata.labels',
    pod: podWith((p) => (p.metadata.labels = { 'NoUppercaseOrSpecialCharsLike=Equals': 'b' })),
    want: [['FieldValueInvalid', `metadata.labels: Invalid value: "NoUppercaseOrSpecialCharsLike=Equals": ${namePartMsg}`]],
  },
  {
    name: 'label values must be label values',
    pod: podWith((p) => (p.metadata.labels = { app: 'a b' })),
    want: [['FieldValueInvalid', `metadata.labels: Invalid value: "a b": ${labelValueMsg}`]],
  },
  {
    name: 'annotation keys are compared case-insensitively',
    pod: podWith((p) => (p.metadata.annotations = { 'Example.com/Key': 'anything at all' })),
    want: [],
  },
  {
    name: 'annotation keys must be qualified names',
    pod: podWith((p) => (p.metadata.annotations = { 'a b': 'x' })),
    want: [['FieldValueInvalid', `metadata.annotations: Invalid value: "a b": ${namePartMsg}`]],
  },
  {
    name: 'annotations are limited to 256 KiB in total',
    pod: podWith((p) => (p.metadata.annotations = { a: 'x'.repeat(256 * 1024) })),
    want: [['FieldValueTooLong', 'metadata.annotations: Too long: may not be more than 262144 bytes']],
  },
  {
    name: 'an unqualified finalizer must be a standard one',
    pod: podWith((p) => (p.metadata.finalizers = ['cleanup'])),
    want: [['FieldValueInvalid', 'metadata.finalizers[0]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified']],
  },
  {
    name: 'generation may not be negative',
    pod: podWith((p) => (p.metadata.generation = -1)),
    want: [['FieldValueInvalid', 'metadata.generation: Invalid value: -1: must be greater than or equal to 0']],
  },

  // containers
  { name: 'spec.containers is required', pod: podWith((p) => (p.spec.containers = [])), want: [['FieldValueRequired', 'spec.containers: Required value']] },
  {
    name: 'container name is required',
    pod: podWith((p) => (p.spec.containers[0]!.name = '')),
    want: [['FieldValueRequired', 'spec.containers[0].name: Required value']],
  },
  {
    name: 'container name must be a DNS-1123 label',
    pod: podWith((p) => (p.spec.containers[0]!.name = 'Web_1')),
    want: [['FieldValueInvalid', `spec.containers[0].name: Invalid value: "Web_1": ${dnsLabelMsg}`]],
  },
  {
    name: 'container names are unique among containers',
    pod: podWith((p) => p.spec.containers.push(container('c'))),
    want: [['FieldValueDuplicate', 'spec.containers[1].name: Duplicate value: "c"']],
  },
  {
    name: 'init container names are unique with regular containers',
    pod: podWith((p) => (p.spec.initContainers = [container('c')])),
    want: [['FieldValueDuplicate', 'spec.initContainers[0].name: Duplicate value: "c"']],
  },
  {
    name: 'ephemeral container names are unique across all containers (and ephemeral containers are refused on create)',
    pod: podWith((p) => (p.spec.ephemeralContainers = [container('c')])),
    want: [
      ['FieldValueDuplicate', 'spec.ephemeralContainers[0].name: Duplicate value: "c"'],
      ['FieldValueForbidden', 'spec.ephemeralContainers: Forbidden: cannot be set on create'],
    ],
  },
  {
    name: 'image is required for containers',
    pod: podWith((p) => delete p.spec.containers[0]!.image),
    want: [['FieldValueRequired', 'spec.containers[0].image: Required value']],
  },
  {
    name: 'image is required for init containers',
    pod: podWith((p) => (p.spec.initContainers = [container('init', { image: '' })])),
    want: [['FieldValueRequired', 'spec.initContainers[0].image: Required value']],
  },
  {
    name: 'image may not have surrounding whitespace',
    pod: podWith((p) => (p.spec.containers[0]!.image = 'busybox ')),
    want: [['FieldValueInvalid', 'spec.containers[0].image: Invalid value: "busybox ": must not have leading or trailing whitespace']],
  },
  {
    name: 'regular containers may not set restartPolicy',
    pod: podWith((p) => (p.spec.containers[0]!.restartPolicy = 'Always')),
    want: [['FieldValueForbidden', 'spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers']],
  },
  {
    name: 'init container restartPolicy may only be Always',
    pod: podWith((p) => (p.spec.initContainers = [container('init', { restartPolicy: 'OnFailure' })])),
    want: [['FieldValueNotSupported', 'spec.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"']],
  },
  {
    name: 'a sidecar (restartPolicy Always) may have probes',
    pod: podWith((p) => (p.spec.initContainers = [container('side', { restartPolicy: 'Always', livenessProbe: { exec: { command: ['true'] } } })])),
    want: [],
  },
  {
    name: 'a plain init container may not have probes',
    pod: podWith((p) => (p.spec.initContainers = [container('init', { livenessProbe: { exec: { command: ['true'] } } })])),
    want: [['FieldValueForbidden', 'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always']],
  },
  {
    name: 'imagePullPolicy must be a known policy',
    pod: podWith((p) => (p.spec.containers[0]!.imagePullPolicy = 'Sometimes')),
    want: [['FieldValueNotSupported', 'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"']],
  },
  {
    name: 'terminationMessagePolicy must be a known policy',
    pod: podWith((p) => (p.spec.containers[0]!.terminationMessagePolicy = 'Log')),
    want: [['FieldValueNotSupported', 'spec.containers[0].terminationMessagePolicy: Unsupported value: "Log": supported values: "File", "FallbackToLogsOnError"']],
  },
  {
    name: 'env var names are required',
    pod: podWith((p) => (p.spec.containers[0]!.env = [{ name: '', value: 'x' }])),
    want: [['FieldValueRequired', 'spec.containers[0].env[0].name: Required value']],
  },
  {
    name: 'container runAsUser must be a Unix ID',
    pod: podWith((p) => (p.spec.containers[0]!.securityContext = { runAsUser: -1 })),
    want: [['FieldValueInvalid', 'spec.containers[0].securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive']],
  },
  {
    name: 'procMount Unmasked needs hostUsers false',
    pod: podWith((p) => (p.spec.containers[0]!.securityContext = { procMount: 'Unmasked' })),
    want: [['FieldValueInvalid', 'spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`']],
  },

  // Unix IDs are 0..MaxInt32 (upstream TestValidatePodSpec: "populate RunAsUser SupplementalGroups FSGroup with maxID 2147483647",
  // "bad supplementalGroups large than math.MaxInt32", "bad runAsUser large than math.MaxInt32", "bad fsGroup large than math.MaxInt32",
  // "bad supplementalGroups less than 0", "bad runAsUser less than 0", "bad fsGroup less than 0")
  {
    name: 'pod runAsUser, fsGroup and supplementalGroups accept MaxInt32',
    pod: podWith((p) => (p.spec.securityContext = { runAsUser: 2147483647, fsGroup: 2147483647, supplementalGroups: [2147483647] })),
    want: [],
  },
  {
    name: 'pod supplementalGroups above MaxInt32 are out of range',
    pod: podWith((p) => (p.spec.securityContext = { supplementalGroups: [2147483648, 1234] })),
    want: [['FieldValueInvalid', 'spec.securityContext.supplementalGroups[0]: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive']],
  },
  {
    name: 'pod supplementalGroups below 0 are out of range',
    pod: podWith((p) => (p.spec.securityContext = { supplementalGroups: [-1, 1234] })),
    want: [['FieldValueInvalid', 'spec.securityContext.supplementalGroups[0]: Invalid value: -1: must be between 0 and 2147483647, inclusive']],
  },
  {
    name: 'pod runAsUser above MaxInt32 is out of range',
    pod: podWith((p) => (p.spec.securityContext = { runAsUser: 2147483648 })),
    want: [['FieldValueInvalid', 'spec.securityContext.runAsUser: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive']],
  },
  {
    name: 'pod runAsUser below 0 is out of range',
    pod: podWith((p) => (p.spec.securityContext = { runAsUser: -1 })),
    want: [['FieldValueInvalid', 'spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive']],
  },
  {
    name: 'pod fsGroup above MaxInt32 is out of range',
    pod: podWith((p) => (p.spec.securityContext = { fsGroup: 2147483648 })),
    want: [['FieldValueInvalid', 'spec.securityContext.fsGroup: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive']],
  },
  {
    name: 'pod fsGroup below 0 is out of range',
    pod: podWith((p) => (p.spec.securityContext = { fsGroup: -1 })),
    want: [['FieldValueInvalid', 'spec.securityContext.fsGroup: Invalid value: -1: must be between 0 and 2147483647, inclusive']],
  },
  {
    name: 'container runAsUser above MaxInt32 is out of range',
    pod: podWith((p) => (p.spec.containers[0]!.securityContext = { runAsUser: 2147483648 })),
    want: [['FieldValueInvalid', 'spec.containers[0].securityContext.runAsUser: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive']],
  },

  {
    name: 'shareProcessNamespace and hostPID may not both be set (TestValidatePodSpec "ShareProcessNamespace and HostPID both set")',
    pod: podWith((p) => {
      p.spec.hostPID = true;
      p.spec.shareProcessNamespace = true;
    }),
    want: [['FieldValueInvalid', 'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled']],
  },
  {
    name: 'shareProcessNamespace alone is accepted (TestValidatePodSpec "populate ShareProcessNamespace")',
    pod: podWith((p) => (p.spec.shareProcessNamespace = true)),
    want: [],
  },

  // env and envFrom (upstream ValidateEnv/validateEnvVarValueFrom/ValidateEnvFrom; TestValidateContainers "invalid env var name",
  // "Invalid env from"; the relaxed-name rule is the 1.32 default, so "ev!1" from that upstream case, which runs with the option off, is accepted)
  {
    name: 'env names are relaxed: printable ASCII other than = is accepted',
    pod: podWith((p) => (p.spec.containers[0]!.env = [{ name: 'ev!1' }])),
    want: [],
  },
  {
    name: 'env valueFrom may not accompany a non-empty value',
    pod: podWith((p) => (p.spec.containers[0]!.env = [{ name: 'abc', value: 'foo', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }])),
    want: [['FieldValueInvalid', 'spec.containers[0].env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty']],
  },
  {
    name: 'env valueFrom needs a source',
    pod: podWith((p) => (p.spec.containers[0]!.env = [{ name: 'abc', valueFrom: {} }])),
    want: [['FieldValueInvalid', 'spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`']],
  },
  {
    name: 'env valueFrom takes one source at a time',
    pod: podWith((p) => (p.spec.containers[0]!.env = [{ name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' }, secretKeyRef: { name: 'a-secret', key: 'a-key' } } }])),
    want: [['FieldValueInvalid', 'spec.containers[0].env[0].valueFrom: Invalid value: "": may not have more than one field specified at a time']],
  },
  {
    name: 'env fieldRef needs a fieldPath',
    pod: podWith((p) => (p.spec.containers[0]!.env = [{ name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1' } } }])),
    want: [['FieldValueRequired', 'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Required value']],
  },
  {
    name: 'env fieldRef apiVersion may not be explicitly empty',
    pod: podWith((p) => (p.spec.containers[0]!.env = [{ name: 'abc', valueFrom: { fieldRef: { apiVersion: '', fieldPath: 'metadata.name' } } }])),
    want: [['FieldValueRequired', 'spec.containers[0].env[0].valueFrom.fieldRef.apiVersion: Required value']],
  },
  {
    name: 'env fieldRef apiVersion must be v1',
    pod: podWith((p) => (p.spec.containers[0]!.env = [{ name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1beta1', fieldPath: 'metadata.name' } } }])),
    want: [['FieldValueInvalid', 'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v1beta1']],
  },
  {
    name: 'env fieldRef fieldPath must be a known label',
    pod: podWith((p) => (p.spec.containers[0]!.env = [{ name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.whoops' } } }])),
    want: [['FieldValueInvalid', 'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.whoops": error converting fieldPath: field label not supported: metadata.whoops']],
  },
  {
    name: 'env fieldRef subscripts only labels and annotations',
    pod: podWith((p) => (p.spec.containers[0]!.env = [{ name: 'abc', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.name['key']" } } }])),
    want: [['FieldValueInvalid', `spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name['key']": error converting fieldPath: field label does not support subscript: metadata.name['key']`]],
  },
  {
    name: 'env fieldRef: metadata.labels needs a subscript, status.phase is volume-only',
    pod: podWith((p) => (p.spec.containers[0]!.env = [
      { name: 'a', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } } },
      { name: 'b', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.phase' } } },
    ])),
    want: [
      ['FieldValueNotSupported', 'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"'],
      ['FieldValueNotSupported', 'spec.containers[0].env[1].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"'],
    ],
  },
  {
    name: 'env fieldRef accepts a label subscript and the old spec.host',
    pod: podWith((p) => (p.spec.containers[0]!.env = [
      { name: 'a', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['app']" } } },
      { name: 'b', valueFrom: { fieldRef: { fieldPath: 'spec.host' } } },
    ])),
    want: [],
  },
  {
    name: 'env resourceFieldRef must name a container resource (hugepages by prefix)',
    pod: podWith((p) => (p.spec.containers[0]!.env = [
      { name: 'a', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } },
      { name: 'b', valueFrom: { resourceFieldRef: { resource: 'limits.hugepages-2Mi' } } },
      { name: 'c', valueFrom: { resourceFieldRef: {} } },
    ])),
    want: [
      ['FieldValueNotSupported', 'spec.containers[0].env[0].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"'],
      ['FieldValueRequired', 'spec.containers[0].env[2].valueFrom.resourceFieldRef.resource: Required value'],
    ],
  },
  {
    name: 'env secretKeyRef needs a key; configMapKeyRef keys are config keys',
    pod: podWith((p) => (p.spec.containers[0]!.env = [
      { name: 'a', valueFrom: { secretKeyRef: { name: 'a-secret' } } },
      { name: 'b', valueFrom: { configMapKeyRef: { name: 'cm', key: '..' } } },
    ])),
    want: [
      ['FieldValueRequired', 'spec.containers[0].env[0].valueFrom.secretKeyRef.key: Required value'],
      ['FieldValueInvalid', `spec.containers[0].env[1].valueFrom.configMapKeyRef.key: Invalid value: "..": must not be '..'`],
    ],
  },
  {
    name: 'envFrom configMapRef name must be a DNS-1123 subdomain (TestValidateContainers "Invalid env from")',
    pod: podWith((p) => ((p.spec.containers[0] as { envFrom?: unknown }).envFrom = [{ configMapRef: { name: '$%^&*#' } }])),
    want: [['FieldValueInvalid', `spec.containers[0].envFrom[0].configMapRef.name: Invalid value: "$%^&*#": ${dnsSubdomainMsg}`]],
  },
  {
    name: 'envFrom needs exactly one source, named, and a valid prefix',
    pod: podWith((p) => ((p.spec.containers[0] as { envFrom?: unknown }).envFrom = [
      { prefix: 'P_' },
      { configMapRef: { name: 'a' }, secretRef: { name: 'b' } },
      { prefix: 'a=b', secretRef: {} },
    ])),
    want: [
      ['FieldValueInvalid', 'spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`'],
      ['FieldValueInvalid', 'spec.containers[0].envFrom: Invalid value: "": may not have more than one field specified at a time'],
      ['FieldValueInvalid', "spec.containers[0].envFrom[2].prefix: Invalid value: \"a=b\": a valid environment variable name must consist only of printable ASCII characters other than '='"],
      ['FieldValueRequired', 'spec.containers[0].envFrom[2].secretRef.name: Required value'],
    ],
  },
  // TestValidateContainers "name > 63 characters", "name not a DNS label"
  {
    name: 'container names longer than 63 characters are refused',
    pod: podWith((p) => (p.spec.containers[0]!.name = 'a'.repeat(64))),
    want: [['FieldValueInvalid', `spec.containers[0].name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`]],
  },
  {
    name: 'container names may not contain dots',
    pod: podWith((p) => (p.spec.containers[0]!.name = 'a.b.c')),
    want: [['FieldValueInvalid', 'spec.containers[0].name: Invalid value: "a.b.c": must not contain dots']],
  },

  // ports
  {
    name: 'containerPort is required',
    pod: podWith((p) => (p.spec.containers[0]!.ports = [{ containerPort: 0, protocol: 'TCP' }])),
    want: [['FieldValueRequired', 'spec.containers[0].ports[0].containerPort: Required value']],
  },
  {
    name: 'containerPort must be at most 65535',
    pod: podWith((p) => (p.spec.containers[0]!.ports = [{ containerPort: 65536, protocol: 'TCP' }])),
    want: [['FieldValueInvalid', 'spec.containers[0].ports[0].containerPort: Invalid value: 65536: must be between 1 and 65535, inclusive']],
  },
  {
    name: 'hostPort 0 means none and 65535 is the top',
    pod: podWith((p) => (p.spec.containers[0]!.ports = [{ containerPort: 80, hostPort: 0, protocol: 'TCP' }, { containerPort: 81, hostPort: 65535, protocol: 'TCP' }])),
    want: [],
  },
  {
    name: 'a negative hostPort gets the port-number range',
    pod: podWith((p) => (p.spec.containers[0]!.ports = [{ containerPort: 80, hostPort: -1, protocol: 'TCP' }])),
    want: [['FieldValueInvalid', 'spec.containers[0].ports[0].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive']],
  },
  {
    name: 'protocol must be TCP, UDP or SCTP',
    pod: podWith((p) => (p.spec.containers[0]!.ports = [{ containerPort: 80, protocol: 'HTTP' }])),
    want: [['FieldValueNotSupported', 'spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']],
  },
  {
    name: 'port names are unique within a container',
    pod: podWith((p) => (p.spec.containers[0]!.ports = [{ name: 'http', containerPort: 80, protocol: 'TCP' }, { name: 'http', containerPort: 81, protocol: 'TCP' }])),
    want: [['FieldValueDuplicate', 'spec.containers[0].ports[1].name: Duplicate value: "http"']],
  },
  {
    name: 'host ports may not collide across containers',
    pod: podWith((p) => {
      p.spec.containers[0]!.ports = [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }];
      p.spec.containers.push(container('d', { ports: [{ containerPort: 81, hostPort: 8080, protocol: 'TCP' }] }));
    }),
    want: [['FieldValueDuplicate', 'spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"']],
  },
  {
    name: 'with hostNetwork the hostPort must equal the containerPort',
    pod: podWith((p) => {
      p.spec.hostNetwork = true;
      p.spec.containers[0]!.ports = [{ containerPort: 8080, hostPort: 80, protocol: 'TCP' }];
    }),
    want: [['FieldValueInvalid', 'spec.containers[0].ports[0].hostPort: Invalid value: 80: must match `containerPort` when `hostNetwork` is true']],
  },

  // pod spec fields
  {
    name: 'restartPolicy must be Always, OnFailure or Never',
    pod: podWith((p) => (p.spec.restartPolicy = 'Sometimes')),
    want: [['FieldValueNotSupported', 'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']],
  },
  { name: 'an empty restartPolicy is required', pod: podWith((p) => (p.spec.restartPolicy = '')), want: [['FieldValueRequired', 'spec.restartPolicy: Required value']] },
  {
    name: 'dnsPolicy must be a known policy',
    pod: podWith((p) => (p.spec.dnsPolicy = 'Google')),
    want: [['FieldValueNotSupported', 'spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"']],
  },
  {
    name: 'activeDeadlineSeconds 0 is below the range',
    pod: podWith((p) => (p.spec.activeDeadlineSeconds = 0)),
    want: [['FieldValueInvalid', 'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']],
  },
  {
    name: 'activeDeadlineSeconds above MaxInt32 is out of range',
    pod: podWith((p) => (p.spec.activeDeadlineSeconds = 2147483648)),
    want: [['FieldValueInvalid', 'spec.activeDeadlineSeconds: Invalid value: 2147483648: must be between 1 and 2147483647, inclusive']],
  },
  { name: 'activeDeadlineSeconds 1 is the lowest accepted', pod: podWith((p) => (p.spec.activeDeadlineSeconds = 1)), want: [] },
  { name: 'activeDeadlineSeconds 2147483647 is the highest accepted', pod: podWith((p) => (p.spec.activeDeadlineSeconds = 2147483647)), want: [] },
  {
    name: 'terminationGracePeriodSeconds may not be negative',
    pod: podWith((p) => (p.spec.terminationGracePeriodSeconds = -1)),
    want: [['FieldValueInvalid', 'spec.terminationGracePeriodSeconds: Invalid value: -1: must be greater than or equal to 0']],
  },
  { name: 'terminationGracePeriodSeconds 0 is accepted', pod: podWith((p) => (p.spec.terminationGracePeriodSeconds = 0)), want: [] },
  {
    name: 'spec.os.name must be linux or windows',
    pod: podWith((p) => (p.spec.os = { name: 'plan9' })),
    want: [['FieldValueNotSupported', 'spec.os: Unsupported value: "plan9": supported values: "linux", "windows"']],
  },
  { name: 'spec.os.name may not be empty', pod: podWith((p) => (p.spec.os = { name: '' })), want: [['FieldValueRequired', 'spec.os.name: Required value: cannot be empty']] },
  {
    name: 'nodeName must be a DNS-1123 subdomain',
    pod: podWith((p) => (p.spec.nodeName = 'Node_1')),
    want: [['FieldValueInvalid', `spec.nodeName: Invalid value: "Node_1": ${dnsSubdomainMsg}`]],
  },
  {
    name: 'hostname must be a DNS-1123 label',
    pod: podWith((p) => (p.spec.hostname = 'a.b')),
    want: [['FieldValueInvalid', 'spec.hostname: Invalid value: "a.b": must not contain dots']],
  },
  {
    name: 'nodeSelector labels are validated at spec.nodeSelector',
    pod: podWith((p) => (p.spec.nodeSelector = { disk: 'fast ssd' })),
    want: [['FieldValueInvalid', `spec.nodeSelector: Invalid value: "fast ssd": ${labelValueMsg}`]],
  },
  {
    name: 'preemptionPolicy must be known',
    pod: podWith((p) => (p.spec.preemptionPolicy = 'Always')),
    want: [['FieldValueNotSupported', 'spec.preemptionPolicy: Unsupported value: "Always": supported values: "PreemptLowerPriority", "Never"']],
  },

  // ephemeral containers
  {
    name: 'ephemeral containers may not set ports or resources',
    pod: podWith((p) => (p.spec.ephemeralContainers = [{ ...container('debug'), ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1' } } }])),
    want: [
      ['FieldValueForbidden', 'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container'],
      ['FieldValueForbidden', 'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container'],
      ['FieldValueForbidden', 'spec.ephemeralContainers: Forbidden: cannot be set on create'],
    ],
  },
  {
    name: 'ephemeral targetContainerName must name a container',
    pod: podWith((p) => (p.spec.ephemeralContainers = [{ ...container('debug'), targetContainerName: 'nope' }])),
    want: [
      ['FieldValueNotFound', 'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"'],
      ['FieldValueForbidden', 'spec.ephemeralContainers: Forbidden: cannot be set on create'],
    ],
  },

  // robustness
  {
    name: 'a pod before defaulting is not refused for the fields defaulting fills',
    pod: { metadata: { name: 'raw', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] } },
    want: [],
  },
  {
    name: 'errors come in upstream order: metadata, spec, then pod-only image checks',
    pod: podWith((p) => {
      p.metadata.name = 'Bad';
      p.spec.containers[0]!.image = ' busybox';
      p.spec.restartPolicy = 'Sometimes';
    }),
    want: [
      ['FieldValueInvalid', `metadata.name: Invalid value: "Bad": ${dnsSubdomainMsg}`],
      ['FieldValueNotSupported', 'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"'],
      ['FieldValueInvalid', 'spec.containers[0].image: Invalid value: " busybox": must not have leading or trailing whitespace'],
    ],
  },
];

describe('validatePodCreate', () => {
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});

// Rules ported from upstream v1.32 tables (validation_test.go), each row naming its source case.
// `gates` overrides allGates for a row (InPlacePodVerticalScaling is off in v1.32 by default).
type UpstreamRow = Row & { gates?: Partial<typeof allGates> };

const searchPath = (n: number) => 'a'.repeat(n);
const goPtrSet = (t: string) => `(*${t})(0xc000000000)`;
const goPtrNil = (t: string) => `(*${t})(nil)`;
/** %#v of the core.SecurityContext with only privileged/capabilities and allowPrivilegeEscalation set. */
function goSC(o: { caps?: boolean; priv?: boolean }): string {
  return (
    `core.SecurityContext{Capabilities:${o.caps ? goPtrSet('core.Capabilities') : goPtrNil('core.Capabilities')}, ` +
    `Privileged:${o.priv ? goPtrSet('bool') : goPtrNil('bool')}, SELinuxOptions:${goPtrNil('core.SELinuxOptions')}, ` +
    `WindowsOptions:${goPtrNil('core.WindowsSecurityContextOptions')}, RunAsUser:${goPtrNil('int64')}, RunAsGroup:${goPtrNil('int64')}, ` +
    `RunAsNonRoot:${goPtrNil('bool')}, ReadOnlyRootFilesystem:${goPtrNil('bool')}, AllowPrivilegeEscalation:${goPtrSet('bool')}, ` +
    `ProcMount:${goPtrNil('core.ProcMountType')}, SeccompProfile:${goPtrNil('core.SeccompProfile')}, AppArmorProfile:${goPtrNil('core.AppArmorProfile')}}`
  );
}

const upstreamRows: UpstreamRow[] = [
  // TestValidatePodDNSConfig (validatePodDNSConfig), as spec.dnsConfig of a whole pod.
  { name: 'TestValidatePodDNSConfig "valid: empty DNSConfig"', pod: podWith((p) => (p.spec.dnsConfig = {})), want: [] },
  { name: 'TestValidatePodDNSConfig "valid: 1 option"', pod: podWith((p) => (p.spec.dnsConfig = { options: [{ name: 'ndots', value: '2' }] })), want: [] },
  { name: 'TestValidatePodDNSConfig "valid: 1 nameserver"', pod: podWith((p) => (p.spec.dnsConfig = { nameservers: ['127.0.0.1'] })), want: [] },
  {
    name: 'TestValidatePodDNSConfig "valid: DNSNone with 1 nameserver"',
    pod: podWith((p) => {
      p.spec.dnsPolicy = 'None';
      p.spec.dnsConfig = { nameservers: ['127.0.0.1'] };
    }),
    want: [],
  },
  { name: 'TestValidatePodDNSConfig "valid: 3 nameservers"', pod: podWith((p) => (p.spec.dnsConfig = { nameservers: ['127.0.0.1', '10.0.0.10', '8.8.8.8'] })), want: [] },
  { name: 'TestValidatePodDNSConfig "valid: ipv6 nameserver"', pod: podWith((p) => (p.spec.dnsConfig = { nameservers: ['FE80::0202:B3FF:FE1E:8329'] })), want: [] },
  { name: 'TestValidatePodDNSConfig "valid: 1 search path"', pod: podWith((p) => (p.spec.dnsConfig = { searches: ['custom'] })), want: [] },
  { name: 'TestValidatePodDNSConfig "valid: 1 search path with trailing period"', pod: podWith((p) => (p.spec.dnsConfig = { searches: ['custom.'] })), want: [] },
  { name: 'TestValidatePodDNSConfig "valid: 3 search paths"', pod: podWith((p) => (p.spec.dnsConfig = { searches: ['custom', 'mydomain.com', 'example.com'] })), want: [] },
  {
    name: 'TestValidatePodDNSConfig "valid: 32 search paths" (MaxDNSSearchPaths)',
    pod: podWith((p) => (p.spec.dnsConfig = { searches: Array.from({ length: 32 }, (_, i) => `d${i}`) })),
    want: [],
  },
  {
    name: 'TestValidatePodDNSConfig "valid: 2048 characters in search path list" (spaces counted)',
    // 32 paths: 31 spaces + 31 × 63 + 64 = 2048 (the last path is two labels).
    pod: podWith((p) => (p.spec.dnsConfig = { searches: [...Array.from({ length: 31 }, () => searchPath(63)), `${searchPath(31)}.${searchPath(32)}`] })),
    want: [],
  },
  {
    name: 'TestValidatePodDNSConfig "invalid: 4 nameservers" (the list prints as []string)',
    pod: podWith((p) => (p.spec.dnsConfig = { nameservers: ['127.0.0.1', '10.0.0.10', '8.8.8.8', '1.2.3.4'] })),
    want: [['FieldValueInvalid', 'spec.dnsConfig.nameservers: Invalid value: []string{"127.0.0.1", "10.0.0.10", "8.8.8.8", "1.2.3.4"}: must not have more than 3 nameservers']],
  },
  {
    name: 'TestValidatePodDNSConfig "invalid: 33 search paths"',
    pod: podWith((p) => (p.spec.dnsConfig = { searches: Array.from({ length: 33 }, (_, i) => `d${i}`) })),
    want: [
      [
        'FieldValueInvalid',
        `spec.dnsConfig.searches: Invalid value: []string{${Array.from({ length: 33 }, (_, i) => `"d${i}"`).join(', ')}}: must not have more than 32 search paths`,
      ],
    ],
  },
  {
    name: 'TestValidatePodDNSConfig "invalid: 2049 characters in search path list"',
    pod: podWith((p) => (p.spec.dnsConfig = { searches: [...Array.from({ length: 31 }, () => searchPath(63)), `${searchPath(32)}.${searchPath(32)}`] })),
    want: [
      [
        'FieldValueInvalid',
        `spec.dnsConfig.searches: Invalid value: []string{${[...Array.from({ length: 31 }, () => `"${searchPath(63)}"`), `"${searchPath(32)}.${searchPath(32)}"`].join(', ')}}: must not have more than 2048 characters (including spaces) in the search list`,
      ],
    ],
  },
  {
    name: 'TestValidatePodDNSConfig "invalid search path" (RelaxedDNSSearchValidation is off in v1.32)',
    pod: podWith((p) => (p.spec.dnsConfig = { searches: ['custom?'] })),
    want: [['FieldValueInvalid', `spec.dnsConfig.searches[0]: Invalid value: "custom?": ${dnsSubdomainMsg}`]],
  },
  {
    name: 'a search path is reported without its trailing dot; an underscore is refused with the relaxed gate off',
    pod: podWith((p) => (p.spec.dnsConfig = { searches: ['_sip._tcp.example.com.'] })),
    want: [['FieldValueInvalid', `spec.dnsConfig.searches[0]: Invalid value: "_sip._tcp.example.com": ${dnsSubdomainMsg}`]],
  },
  {
    name: 'TestValidatePodDNSConfig "invalid nameserver"',
    pod: podWith((p) => (p.spec.dnsConfig = { nameservers: ['invalid'] })),
    want: [['FieldValueInvalid', `spec.dnsConfig.nameservers[0]: Invalid value: "invalid": ${validIPMsg}`]],
  },
  {
    name: 'a nameserver with leading zeros parses (ParseIPSloppy)',
    pod: podWith((p) => (p.spec.dnsConfig = { nameservers: ['010.000.000.001'] })),
    want: [],
  },
  {
    name: 'TestValidatePodDNSConfig "invalid empty option name"',
    pod: podWith((p) => (p.spec.dnsConfig = { options: [{ value: '2' }] })),
    want: [['FieldValueRequired', 'spec.dnsConfig.options[0]: Required value: must not be empty']],
  },
  {
    name: 'TestValidatePodDNSConfig "invalid: DNSNone with 0 nameserver"',
    pod: podWith((p) => {
      p.spec.dnsPolicy = 'None';
      p.spec.dnsConfig = { searches: ['custom'] };
    }),
    want: [['FieldValueRequired', 'spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None']],
  },
  {
    name: 'dnsPolicy None needs a dnsConfig (TestValidatePodSpec dnsPolicy None without dnsConfig)',
    pod: podWith((p) => (p.spec.dnsPolicy = 'None')),
    want: [['FieldValueRequired', 'spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']],
  },
  {
    name: 'with dnsPolicy None and no nameserver, nothing else of the dnsConfig is checked',
    pod: podWith((p) => {
      p.spec.dnsPolicy = 'None';
      p.spec.dnsConfig = { searches: ['custom?'], options: [{}] };
    }),
    want: [['FieldValueRequired', 'spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None']],
  },
  {
    name: 'dnsConfig errors follow the pod security context and precede hostname (ValidatePodSpec order)',
    pod: podWith((p) => {
      p.spec.hostname = 'a.b';
      p.spec.dnsConfig = { nameservers: ['x'] };
      p.spec.securityContext = { fsGroup: -1 };
    }),
    want: [
      ['FieldValueInvalid', 'spec.securityContext.fsGroup: Invalid value: -1: must be between 0 and 2147483647, inclusive'],
      ['FieldValueInvalid', `spec.dnsConfig.nameservers[0]: Invalid value: "x": ${validIPMsg}`],
      ['FieldValueInvalid', 'spec.hostname: Invalid value: "a.b": must not contain dots'],
    ],
  },

  // ValidateHostAliases (TestValidatePodSpec host alias cases).
  { name: 'hostAliases with an IPv4 or IPv6 address and subdomain hostnames are valid', pod: podWith((p) => (p.spec.hostAliases = [{ ip: '12.34.56.78', hostnames: ['host1', 'host2.example.com'] }, { ip: '::1', hostnames: ['ip6-localhost'] }])), want: [] },
  {
    name: 'a host alias ip must be a valid IP',
    pod: podWith((p) => (p.spec.hostAliases = [{ ip: '999.999.999.999', hostnames: ['host1'] }])),
    want: [['FieldValueInvalid', `spec.hostAliases[0].ip: Invalid value: "999.999.999.999": ${validIPMsg}`]],
  },
  {
    name: 'a host alias hostname must be a DNS-1123 subdomain',
    pod: podWith((p) => (p.spec.hostAliases = [{ ip: '12.34.56.78', hostnames: ['host1', 'Host_2'] }])),
    want: [['FieldValueInvalid', `spec.hostAliases[0].hostnames[1]: Invalid value: "Host_2": ${dnsSubdomainMsg}`]],
  },
  {
    name: 'hostAliases errors follow tolerations and precede priorityClassName',
    pod: podWith((p) => {
      p.spec.priorityClassName = 'Bad_Class';
      p.spec.hostAliases = [{ ip: '', hostnames: [] }];
      p.spec.hostname = 'a.b';
    }),
    want: [
      ['FieldValueInvalid', 'spec.hostname: Invalid value: "a.b": must not contain dots'],
      ['FieldValueInvalid', `spec.hostAliases[0].ip: Invalid value: "": ${validIPMsg}`],
      ['FieldValueInvalid', `spec.priorityClassName: Invalid value: "Bad_Class": ${dnsSubdomainMsg}`],
    ],
  },

  // validateFSGroupChangePolicy (validatePodSpecSecurityContext).
  { name: 'fsGroupChangePolicy OnRootMismatch is valid', pod: podWith((p) => (p.spec.securityContext = { fsGroupChangePolicy: 'OnRootMismatch' })), want: [] },
  { name: 'fsGroupChangePolicy Always is valid', pod: podWith((p) => (p.spec.securityContext = { fsGroupChangePolicy: 'Always' })), want: [] },
  {
    name: 'fsGroupChangePolicy must be Always or OnRootMismatch (sorted list)',
    pod: podWith((p) => (p.spec.securityContext = { fsGroupChangePolicy: 'Never' })),
    want: [['FieldValueNotSupported', 'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Never": supported values: "Always", "OnRootMismatch"']],
  },
  {
    name: 'an empty fsGroupChangePolicy is unsupported, not required',
    pod: podWith((p) => (p.spec.securityContext = { fsGroupChangePolicy: '' })),
    want: [['FieldValueNotSupported', 'spec.securityContext.fsGroupChangePolicy: Unsupported value: "": supported values: "Always", "OnRootMismatch"']],
  },
  {
    name: 'fsGroupChangePolicy is checked after shareProcessNamespace',
    pod: podWith((p) => {
      p.spec.hostPID = true;
      p.spec.shareProcessNamespace = true;
      p.spec.securityContext = { fsGroupChangePolicy: 'Sometimes' };
    }),
    want: [
      ['FieldValueInvalid', 'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled'],
      ['FieldValueNotSupported', 'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"'],
    ],
  },

  // ValidateSecurityContext: allowPrivilegeEscalation false (TestValidateSecurityContext).
  {
    name: 'TestValidateSecurityContext "with privileged and allowPrivilegeEscalation false"',
    pod: podWith((p) => (p.spec.containers[0]!.securityContext = { privileged: true, allowPrivilegeEscalation: false })),
    want: [['FieldValueInvalid', `spec.containers[0].securityContext: Invalid value: ${goSC({ priv: true })}: cannot set \`allowPrivilegeEscalation\` to false and \`privileged\` to true`]],
  },
  {
    name: 'TestValidateSecurityContext "with CAP_SYS_ADMIN and allowPrivilegeEscalation false"',
    pod: podWith((p) => (p.spec.initContainers = [container('init', { securityContext: { capabilities: { add: ['CAP_SYS_ADMIN'] }, allowPrivilegeEscalation: false } })])),
    want: [['FieldValueInvalid', `spec.initContainers[0].securityContext: Invalid value: ${goSC({ caps: true })}: cannot set \`allowPrivilegeEscalation\` to false and \`capabilities.Add\` CAP_SYS_ADMIN`]],
  },
  {
    name: 'only the exact name CAP_SYS_ADMIN is refused (SYS_ADMIN is not), once per occurrence',
    pod: podWith((p) => (p.spec.containers[0]!.securityContext = { capabilities: { add: ['SYS_ADMIN', 'CAP_SYS_ADMIN', 'CAP_SYS_ADMIN'] }, allowPrivilegeEscalation: false })),
    want: [
      ['FieldValueInvalid', `spec.containers[0].securityContext: Invalid value: ${goSC({ caps: true })}: cannot set \`allowPrivilegeEscalation\` to false and \`capabilities.Add\` CAP_SYS_ADMIN`],
      ['FieldValueInvalid', `spec.containers[0].securityContext: Invalid value: ${goSC({ caps: true })}: cannot set \`allowPrivilegeEscalation\` to false and \`capabilities.Add\` CAP_SYS_ADMIN`],
    ],
  },
  {
    name: 'allowPrivilegeEscalation true or unset with privileged and CAP_SYS_ADMIN is valid',
    pod: podWith((p) => {
      p.spec.containers[0]!.securityContext = { privileged: true, capabilities: { add: ['CAP_SYS_ADMIN'] }, allowPrivilegeEscalation: true };
      p.spec.containers.push(container('d', { securityContext: { privileged: true, capabilities: { add: ['CAP_SYS_ADMIN'] } } }));
    }),
    want: [],
  },

  // validateResizePolicy (TestValidateResizePolicy), with InPlacePodVerticalScaling on.
  {
    name: 'TestValidateResizePolicy "ValidCPUandMemoryPolicies"',
    pod: podWith((p) => (p.spec.containers[0]!.resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }, { resourceName: 'memory', restartPolicy: 'RestartContainer' }])),
    want: [],
  },
  {
    name: 'TestValidateResizePolicy "ValidCPUandInvalidMemoryPolicy"',
    pod: podWith((p) => (p.spec.containers[0]!.resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }, { resourceName: 'memory', restartPolicy: 'Restarrrt' }])),
    want: [['FieldValueNotSupported', 'spec.containers[0].resizePolicy: Unsupported value: "Restarrrt": supported values: "NotRequired", "RestartContainer"']],
  },
  {
    name: 'TestValidateResizePolicy "InvalidResourceNameValidPolicy" (a resource name prints unquoted: ResourceName is a Stringer)',
    pod: podWith((p) => (p.spec.containers[0]!.resizePolicy = [{ resourceName: 'cpuuu', restartPolicy: 'NotRequired' }])),
    want: [['FieldValueNotSupported', 'spec.containers[0].resizePolicy: Unsupported value: cpuuu: supported values: "cpu", "memory"']],
  },
  {
    name: 'TestValidateResizePolicy "ValidResourceNameMissingPolicy"',
    pod: podWith((p) => (p.spec.containers[0]!.resizePolicy = [{ resourceName: 'memory', restartPolicy: '' }])),
    want: [['FieldValueRequired', 'spec.containers[0].resizePolicy: Required value']],
  },
  {
    name: 'TestValidateResizePolicy "RepeatedPolicies"',
    pod: podWith((p) => (p.spec.containers[0]!.resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }, { resourceName: 'memory', restartPolicy: 'RestartContainer' }, { resourceName: 'cpu', restartPolicy: 'RestartContainer' }])),
    want: [['FieldValueDuplicate', 'spec.containers[0].resizePolicy[2]: Duplicate value: cpu']],
  },
  {
    name: 'TestValidateResizePolicy "InvalidMemoryPolicyWithPodRestartPolicy"',
    pod: podWith((p) => {
      p.spec.restartPolicy = 'Never';
      p.spec.containers[0]!.resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }, { resourceName: 'memory', restartPolicy: 'RestartContainer' }];
    }),
    want: [['FieldValueInvalid', "spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never'"]],
  },
  {
    name: 'init containers may not set a resizePolicy (validateInitContainers)',
    pod: podWith((p) => (p.spec.initContainers = [container('init', { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] })])),
    want: [['FieldValueInvalid', 'spec.initContainers[0].resizePolicy: Invalid value: []core.ContainerResizePolicy{core.ContainerResizePolicy{ResourceName:"cpu", RestartPolicy:"NotRequired"}}: must not be set for init containers']],
  },
  {
    name: 'with InPlacePodVerticalScaling off (v1.32 default) resizePolicy is not validated: upstream drops it first',
    pod: podWith((p) => {
      p.spec.restartPolicy = 'Never';
      p.spec.containers[0]!.resizePolicy = [{ resourceName: 'storage', restartPolicy: 'Sometimes' }];
      p.spec.initContainers = [container('init', { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] })];
    }),
    gates: { InPlacePodVerticalScaling: false },
    want: [],
  },
];

describe('validatePodCreate: rules ported from upstream tables', () => {
  for (const r of upstreamRows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: { ...allGates, ...r.gates } }), r.want));
});
