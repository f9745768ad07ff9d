// Probes and lifecycle hooks. Rows ported from upstream pkg/apis/core/validation/validation_test.go
// (read, not copied): Test_validateProbe, TestValidateHandler, and the probe and lifecycle rows of
// TestValidateContainers and TestValidateInitContainers; upstream compares only type and field
// there, so each message is re-derived from validation.go. Defaulting rows follow
// pkg/apis/core/v1/defaults.go (SetDefaults_Probe, SetDefaults_HTTPGetAction) and the generated
// grpc.service default.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultPod } from '../../../src/api/defaults.js';
import type { Container, Lifecycle, Pod, Probe } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { allGates, assertErrors, container, podWith, type Want } from './helpers.js';

type Row = { name: string; pod: Pod; want: Want };

const C = 'spec.containers[0]';
const I = 'spec.initContainers[0]';
const moreThanOne = 'Forbidden: may not specify more than 1 handler type';
const portRange = 'must be between 1 and 65535, inclusive';
const nonNeg = 'must be greater than or equal to 0';
const headerMsg = "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";
const sleepMsg = (grace: number) =>
  `must be greater than 0 and less than terminationGracePeriodSeconds (${grace}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`;
const sidecarOnly = 'Forbidden: may not be set for init containers without restartPolicy=Always';

const tcp80 = { tcpSocket: { port: 80 } };
const exec = { exec: { command: ['true'] } };

/** A pod whose first container gets `extra` (probes, lifecycle, …). */
function withC(extra: Partial<Container>, mutate: (p: Pod) => void = () => {}): Pod {
  return podWith((p) => {
    p.spec.containers[0] = container('c', extra);
    mutate(p);
  });
}
const live = (probe: Probe) => withC({ livenessProbe: probe });
const ready = (probe: Probe) => withC({ readinessProbe: probe });
const startup = (probe: Probe) => withC({ startupProbe: probe });
const hooks = (lifecycle: Lifecycle, mutate?: (p: Pod) => void) => withC({ lifecycle }, mutate);
/** A pod with one init container, a sidecar unless `restartPolicy` is left out. */
function withInit(extra: Partial<Container>): Pod {
  return podWith((p) => (p.spec.initContainers = [container('init', extra)]));
}

const rows: Row[] = [
  // handlers (validateHandler)
  { name: 'one exec handler is valid', pod: live(exec), want: [] },
  { name: 'one tcpSocket handler is valid', pod: live(tcp80), want: [] },
  { name: 'one grpc handler is valid', pod: live({ grpc: { port: 9090, service: 'health' } }), want: [] },
  {
    name: 'a probe with no handler: must specify a handler type',
    pod: ready({ periodSeconds: 5 }),
    want: [['FieldValueRequired', `${C}.readinessProbe: Required value: must specify a handler type`]],
  },
  {
    name: 'a second handler is Forbidden at its own field (exec + tcpSocket)',
    pod: live({ ...exec, ...tcp80 }),
    want: [['FieldValueForbidden', `${C}.livenessProbe.tcpSocket: ${moreThanOne}`]],
  },
  {
    name: 'handlers are taken in the order exec, httpGet, tcpSocket, grpc; only the first is checked',
    pod: live({ exec: {}, httpGet: { port: 0 }, grpc: { port: 0 } }),
    want: [
      ['FieldValueRequired', `${C}.livenessProbe.exec.command: Required value`],
      ['FieldValueForbidden', `${C}.livenessProbe.httpGet: ${moreThanOne}`],
      ['FieldValueForbidden', `${C}.livenessProbe.grpc: ${moreThanOne}`],
    ],
  },
  { name: 'exec needs a command', pod: live({ exec: {} }), want: [['FieldValueRequired', `${C}.livenessProbe.exec.command: Required value`]] },
  { name: 'an empty exec command is missing', pod: live({ exec: { command: [] } }), want: [['FieldValueRequired', `${C}.livenessProbe.exec.command: Required value`]] },

  // httpGet (validateHTTPGetAction, ValidatePortNumOrName)
  { name: 'httpGet on port 1 and 65535 is valid', pod: withC({ livenessProbe: { httpGet: { path: '/', port: 1, scheme: 'HTTP' } }, readinessProbe: { httpGet: { path: '/foo', port: 65535, host: 'host', scheme: 'HTTPS' } } }), want: [] },
  { name: 'httpGet on a named port is valid, whether or not the container declares it', pod: live({ httpGet: { path: '/', port: 'port', scheme: 'HTTP' } }), want: [] },
  { name: 'httpGet port 0 is out of range', pod: live({ httpGet: { path: '/', port: 0, scheme: 'HTTP' } }), want: [['FieldValueInvalid', `${C}.livenessProbe.httpGet.port: Invalid value: 0: ${portRange}`]] },
  { name: 'httpGet port 65536 is out of range', pod: live({ httpGet: { path: '/foo', port: 65536, scheme: 'HTTP' } }), want: [['FieldValueInvalid', `${C}.livenessProbe.httpGet.port: Invalid value: 65536: ${portRange}`]] },
  {
    name: 'httpGet without a port is port 0',
    pod: hooks({ preStop: { httpGet: { path: '/', scheme: 'HTTP' } as never } }),
    want: [['FieldValueInvalid', `${C}.lifecycle.preStop.httpGet.port: Invalid value: 0: ${portRange}`]],
  },
  {
    name: 'a port name must be an IANA_SVC_NAME ("80" as a string has no letter)',
    pod: live({ httpGet: { path: '/', port: '80', scheme: 'HTTP' } }),
    want: [['FieldValueInvalid', `${C}.livenessProbe.httpGet.port: Invalid value: "80": must contain at least one letter (a-z)`]],
  },
  {
    name: 'an empty port name fails both charset and letter rules',
    pod: live({ httpGet: { path: '/', port: '', scheme: 'HTTP' } }),
    want: [
      ['FieldValueInvalid', `${C}.livenessProbe.httpGet.port: Invalid value: "": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`],
      ['FieldValueInvalid', `${C}.livenessProbe.httpGet.port: Invalid value: "": must contain at least one letter (a-z)`],
    ],
  },
  { name: 'an explicit empty httpGet path is Required', pod: live({ httpGet: { path: '', port: 80, scheme: 'HTTP' } }), want: [['FieldValueRequired', `${C}.livenessProbe.httpGet.path: Required value`]] },
  {
    name: 'httpGet scheme must be HTTP or HTTPS',
    pod: live({ httpGet: { path: '/', port: 80, scheme: 'ftp' } }),
    want: [['FieldValueNotSupported', `${C}.livenessProbe.httpGet.scheme: Unsupported value: "ftp": supported values: "HTTP", "HTTPS"`]],
  },
  {
    name: 'an explicit empty scheme is Unsupported, not Required',
    pod: hooks({ preStop: { httpGet: { path: '/', port: 80, scheme: '' } } }),
    want: [['FieldValueNotSupported', `${C}.lifecycle.preStop.httpGet.scheme: Unsupported value: "": supported values: "HTTP", "HTTPS"`]],
  },
  {
    name: 'httpGet path and scheme left out are left to defaulting',
    pod: live({ httpGet: { port: 8080 } }),
    want: [],
  },
  {
    name: 'header names may repeat (Host, X-Forwarded-For twice)',
    pod: live({ httpGet: { path: '/', port: 'port', scheme: 'HTTP', httpHeaders: [{ name: 'Host', value: 'foo.example.com' }, { name: 'X-Forwarded-For', value: '1.2.3.4' }, { name: 'X-Forwarded-For', value: '5.6.7.8' }] } }),
    want: [],
  },
  {
    name: 'a header name with a colon is invalid, reported at httpHeaders',
    pod: live({ httpGet: { path: '/', port: 'port', scheme: 'HTTP', httpHeaders: [{ name: 'Host:', value: 'foo.example.com' }] } }),
    want: [['FieldValueInvalid', `${C}.livenessProbe.httpGet.httpHeaders: Invalid value: "Host:": ${headerMsg}`]],
  },
  {
    name: 'a header name with underscores is invalid',
    pod: ready({ httpGet: { path: '/', port: 80, scheme: 'HTTP', httpHeaders: [{ name: 'ok', value: '' }, { name: 'X_Forwarded_For', value: 'foo.example.com' }] } }),
    want: [['FieldValueInvalid', `${C}.readinessProbe.httpGet.httpHeaders: Invalid value: "X_Forwarded_For": ${headerMsg}`]],
  },

  // tcpSocket and grpc
  { name: 'tcpSocket without a port is port 0', pod: live({ tcpSocket: {} as never }), want: [['FieldValueInvalid', `${C}.livenessProbe.tcpSocket.port: Invalid value: 0: ${portRange}`]] },
  { name: 'tcpSocket on a named port is valid', pod: startup({ tcpSocket: { port: 'metrics' } }), want: [] },
  { name: 'grpc port 0 is out of range', pod: ready({ grpc: { port: 0 } }), want: [['FieldValueInvalid', `${C}.readinessProbe.grpc.port: Invalid value: 0: ${portRange}`]] },
  { name: 'grpc port 70000 is out of range', pod: ready({ grpc: { port: 70000 } }), want: [['FieldValueInvalid', `${C}.readinessProbe.grpc.port: Invalid value: 70000: ${portRange}`]] },

  // numbers (validateProbe) and per-kind rules
  { name: 'initialDelaySeconds -1', pod: live({ ...exec, initialDelaySeconds: -1 }), want: [['FieldValueInvalid', `${C}.livenessProbe.initialDelaySeconds: Invalid value: -1: ${nonNeg}`]] },
  { name: 'timeoutSeconds -1', pod: live({ ...exec, timeoutSeconds: -1 }), want: [['FieldValueInvalid', `${C}.livenessProbe.timeoutSeconds: Invalid value: -1: ${nonNeg}`]] },
  { name: 'periodSeconds -1', pod: live({ ...exec, periodSeconds: -1 }), want: [['FieldValueInvalid', `${C}.livenessProbe.periodSeconds: Invalid value: -1: ${nonNeg}`]] },
  { name: 'failureThreshold -1', pod: live({ ...exec, failureThreshold: -1 }), want: [['FieldValueInvalid', `${C}.livenessProbe.failureThreshold: Invalid value: -1: ${nonNeg}`]] },
  {
    name: 'successThreshold -1 on a readiness probe is only negative',
    pod: ready({ ...exec, successThreshold: -1 }),
    want: [['FieldValueInvalid', `${C}.readinessProbe.successThreshold: Invalid value: -1: ${nonNeg}`]],
  },
  { name: 'probe terminationGracePeriodSeconds 0 must be greater than 0', pod: live({ ...exec, terminationGracePeriodSeconds: 0 }), want: [['FieldValueInvalid', `${C}.livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0`]] },
  { name: 'probe terminationGracePeriodSeconds 1 is valid', pod: live({ ...exec, terminationGracePeriodSeconds: 1 }), want: [] },
  { name: 'liveness successThreshold must be 1', pod: live({ ...tcp80, successThreshold: 2 }), want: [['FieldValueInvalid', `${C}.livenessProbe.successThreshold: Invalid value: 2: must be 1`]] },
  { name: 'startup successThreshold must be 1', pod: startup({ ...tcp80, successThreshold: 2 }), want: [['FieldValueInvalid', `${C}.startupProbe.successThreshold: Invalid value: 2: must be 1`]] },
  { name: 'readiness successThreshold may exceed 1', pod: ready({ ...tcp80, successThreshold: 2 }), want: [] },
  {
    name: 'readiness may not set terminationGracePeriodSeconds',
    pod: ready({ ...tcp80, terminationGracePeriodSeconds: 10 }),
    want: [['FieldValueInvalid', `${C}.readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes`]],
  },
  {
    name: 'liveness negative numbers: five non-negative errors, the grace period, then must be 1',
    pod: live({ ...tcp80, initialDelaySeconds: -1, timeoutSeconds: -1, periodSeconds: -1, successThreshold: -1, failureThreshold: -1, terminationGracePeriodSeconds: -1 }),
    want: [
      ['FieldValueInvalid', `${C}.livenessProbe.initialDelaySeconds: Invalid value: -1: ${nonNeg}`],
      ['FieldValueInvalid', `${C}.livenessProbe.timeoutSeconds: Invalid value: -1: ${nonNeg}`],
      ['FieldValueInvalid', `${C}.livenessProbe.periodSeconds: Invalid value: -1: ${nonNeg}`],
      ['FieldValueInvalid', `${C}.livenessProbe.successThreshold: Invalid value: -1: ${nonNeg}`],
      ['FieldValueInvalid', `${C}.livenessProbe.failureThreshold: Invalid value: -1: ${nonNeg}`],
      ['FieldValueInvalid', `${C}.livenessProbe.terminationGracePeriodSeconds: Invalid value: -1: must be greater than 0`],
      ['FieldValueInvalid', `${C}.livenessProbe.successThreshold: Invalid value: -1: must be 1`],
    ],
  },
  {
    name: 'readiness negative numbers: the grace period twice (not positive, not allowed)',
    pod: ready({ ...tcp80, initialDelaySeconds: -1, timeoutSeconds: -1, periodSeconds: -1, successThreshold: -1, failureThreshold: -1, terminationGracePeriodSeconds: -1 }),
    want: [
      ['FieldValueInvalid', `${C}.readinessProbe.initialDelaySeconds: Invalid value: -1: ${nonNeg}`],
      ['FieldValueInvalid', `${C}.readinessProbe.timeoutSeconds: Invalid value: -1: ${nonNeg}`],
      ['FieldValueInvalid', `${C}.readinessProbe.periodSeconds: Invalid value: -1: ${nonNeg}`],
      ['FieldValueInvalid', `${C}.readinessProbe.successThreshold: Invalid value: -1: ${nonNeg}`],
      ['FieldValueInvalid', `${C}.readinessProbe.failureThreshold: Invalid value: -1: ${nonNeg}`],
      ['FieldValueInvalid', `${C}.readinessProbe.terminationGracePeriodSeconds: Invalid value: -1: must be greater than 0`],
      ['FieldValueInvalid', `${C}.readinessProbe.terminationGracePeriodSeconds: Invalid value: -1: must not be set for readinessProbes`],
    ],
  },

  // lifecycle (validateLifecycle)
  { name: 'a preStop exec hook is valid', pod: hooks({ preStop: { exec: { command: ['ls', '-l'] } } }), want: [] },
  { name: 'lifecycle with no hooks is valid', pod: hooks({}), want: [] },
  { name: 'a hook with no action: must specify a handler type', pod: hooks({ preStop: {} }), want: [['FieldValueRequired', `${C}.lifecycle.preStop: Required value: must specify a handler type`]] },
  { name: 'a preStop exec hook needs a command', pod: hooks({ preStop: { exec: {} } }), want: [['FieldValueRequired', `${C}.lifecycle.preStop.exec.command: Required value`]] },
  { name: 'a preStop httpGet hook with an empty path', pod: hooks({ preStop: { httpGet: { path: '', port: 80, scheme: 'HTTP' } } }), want: [['FieldValueRequired', `${C}.lifecycle.preStop.httpGet.path: Required value`]] },
  { name: 'a preStop tcpSocket hook on port 0', pod: hooks({ preStop: { tcpSocket: { port: 0 } } }), want: [['FieldValueInvalid', `${C}.lifecycle.preStop.tcpSocket.port: Invalid value: 0: ${portRange}`]] },
  {
    name: 'a second action in a hook is Forbidden (exec + sleep)',
    pod: hooks({ postStart: { exec: { command: ['true'] }, sleep: { seconds: 1 } } }),
    want: [['FieldValueForbidden', `${C}.lifecycle.postStart.sleep: ${moreThanOne}`]],
  },
  {
    name: 'postStart is checked before preStop',
    pod: hooks({ postStart: {}, preStop: {} }),
    want: [
      ['FieldValueRequired', `${C}.lifecycle.postStart: Required value: must specify a handler type`],
      ['FieldValueRequired', `${C}.lifecycle.preStop: Required value: must specify a handler type`],
    ],
  },
  { name: 'sleep of 5 seconds is valid', pod: hooks({ preStop: { sleep: { seconds: 5 } } }), want: [] },
  { name: 'sleep equal to the pod grace period is valid', pod: hooks({ preStop: { sleep: { seconds: 30 } } }), want: [] },
  {
    name: 'sleep of 0 is refused (PodLifecycleSleepActionAllowZero is alpha and off in 1.32)',
    pod: hooks({ preStop: { sleep: { seconds: 0 } } }),
    want: [['FieldValueInvalid', `${C}.lifecycle.preStop.sleep: Invalid value: 0: ${sleepMsg(30)}`]],
  },
  { name: 'negative sleep is refused', pod: hooks({ postStart: { sleep: { seconds: -1 } } }), want: [['FieldValueInvalid', `${C}.lifecycle.postStart.sleep: Invalid value: -1: ${sleepMsg(30)}`]] },
  {
    name: 'sleep longer than the pod grace period is refused',
    pod: hooks({ preStop: { sleep: { seconds: 11 } } }, (p) => (p.spec.terminationGracePeriodSeconds = 10)),
    want: [['FieldValueInvalid', `${C}.lifecycle.preStop.sleep: Invalid value: 11: ${sleepMsg(10)}`]],
  },
  {
    name: 'sleep is not bounded when the pod has no grace period',
    pod: hooks({ preStop: { sleep: { seconds: 0 } } }, (p) => delete p.spec.terminationGracePeriodSeconds),
    want: [],
  },

  // order within validateContainers: lifecycle, liveness, readiness, startup, then restartPolicy
  {
    name: 'lifecycle, then the three probes, then restartPolicy',
    pod: withC({ restartPolicy: 'Always', startupProbe: {}, readinessProbe: {}, livenessProbe: {}, lifecycle: { preStop: {} } }),
    want: [
      ['FieldValueRequired', `${C}.lifecycle.preStop: Required value: must specify a handler type`],
      ['FieldValueRequired', `${C}.livenessProbe: Required value: must specify a handler type`],
      ['FieldValueRequired', `${C}.readinessProbe: Required value: must specify a handler type`],
      ['FieldValueRequired', `${C}.startupProbe: Required value: must specify a handler type`],
      ['FieldValueForbidden', `${C}.restartPolicy: Forbidden: may not be set for non-init containers`],
    ],
  },
  {
    name: 'a later container is checked at its own index',
    pod: podWith((p) => p.spec.containers.push(container('second', { livenessProbe: { ...exec, successThreshold: 3 } }))),
    want: [['FieldValueInvalid', 'spec.containers[1].livenessProbe.successThreshold: Invalid value: 3: must be 1']],
  },

  // init containers (validateInitContainers)
  { name: 'an init container may not have a liveness probe', pod: withInit({ livenessProbe: { ...tcp80, successThreshold: 1 } }), want: [['FieldValueForbidden', `${I}.livenessProbe: ${sidecarOnly}`]] },
  { name: 'an init container may not have lifecycle hooks', pod: withInit({ lifecycle: { preStop: { exec: { command: ['ls', '-l'] } } } }), want: [['FieldValueForbidden', `${I}.lifecycle: ${sidecarOnly}`]] },
  {
    name: 'a disallowed probe with other errors gives only the Forbidden',
    pod: withInit({ startupProbe: { ...tcp80, initialDelaySeconds: -1, timeoutSeconds: -1, periodSeconds: -1, successThreshold: -1, failureThreshold: -1, terminationGracePeriodSeconds: -1 } }),
    want: [['FieldValueForbidden', `${I}.startupProbe: ${sidecarOnly}`]],
  },
  {
    name: 'a sidecar may have lifecycle hooks and all three probes',
    pod: withInit({
      restartPolicy: 'Always',
      lifecycle: { postStart: { exec: { command: ['echo', 'post start'] } }, preStop: { exec: { command: ['echo', 'pre stop'] } } },
      livenessProbe: { ...tcp80, successThreshold: 1 },
      readinessProbe: tcp80,
      startupProbe: { ...tcp80, successThreshold: 1 },
    }),
    want: [],
  },
  { name: 'a sidecar startup probe: successThreshold must be 1', pod: withInit({ restartPolicy: 'Always', startupProbe: { ...tcp80, successThreshold: 2 } }), want: [['FieldValueInvalid', `${I}.startupProbe.successThreshold: Invalid value: 2: must be 1`]] },
  { name: 'a sidecar liveness probe: successThreshold must be 1', pod: withInit({ restartPolicy: 'Always', livenessProbe: { ...tcp80, successThreshold: 2 } }), want: [['FieldValueInvalid', `${I}.livenessProbe.successThreshold: Invalid value: 2: must be 1`]] },
  {
    name: 'a sidecar readiness probe may not set terminationGracePeriodSeconds',
    pod: withInit({ restartPolicy: 'Always', readinessProbe: { ...tcp80, terminationGracePeriodSeconds: 10 } }),
    want: [['FieldValueInvalid', `${I}.readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes`]],
  },
  { name: 'a sidecar hook with no action', pod: withInit({ restartPolicy: 'Always', lifecycle: { preStop: {} } }), want: [['FieldValueRequired', `${I}.lifecycle.preStop: Required value: must specify a handler type`]] },
  { name: 'a sidecar hook: exec needs a command', pod: withInit({ restartPolicy: 'Always', lifecycle: { preStop: { exec: {} } } }), want: [['FieldValueRequired', `${I}.lifecycle.preStop.exec.command: Required value`]] },
  { name: 'a sidecar hook: tcpSocket without a port', pod: withInit({ restartPolicy: 'Always', lifecycle: { preStop: { tcpSocket: {} as never } } }), want: [['FieldValueInvalid', `${I}.lifecycle.preStop.tcpSocket.port: Invalid value: 0: ${portRange}`]] },
  {
    name: 'a sidecar sleep is bounded by the pod grace period',
    pod: podWith((p) => {
      p.spec.terminationGracePeriodSeconds = 5;
      p.spec.initContainers = [container('init', { restartPolicy: 'Always', lifecycle: { preStop: { sleep: { seconds: 6 } } } })];
    }),
    want: [['FieldValueInvalid', `${I}.lifecycle.preStop.sleep: Invalid value: 6: ${sleepMsg(5)}`]],
  },
  {
    name: 'init order: restartPolicy, name, host ports, then probes',
    pod: podWith((p) => {
      p.spec.initContainers = [
        container('c', { restartPolicy: 'OnFailure', ports: [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }, { containerPort: 81, hostPort: 80, protocol: 'TCP' }], readinessProbe: {} }),
        container('side', { restartPolicy: 'Always', readinessProbe: {} }),
      ];
    }),
    want: [
      ['FieldValueNotSupported', `${I}.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`],
      ['FieldValueDuplicate', `${I}.name: Duplicate value: "c"`],
      ['FieldValueDuplicate', `${I}.ports[1].hostPort: Duplicate value: "TCP//80"`],
      ['FieldValueForbidden', `${I}.readinessProbe: ${sidecarOnly}`],
      ['FieldValueRequired', 'spec.initContainers[1].readinessProbe: Required value: must specify a handler type'],
    ],
  },

  // ephemeral containers: the allow-list Forbidden only, no probe checks
  {
    name: 'an ephemeral container probe is Forbidden and not otherwise checked',
    pod: podWith((p) => (p.spec.ephemeralContainers = [{ ...container('debug'), livenessProbe: { successThreshold: 5 } }])),
    want: [
      ['FieldValueForbidden', 'spec.ephemeralContainers[0].livenessProbe: Forbidden: cannot be set for an Ephemeral Container'],
      ['FieldValueForbidden', 'spec.ephemeralContainers: Forbidden: cannot be set on create'],
    ],
  },
];

describe('probes and lifecycle hooks (validateContainers, validateInitContainers)', () => {
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});

/** The first container's probes and lifecycle after API defaulting. */
function defaulted(extra: Partial<Container>, ephemeral = false): Container {
  const p: Pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'c', image: 'img:1', ...extra }] } };
  if (ephemeral) p.spec.ephemeralContainers = [{ name: 'e', image: 'img:1', ...extra }];
  const out = defaultPod(p, { gates: { PodLevelResources: true } });
  return ephemeral ? out.spec.ephemeralContainers![0]! : out.spec.containers[0]!;
}

describe('probe and lifecycle defaults (SetDefaults_Probe, SetDefaults_HTTPGetAction)', () => {
  test('a probe gets timeoutSeconds 1, periodSeconds 10, successThreshold 1, failureThreshold 3; initialDelaySeconds stays unset', () => {
    assert.deepEqual(defaulted({ livenessProbe: { ...exec } }).livenessProbe, {
      exec: { command: ['true'] }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3,
    });
  });
  test('explicit zeros are defaulted as Go does (0 is the unset value)', () => {
    const p = defaulted({ readinessProbe: { ...tcp80, timeoutSeconds: 0, periodSeconds: 0, successThreshold: 0, failureThreshold: 0 } }).readinessProbe!;
    assert.deepEqual([p.timeoutSeconds, p.periodSeconds, p.successThreshold, p.failureThreshold], [1, 10, 1, 3]);
  });
  test('set values are kept', () => {
    const p = defaulted({ startupProbe: { ...tcp80, timeoutSeconds: 5, periodSeconds: 2, successThreshold: 1, failureThreshold: 30, initialDelaySeconds: 4 } }).startupProbe!;
    assert.deepEqual([p.timeoutSeconds, p.periodSeconds, p.successThreshold, p.failureThreshold, p.initialDelaySeconds], [5, 2, 1, 30, 4]);
  });
  test('httpGet path "/" and scheme HTTP, also in place of empty strings', () => {
    assert.deepEqual(defaulted({ livenessProbe: { httpGet: { port: 8080 } } }).livenessProbe!.httpGet, { port: 8080, path: '/', scheme: 'HTTP' });
    assert.deepEqual(defaulted({ livenessProbe: { httpGet: { port: 8080, path: '', scheme: '' } } }).livenessProbe!.httpGet, { port: 8080, path: '/', scheme: 'HTTP' });
    assert.deepEqual(defaulted({ livenessProbe: { httpGet: { port: 'web', path: '/healthz', scheme: 'HTTPS' } } }).livenessProbe!.httpGet, { port: 'web', path: '/healthz', scheme: 'HTTPS' });
  });
  test('grpc service defaults to the empty string', () => {
    assert.deepEqual(defaulted({ readinessProbe: { grpc: { port: 9090 } } }).readinessProbe!.grpc, { port: 9090, service: '' });
    assert.deepEqual(defaulted({ readinessProbe: { grpc: { port: 9090, service: 'x' } } }).readinessProbe!.grpc, { port: 9090, service: 'x' });
  });
  test('lifecycle httpGet hooks get path and scheme; other actions are left alone', () => {
    const lc = defaulted({ lifecycle: { postStart: { httpGet: { port: 80 } }, preStop: { sleep: { seconds: 5 } } } }).lifecycle;
    assert.deepEqual(lc, { postStart: { httpGet: { port: 80, path: '/', scheme: 'HTTP' } }, preStop: { sleep: { seconds: 5 } } });
  });
  test('ephemeral containers are defaulted too', () => {
    assert.deepEqual(defaulted({ livenessProbe: { httpGet: { port: 80 } } }, true).livenessProbe, {
      httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3,
    });
  });
  test('validation sees defaulted values: a liveness successThreshold of 0 becomes 1 and passes', () => {
    const pod = defaultPod(
      { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'c', image: 'img:1', livenessProbe: { httpGet: { port: 80, path: '' }, successThreshold: 0 } }] } },
      { gates: { PodLevelResources: true } },
    );
    assertErrors(validatePodCreate(pod, { gates: allGates }), []);
  });
});
