import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FieldPath, invalidMessage } from '../../../src/api/fielderrors.js';
import type { Pod, ResourceRequirements } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { validateContainerResourceName, validatePodResourceName, validateResourceName } from '../../../src/api/validation/resourcenames.js';
import { allGates, assertErrors, container, podWith, render, type Want } from './helpers.js';
import { namePartMsg, quantityFormatMsg } from './messages.js';

const wholeKeyMsg =
  "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";

type Row = { name: string; pod: Pod; want: Want; gates?: typeof allGates };

function withResources(r: ResourceRequirements): Pod {
  return podWith((p) => (p.spec.containers[0]!.resources = r));
}

const R = 'spec.containers[0].resources';

const containerRows: Row[] = [
  { name: 'request below its limit is valid', pod: withResources({ requests: { cpu: '1' }, limits: { cpu: '2' } }), want: [] },
  {
    name: 'cpu request above the limit is reported at resources.requests with the request as value',
    pod: withResources({ requests: { cpu: '6' }, limits: { cpu: '5' } }),
    want: [['FieldValueInvalid', `${R}.requests: Invalid value: "6": must be less than or equal to cpu limit of 5`]],
  },
  {
    name: 'memory request above the limit',
    pod: withResources({ requests: { memory: '2Gi' }, limits: { memory: '1Gi' } }),
    want: [['FieldValueInvalid', `${R}.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi`]],
  },
  {
    name: 'negative limit',
    pod: withResources({ limits: { cpu: '-1' } }),
    want: [['FieldValueInvalid', `${R}.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`]],
  },
  {
    name: 'negative request',
    pod: withResources({ requests: { memory: '-1Mi' } }),
    want: [['FieldValueInvalid', `${R}.requests[memory]: Invalid value: "-1Mi": must be greater than or equal to 0`]],
  },
  {
    name: 'unknown unqualified name gets both name errors',
    pod: withResources({ limits: { disk: '1' } }),
    want: [
      ['FieldValueInvalid', `${R}.limits[disk]: Invalid value: "disk": must be a standard resource type or fully qualified`],
      ['FieldValueInvalid', `${R}.limits[disk]: Invalid value: "disk": must be a standard resource for containers`],
    ],
  },
  {
    name: 'a standard resource that containers cannot request (storage)',
    pod: withResources({ requests: { storage: '1Gi' } }),
    want: [['FieldValueInvalid', `${R}.requests[storage]: Invalid value: "storage": must be a standard resource for containers`]],
  },
  {
    name: 'quota spellings are not container resources (requests.cpu)',
    pod: withResources({ requests: { 'requests.cpu': '1' } }),
    want: [['FieldValueInvalid', `${R}.requests[requests.cpu]: Invalid value: "requests.cpu": must be a standard resource for containers`]],
  },
  { name: 'extended resource with request equal to limit', pod: withResources({ requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } }), want: [] },
  {
    name: 'extended resource request without a limit',
    pod: withResources({ requests: { 'example.com/gpu': '1' } }),
    want: [['FieldValueRequired', `${R}.limits: Required value: Limit must be set for non overcommitable resources`]],
  },
  {
    name: 'extended resource request must equal its limit',
    pod: withResources({ requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } }),
    want: [['FieldValueInvalid', `${R}.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2`]],
  },
  {
    name: 'extended resources are integers',
    pod: withResources({ requests: { 'example.com/gpu': '500m' }, limits: { 'example.com/gpu': '500m' } }),
    want: [
      ['FieldValueInvalid', `${R}.limits[example.com/gpu]: Invalid value: "500m": must be an integer`],
      ['FieldValueInvalid', `${R}.requests[example.com/gpu]: Invalid value: "500m": must be an integer`],
    ],
  },
  {
    name: 'a requests.-prefixed qualified name is not an extended resource',
    pod: withResources({ limits: { 'requests.example.com/gpu': '1' } }),
    want: [['FieldValueInvalid', `${R}.limits[requests.example.com/gpu]: Invalid value: "requests.example.com/gpu": doesn't follow extended resource name standard`]],
  },
  { name: 'names in the kubernetes.io/ namespace pass', pod: withResources({ limits: { 'kubernetes.io/foo': '1' } }), want: [] },
  {
    name: 'hugepages must be a multiple of the page size',
    pod: withResources({ limits: { memory: '1Gi', 'hugepages-2Mi': '3Mi' }, requests: { 'hugepages-2Mi': '3Mi' } }),
    want: [
      ['FieldValueInvalid', `${R}.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`],
      ['FieldValueInvalid', `${R}.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`],
    ],
  },
  {
    name: 'hugepages require cpu or memory',
    pod: withResources({ limits: { 'hugepages-2Mi': '2Mi' }, requests: { 'hugepages-2Mi': '2Mi' } }),
    want: [['FieldValueForbidden', `${R}: Forbidden: HugePages require cpu or memory`]],
  },
  {
    name: 'hugepages are not overcommittable: a request needs a limit',
    pod: withResources({ limits: { memory: '1Gi' }, requests: { 'hugepages-2Mi': '2Mi' } }),
    want: [['FieldValueRequired', `${R}.limits: Required value: Limit must be set for non overcommitable resources`]],
  },
  { name: 'hugepages with memory and equal request and limit', pod: withResources({ limits: { memory: '1Gi', 'hugepages-2Mi': '4Mi' }, requests: { 'hugepages-2Mi': '4Mi' } }), want: [] },
  {
    name: 'a limit that does not parse is reported at its key instead of throwing',
    pod: withResources({ requests: { cpu: '1' }, limits: { cpu: 'lots' } }),
    want: [['FieldValueInvalid', `${R}.limits[cpu]: Invalid value: "lots": ${quantityFormatMsg}`]],
  },
  {
    name: 'a request with an unknown suffix',
    pod: withResources({ requests: { memory: '5MM' } }),
    want: [['FieldValueInvalid', `${R}.requests[memory]: Invalid value: "5MM": unable to parse quantity's suffix`]],
  },
  {
    name: 'init containers are checked the same way',
    pod: podWith((p) => (p.spec.initContainers = [container('init', { resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } })])),
    want: [['FieldValueInvalid', 'spec.initContainers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1']],
  },
  {
    name: 'claims must name a pod resource claim (Bulkhead pods have none)',
    pod: withResources({ claims: [{ name: 'gpu' }] }),
    want: [['FieldValueNotFound', `${R}.claims[0]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty`]],
  },
];

// upstream TestValidateContainers (validation_test.go): the resource success and error cases,
// one row each, by upstream title; getResources(cpu, memory, "", "") spelled out.
const validateContainersRows: Row[] = [
  { name: 'TestValidateContainers success resources-test (limits only, extended limit without request)', pod: withResources({ limits: { cpu: '10', memory: '10G', 'my.org/resource': '10' } }), want: [] },
  {
    name: 'TestValidateContainers success resources-test-with-request-and-limit',
    pod: withResources({ requests: { cpu: '10', memory: '10G' }, limits: { cpu: '10', memory: '10G' } }),
    want: [],
  },
  { name: 'TestValidateContainers success resources-request-limit-simple', pod: withResources({ requests: { cpu: '8' }, limits: { cpu: '10' } }), want: [] },
  {
    name: 'TestValidateContainers success resources-request-limit-edge (extended request equal to limit)',
    pod: withResources({ requests: { cpu: '10', memory: '10G', 'my.org/resource': '10' }, limits: { cpu: '10', memory: '10G', 'my.org/resource': '10' } }),
    want: [],
  },
  {
    name: 'TestValidateContainers success resources-request-limit-partials',
    pod: withResources({ requests: { cpu: '9.5', memory: '10G' }, limits: { cpu: '10', 'my.org/resource': '10' } }),
    want: [],
  },
  { name: 'TestValidateContainers success resources-request (requests only)', pod: withResources({ requests: { cpu: '9.5', memory: '10G' } }), want: [] },
  {
    name: 'TestValidateContainers "invalid compute resource" (disk)',
    pod: withResources({ limits: { disk: '10G' } }),
    want: [
      ['FieldValueInvalid', `${R}.limits[disk]: Invalid value: "disk": must be a standard resource type or fully qualified`],
      ['FieldValueInvalid', `${R}.limits[disk]: Invalid value: "disk": must be a standard resource for containers`],
    ],
  },
  {
    name: 'TestValidateContainers "Resource CPU invalid" (negative cpu limit)',
    pod: withResources({ limits: { cpu: '-10', memory: '0' } }),
    want: [['FieldValueInvalid', `${R}.limits[cpu]: Invalid value: "-10": must be greater than or equal to 0`]],
  },
  {
    name: 'TestValidateContainers "Resource Requests CPU invalid" (negative cpu request)',
    pod: withResources({ requests: { cpu: '-10', memory: '0' } }),
    want: [['FieldValueInvalid', `${R}.requests[cpu]: Invalid value: "-10": must be greater than or equal to 0`]],
  },
  {
    name: 'TestValidateContainers "Resource Memory invalid" (negative memory limit)',
    pod: withResources({ limits: { cpu: '0', memory: '-10' } }),
    want: [['FieldValueInvalid', `${R}.limits[memory]: Invalid value: "-10": must be greater than or equal to 0`]],
  },
  {
    name: 'TestValidateContainers "Request limit simple invalid"',
    pod: withResources({ limits: { cpu: '5', memory: '3' }, requests: { cpu: '6', memory: '3' } }),
    want: [['FieldValueInvalid', `${R}.requests: Invalid value: "6": must be less than or equal to cpu limit of 5`]],
  },
  {
    name: 'TestValidateContainers "Invalid storage limit request" (attachable-volumes-aws-ebs)',
    pod: withResources({ limits: { 'attachable-volumes-aws-ebs': '10' } }),
    want: [
      ['FieldValueInvalid', `${R}.limits[attachable-volumes-aws-ebs]: Invalid value: "attachable-volumes-aws-ebs": must be a standard resource type or fully qualified`],
      ['FieldValueInvalid', `${R}.limits[attachable-volumes-aws-ebs]: Invalid value: "attachable-volumes-aws-ebs": must be a standard resource for containers`],
    ],
  },
  {
    name: 'TestValidateContainers "CPU request limit multiple invalid"',
    pod: withResources({ limits: { cpu: '5', memory: '3' }, requests: { cpu: '6', memory: '3' } }),
    want: [['FieldValueInvalid', `${R}.requests: Invalid value: "6": must be less than or equal to cpu limit of 5`]],
  },
  {
    name: 'TestValidateContainers "Memory request limit multiple invalid"',
    pod: withResources({ limits: { cpu: '5', memory: '3' }, requests: { cpu: '5', memory: '4' } }),
    want: [['FieldValueInvalid', `${R}.requests: Invalid value: "4": must be less than or equal to memory limit of 3`]],
  },
];

// upstream TestValidatePod error cases on extended resources (podtest.MakeResourceRequirements(requests, limits));
// upstream asserts a substring of the aggregate, these rows pin the whole list.
const I = 'spec.initContainers[0].resources';
const initWith = (r: ResourceRequirements): Pod => podWith((p) => (p.spec.initContainers = [container('invalid', { resources: r })]));
const validatePodExtendedRows: Row[] = [
  {
    name: 'TestValidatePod "invalid extended resource name in container request"',
    pod: withResources({ requests: { 'invalid-name': '2' }, limits: { 'invalid-name': '2' } }),
    want: [
      ['FieldValueInvalid', `${R}.limits[invalid-name]: Invalid value: "invalid-name": must be a standard resource type or fully qualified`],
      ['FieldValueInvalid', `${R}.limits[invalid-name]: Invalid value: "invalid-name": must be a standard resource for containers`],
      ['FieldValueInvalid', `${R}.requests[invalid-name]: Invalid value: "invalid-name": must be a standard resource type or fully qualified`],
      ['FieldValueInvalid', `${R}.requests[invalid-name]: Invalid value: "invalid-name": must be a standard resource for containers`],
    ],
  },
  {
    name: 'TestValidatePod "invalid extended resource requirement: request must be == limit"',
    pod: withResources({ requests: { 'example.com/a': '2' }, limits: { 'example.com/a': '1' } }),
    want: [['FieldValueInvalid', `${R}.requests: Invalid value: "2": must be equal to example.com/a limit of 1`]],
  },
  {
    name: 'TestValidatePod "invalid extended resource requirement without limit"',
    pod: withResources({ requests: { 'example.com/a': '2' }, limits: {} }),
    want: [['FieldValueRequired', `${R}.limits: Required value: Limit must be set for non overcommitable resources`]],
  },
  {
    name: 'TestValidatePod "invalid fractional extended resource in container request"',
    pod: withResources({ requests: { 'example.com/a': '500m' }, limits: {} }),
    want: [
      ['FieldValueInvalid', `${R}.requests[example.com/a]: Invalid value: "500m": must be an integer`],
      ['FieldValueRequired', `${R}.limits: Required value: Limit must be set for non overcommitable resources`],
    ],
  },
  {
    name: 'TestValidatePod "invalid fractional extended resource in init container request"',
    pod: initWith({ requests: { 'example.com/a': '500m' }, limits: {} }),
    want: [
      ['FieldValueInvalid', `${I}.requests[example.com/a]: Invalid value: "500m": must be an integer`],
      ['FieldValueRequired', `${I}.limits: Required value: Limit must be set for non overcommitable resources`],
    ],
  },
  {
    name: 'TestValidatePod "invalid fractional extended resource in container limit" (the limit prints canonically as 2500m)',
    pod: withResources({ requests: { 'example.com/a': '5' }, limits: { 'example.com/a': '2.5' } }),
    want: [
      ['FieldValueInvalid', `${R}.limits[example.com/a]: Invalid value: "2500m": must be an integer`],
      ['FieldValueInvalid', `${R}.requests: Invalid value: "5": must be equal to example.com/a limit of 2500m`],
    ],
  },
  {
    name: 'TestValidatePod "invalid fractional extended resource in init container limit"',
    pod: initWith({ requests: { 'example.com/a': '2.5' }, limits: { 'example.com/a': '2.5' } }),
    want: [
      ['FieldValueInvalid', `${I}.limits[example.com/a]: Invalid value: "2500m": must be an integer`],
      ['FieldValueInvalid', `${I}.requests[example.com/a]: Invalid value: "2500m": must be an integer`],
    ],
  },
];

// upstream TestValidateResourceRequirements, container-level cases (ValidateContainerResourceRequirements).
const validateResourceRequirementsContainerRows: Row[] = [
  {
    name: 'TestValidateResourceRequirements "limits and requests of hugepage resource are equal" (with cpu)',
    pod: withResources({ limits: { cpu: '10', 'hugepages-2Mi': '2Mi' }, requests: { cpu: '10', 'hugepages-2Mi': '2Mi' } }),
    want: [],
  },
  { name: 'TestValidateResourceRequirements "limits and requests of memory resource are equal"', pod: withResources({ limits: { memory: '2Mi' }, requests: { memory: '2Mi' } }), want: [] },
  { name: 'TestValidateResourceRequirements "limits and requests of cpu resource are equal"', pod: withResources({ limits: { cpu: '10' }, requests: { cpu: '10' } }), want: [] },
  {
    name: 'TestValidateResourceRequirements "hugepage resource without cpu or memory"',
    pod: withResources({ limits: { 'hugepages-2Mi': '2Mi' }, requests: { 'hugepages-2Mi': '2Mi' } }),
    want: [['FieldValueForbidden', `${R}: Forbidden: HugePages require cpu or memory`]],
  },
];

const overheadRows: Row[] = [
  { name: 'overhead with cpu and memory is valid', pod: podWith((p) => (p.spec.overhead = { cpu: '10', memory: '10G' })), want: [] },
  {
    name: 'overhead names are container resource names (upstream "Invalid Overhead Resources")',
    pod: podWith((p) => (p.spec.overhead = { 'my.org': '10m' })),
    want: [
      ['FieldValueInvalid', 'spec.overhead.limits[my.org]: Invalid value: "my.org": must be a standard resource type or fully qualified'],
      ['FieldValueInvalid', 'spec.overhead.limits[my.org]: Invalid value: "my.org": must be a standard resource for containers'],
    ],
  },
  {
    name: 'overhead may not be negative',
    pod: podWith((p) => (p.spec.overhead = { cpu: '-250m' })),
    want: [['FieldValueInvalid', 'spec.overhead.limits[cpu]: Invalid value: "-250m": must be greater than or equal to 0']],
  },
  {
    name: 'overhead that does not parse',
    pod: podWith((p) => (p.spec.overhead = { memory: '1 Gi' })),
    want: [['FieldValueInvalid', `spec.overhead.limits[memory]: Invalid value: "1 Gi": ${quantityFormatMsg}`]],
  },
];

function podLevel(resources: ResourceRequirements, containers: ResourceRequirements[], inits: ResourceRequirements[] = []): Pod {
  return podWith((p) => {
    p.spec.resources = resources;
    p.spec.containers = containers.map((r, i) => container(`c${i}`, { resources: r }));
    if (inits.length) p.spec.initContainers = inits.map((r, i) => container(`i${i}`, { resources: r, restartPolicy: 'Always' }));
  });
}

const podLevelRows: Row[] = [
  {
    name: 'aggregate container requests less than pod requests',
    pod: podLevel({ requests: { cpu: '10', memory: '10Mi' } }, [{ requests: { cpu: '5', memory: '5Mi' } }, { requests: { cpu: '4', memory: '3Mi' } }]),
    want: [],
  },
  {
    name: 'aggregate container requests equal to pod requests',
    pod: podLevel({ requests: { cpu: '10', memory: '10Mi' } }, [{ requests: { cpu: '5', memory: '5Mi' } }, { requests: { cpu: '5', memory: '5Mi' } }]),
    want: [],
  },
  {
    name: 'aggregate container requests greater than pod requests',
    pod: podLevel({ requests: { cpu: '10', memory: '10Mi' } }, [{ requests: { cpu: '6', memory: '5Mi' } }, { requests: { cpu: '8', memory: '3Mi' } }]),
    want: [['FieldValueInvalid', 'spec.resources.requests[cpu]: Invalid value: "10": must be greater than or equal to aggregate container requests of 14']],
  },
  {
    name: 'pod-level request below a single container request (reference example)',
    pod: podLevel({ requests: { cpu: '1' } }, [{ requests: { cpu: '2' } }]),
    want: [['FieldValueInvalid', 'spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 2']],
  },
  {
    name: 'a resource the pod does not request counts as 0',
    pod: podLevel({ requests: { memory: '1Gi' } }, [{ requests: { cpu: '500m' } }]),
    want: [['FieldValueInvalid', 'spec.resources.requests[cpu]: Invalid value: "0": must be greater than or equal to aggregate container requests of 500m']],
  },
  {
    name: 'sidecars add to the aggregate',
    pod: podLevel({ requests: { cpu: '1' } }, [{ requests: { cpu: '1' } }], [{ requests: { cpu: '1' } }]),
    want: [['FieldValueInvalid', 'spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 2']],
  },
  {
    name: 'aggregate container limits less than pod limits',
    pod: podLevel({ limits: { cpu: '10', memory: '10Mi' } }, [{ limits: { cpu: '5', memory: '5Mi' } }, { limits: { cpu: '4', memory: '3Mi' } }]),
    want: [],
  },
  {
    name: 'aggregate container limits equal to pod limits',
    pod: podLevel({ limits: { cpu: '10', memory: '10Mi' } }, [{ limits: { cpu: '5', memory: '5Mi' } }, { limits: { cpu: '5', memory: '5Mi' } }]),
    want: [],
  },
  {
    name: 'aggregate container limits greater than pod limits is allowed (each container fits)',
    pod: podLevel({ limits: { cpu: '10', memory: '10Mi' } }, [{ limits: { cpu: '5', memory: '5Mi' } }, { limits: { cpu: '6', memory: '9Mi' } }]),
    want: [],
  },
  {
    name: 'indivdual container limits greater than pod limits',
    pod: podLevel({ limits: { cpu: '10', memory: '10Mi' } }, [{ limits: { cpu: '11', memory: '12Mi' } }]),
    want: [
      ['FieldValueInvalid', 'spec.resources.containers[0][cpu].limits: Invalid value: "11": must be less than or equal to pod limits of 10'],
      ['FieldValueInvalid', 'spec.resources.containers[0][memory].limits: Invalid value: "12Mi": must be less than or equal to pod limits of 10Mi'],
    ],
  },
  {
    name: 'pod-level resources support only cpu, memory and hugepages',
    pod: podLevel({ requests: { 'ephemeral-storage': '1Gi' } }, [{}]),
    want: [['FieldValueNotSupported', 'spec.resources.requests[ephemeral-storage]: Unsupported value: "ephemeral-storage": supported values: "cpu", "hugepages-", "memory"']],
  },
  {
    name: 'pod-level request above the pod-level limit',
    pod: podLevel({ requests: { cpu: '2' }, limits: { cpu: '1' } }, [{}]),
    want: [['FieldValueInvalid', 'spec.resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1']],
  },
  {
    name: 'pod-level claims are forbidden',
    pod: podLevel({ claims: [{ name: 'x' }] }, [{}]),
    want: [
      ['FieldValueForbidden', 'spec.resources.claims: Forbidden: claims cannot be set for Resources at pod-level'],
      ['FieldValueNotFound', 'spec.resources.claims[0]: Not found: "x": must be one of the names in pod.spec.resourceClaims which is empty'],
    ],
  },
  {
    name: 'a pod-level value that does not parse',
    pod: podLevel({ requests: { cpu: 'x' } }, [{ requests: { cpu: '1' } }]),
    want: [['FieldValueInvalid', `spec.resources.requests[cpu]: Invalid value: "x": ${quantityFormatMsg}`]],
  },
  {
    name: 'with PodLevelResources off, spec.resources is not validated',
    pod: podLevel({ requests: { cpu: '1', 'ephemeral-storage': 'x' } }, [{ requests: { cpu: '2' } }]),
    gates: { ...allGates, PodLevelResources: false },
    want: [],
  },
];

// upstream TestValidateResourceRequirements, pod-level cases (validatePodResourceRequirements),
// reached through spec.resources with one container that sets no resources.
const a63 = `kubernetes.io/${'a'.repeat(63)}`;
const podLevelNames = 'supported values: "cpu", "hugepages-", "memory"';
const validateResourceRequirementsPodRows: Row[] = [
  { name: 'TestValidateResourceRequirements pod "limits and requests of memory resource are equal"', pod: podLevel({ limits: { memory: '2Mi' }, requests: { memory: '2Mi' } }, [{}]), want: [] },
  { name: 'TestValidateResourceRequirements pod "limits and requests of cpu resource are equal"', pod: podLevel({ limits: { cpu: '10' }, requests: { cpu: '10' } }, [{}]), want: [] },
  {
    name: 'TestValidateResourceRequirements "pod resource with hugepages" (hugepages need cpu or memory at pod level too)',
    pod: podLevel({ limits: { 'hugepages-2Mi': '2Mi' }, requests: { 'hugepages-2Mi': '2Mi' } }, [{}]),
    want: [['FieldValueForbidden', 'spec.resources: Forbidden: HugePages require cpu or memory']],
  },
  {
    name: 'TestValidateResourceRequirements "pod resource with ephemeral-storage"',
    pod: podLevel({ limits: { 'ephemeral-storage': '2Mi' }, requests: { 'ephemeral-storage2Mi': '2Mi' } }, [{}]),
    want: [
      ['FieldValueNotSupported', `spec.resources.limits[ephemeral-storage]: Unsupported value: "ephemeral-storage": ${podLevelNames}`],
      ['FieldValueInvalid', 'spec.resources.requests[ephemeral-storage2Mi]: Invalid value: "ephemeral-storage2Mi": must be a standard resource type or fully qualified'],
    ],
  },
  {
    name: 'TestValidateResourceRequirements "pod resource with unsupported prefixed resources" (extended: a request needs a limit)',
    pod: podLevel({ limits: { 'kubernetesio/cpu': '2' }, requests: { 'kubernetesio/memory': '2' } }, [{}]),
    want: [
      ['FieldValueNotSupported', `spec.resources.limits[kubernetesio/cpu]: Unsupported value: "kubernetesio/cpu": ${podLevelNames}`],
      ['FieldValueNotSupported', `spec.resources.requests[kubernetesio/memory]: Unsupported value: "kubernetesio/memory": ${podLevelNames}`],
      ['FieldValueRequired', 'spec.resources.limits: Required value: Limit must be set for non overcommitable resources'],
    ],
  },
  {
    name: 'TestValidateResourceRequirements "pod resource with unsupported native resources"',
    pod: podLevel({ limits: { [a63]: '2' }, requests: { [a63]: '2' } }, [{}]),
    want: [
      ['FieldValueNotSupported', `spec.resources.limits[${a63}]: Unsupported value: "${a63}": ${podLevelNames}`],
      ['FieldValueNotSupported', `spec.resources.requests[${a63}]: Unsupported value: "${a63}": ${podLevelNames}`],
    ],
  },
  {
    name: 'TestValidateResourceRequirements "pod resource with unsupported empty native resource name"',
    pod: podLevel({ limits: { 'kubernetes.io/': '2' }, requests: { 'kubernetes.io': '2' } }, [{}]),
    want: [
      ['FieldValueInvalid', 'spec.resources.limits[kubernetes.io/]: Invalid value: "kubernetes.io/": name part must be non-empty'],
      ['FieldValueInvalid', `spec.resources.limits[kubernetes.io/]: Invalid value: "kubernetes.io/": ${namePartMsg}`],
      ['FieldValueInvalid', 'spec.resources.requests[kubernetes.io]: Invalid value: "kubernetes.io": must be a standard resource type or fully qualified'],
    ],
  },
];

describe('upstream TestValidateContainers: resource cases', () => {
  for (const r of validateContainersRows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: r.gates ?? allGates }), r.want));
});

describe('upstream TestValidatePod: extended resource cases', () => {
  for (const r of validatePodExtendedRows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: r.gates ?? allGates }), r.want));
});

describe('upstream TestValidateResourceRequirements', () => {
  for (const r of [...validateResourceRequirementsContainerRows, ...validateResourceRequirementsPodRows]) {
    test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: r.gates ?? allGates }), r.want));
  }
});

describe('container resources', () => {
  for (const r of containerRows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: r.gates ?? allGates }), r.want));
});

describe('spec.overhead', () => {
  for (const r of overheadRows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: r.gates ?? allGates }), r.want));
});

describe('pod-level spec.resources', () => {
  for (const r of podLevelRows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: r.gates ?? allGates }), r.want));
});

describe('422 message', () => {
  test('a single cause prints bare after `is invalid:`', () => {
    const errs = validatePodCreate(withResources({ requests: { cpu: '6' }, limits: { cpu: '5' } }), { gates: allGates });
    assert.equal(invalidMessage('Pod', 'web', errs), 'Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "6": must be less than or equal to cpu limit of 5');
  });
});

// upstream TestValidateResourceNames, TestValidatePodResourceNames and the container-name rule, as data
type NameRow = { name: string; input: string; want: Want };
const f = FieldPath.root('field');
const inv = (v: string, detail: string): [Want[number][0], string] => ['FieldValueInvalid', `field: Invalid value: ${JSON.stringify(v)}: ${detail}`];

const resourceNameRows: NameRow[] = [
  ...['memory', 'cpu', 'storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'limits.cpu', 'limits.memory', 'my.favorite.app.co/12345'].map((n) => ({
    name: `${n} is a resource name`,
    input: n,
    want: [] as Want,
  })),
  { name: 'kubernetes.io/ + 63 characters is a resource name', input: `kubernetes.io/${'a'.repeat(63)}`, want: [] },
  { name: 'network is not standard', input: 'network', want: [inv('network', 'must be a standard resource type or fully qualified')] },
  { name: 'disk is not standard', input: 'disk', want: [inv('disk', 'must be a standard resource type or fully qualified')] },
  { name: 'empty name', input: '', want: [inv('', 'name part must be non-empty'), inv('', namePartMsg)] },
  { name: 'a lone dot', input: '.', want: [inv('.', namePartMsg)] },
  { name: 'two dots', input: '..', want: [inv('..', namePartMsg)] },
  { name: 'leading underscore in the name part', input: 'my.favorite.app.co/_12345', want: [inv('my.favorite.app.co/_12345', namePartMsg)] },
  { name: 'trailing underscore in the name part', input: 'my.favorite.app.co/12345_', want: [inv('my.favorite.app.co/12345_', namePartMsg)] },
  { name: 'kubernetes.io/..', input: 'kubernetes.io/..', want: [inv('kubernetes.io/..', namePartMsg)] },
  { name: 'kubernetes.io/ + 64 characters', input: `kubernetes.io/${'a'.repeat(64)}`, want: [inv(`kubernetes.io/${'a'.repeat(64)}`, 'name part must be no more than 63 characters')] },
  { name: 'kubernetes.io//', input: 'kubernetes.io//', want: [inv('kubernetes.io//', wholeKeyMsg)] },
  { name: 'kubernetes.io alone', input: 'kubernetes.io', want: [inv('kubernetes.io', 'must be a standard resource type or fully qualified')] },
  { name: 'kubernetes.io/will/not/work/', input: 'kubernetes.io/will/not/work/', want: [inv('kubernetes.io/will/not/work/', wholeKeyMsg)] },
];

const podLevelNameRows: NameRow[] = [
  { name: 'memory', input: 'memory', want: [] },
  { name: 'cpu', input: 'cpu', want: [] },
  { name: 'hugepages-1Gi', input: 'hugepages-1Gi', want: [] },
  ...['storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'limits.cpu', 'limits.memory', 'my.favorite.app.co/12345', 'kubernetes.io/cpu'].map((n) => ({
    name: `${n} is not a pod-level resource`,
    input: n,
    want: [['FieldValueNotSupported', `field: Unsupported value: ${JSON.stringify(n)}: supported values: "cpu", "hugepages-", "memory"`]] as Want,
  })),
  { name: 'limits.storage fails the standard-name check first', input: 'limits.storage', want: [inv('limits.storage', 'must be a standard resource type or fully qualified')] },
  { name: 'network fails the standard-name check first', input: 'network', want: [inv('network', 'must be a standard resource type or fully qualified')] },
  { name: 'disk fails the standard-name check first', input: 'disk', want: [inv('disk', 'must be a standard resource type or fully qualified')] },
];

// upstream TestValidatePodResourceNames inputs not listed above: each fails the plain resource-name
// check first, and validatePodResourceName returns exactly those errors.
const podLevelNameFromResourceNameRows: NameRow[] = resourceNameRows
  .filter((r) => r.want.length > 0 && !['network', 'disk'].includes(r.input))
  .map((r) => ({ name: `${r.name} (as for validateResourceName)`, input: r.input, want: r.want }));
podLevelNameRows.push(
  ...podLevelNameFromResourceNameRows,
  {
    name: 'kubernetes.io/memory is not a pod-level resource',
    input: 'kubernetes.io/memory',
    want: [['FieldValueNotSupported', 'field: Unsupported value: "kubernetes.io/memory": supported values: "cpu", "hugepages-", "memory"']],
  },
);

const containerNameRows: NameRow[] = [
  { name: 'ephemeral-storage is a container resource', input: 'ephemeral-storage', want: [] },
  { name: 'hugepages-2Mi is a container resource', input: 'hugepages-2Mi', want: [] },
  { name: 'nvidia.com/gpu is an extended resource', input: 'nvidia.com/gpu', want: [] },
  { name: 'pods is standard but not for containers', input: 'pods', want: [inv('pods', 'must be a standard resource for containers')] },
  // upstream TestValidateContainerResourceName (pkg/apis/core/v1/validation/validation_test.go), same case names
  { name: 'CPU resource', input: 'cpu', want: [] },
  { name: 'Memory resource', input: 'memory', want: [] },
  { name: 'Hugepages resource', input: 'hugepages-2Mi', want: [] },
  { name: 'Namespaced resource', input: 'kubernetes.io/resource-foo', want: [] },
  { name: 'Extended Resource', input: 'my.org/resource-bar', want: [] },
  {
    name: 'Invalid standard resource',
    input: 'cpu-core',
    want: [inv('cpu-core', 'must be a standard resource type or fully qualified'), inv('cpu-core', 'must be a standard resource for containers')],
  },
  { name: 'Invalid namespaced resource', input: 'kubernetes.io/', want: [inv('kubernetes.io/', 'name part must be non-empty'), inv('kubernetes.io/', namePartMsg)] },
  {
    name: 'Invalid extended resource',
    input: 'my.org-foo-resource',
    want: [inv('my.org-foo-resource', 'must be a standard resource type or fully qualified'), inv('my.org-foo-resource', 'must be a standard resource for containers')],
  },
];

describe('resource name rules (upstream tables as data)', () => {
  for (const r of resourceNameRows) test(`validateResourceName: ${r.name}`, () => assert.deepEqual(render(validateResourceName(r.input, f)), r.want));
  for (const r of podLevelNameRows) test(`validatePodResourceName: ${r.name}`, () => assert.deepEqual(render(validatePodResourceName(r.input, f)), r.want));
  for (const r of containerNameRows) test(`validateContainerResourceName: ${r.name}`, () => assert.deepEqual(render(validateContainerResourceName(r.input, f)), r.want));
});
