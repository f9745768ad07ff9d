// Service defaulting and validation, one row per rule of pkg/apis/core/v1 SetDefaults_Service and
// pkg/apis/core/validation (ValidateService, validateServicePort,
// ValidateServiceClusterIPsRelatedFields, the traffic policy checks, ValidateServiceUpdate,
// ValidateServiceStatusUpdate), with Kubernetes' paths and wording.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultService } from '../../../src/api/servicedefaults.js';
import type { Service, ServiceSpec } from '../../../src/api/types.js';
import { validateService, validateServiceStatusUpdate, validateServiceUpdate } from '../../../src/api/validation/index.js';
import { assertErrors, type Want } from './helpers.js';

/** A valid ClusterIP service as it is stored: defaulted and allocated. */
const svc = (spec: Partial<ServiceSpec> = {}, meta: Partial<Service['metadata']> = {}): Service => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'default', ...meta },
  spec: {
    type: 'ClusterIP',
    clusterIP: '10.96.0.10',
    clusterIPs: ['10.96.0.10'],
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    sessionAffinity: 'None',
    internalTrafficPolicy: 'Cluster',
    ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }],
    selector: { app: 'web' },
    ...spec,
  },
});
const nodePort = (spec: Partial<ServiceSpec> = {}) => svc({ type: 'NodePort', externalTrafficPolicy: 'Cluster', ports: [{ port: 80, protocol: 'TCP', targetPort: 80, nodePort: 30080 }], ...spec });
const lb = (spec: Partial<ServiceSpec> = {}) => nodePort({ type: 'LoadBalancer', allocateLoadBalancerNodePorts: true, ...spec });
const externalName = (spec: Partial<ServiceSpec> = {}): Service => {
  const s = svc({ type: 'ExternalName', externalName: 'example.com', ...spec });
  for (const k of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy'] as const) if (!(k in spec)) delete s.spec![k];
  return s;
};
const dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const portRange = 'must be between 1 and 65535, inclusive';
const servicePort = (protocol: string, port: number) =>
  `core.ServicePort{Name:"", Protocol:"${protocol}", AppProtocol:(*string)(nil), Port:${port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;

describe('validateService', () => {
  const rows: { name: string; svc: Service; want: Want }[] = [
    { name: 'a defaulted ClusterIP service is valid', svc: svc(), want: [] },
    { name: 'a NodePort service is valid', svc: nodePort(), want: [] },
    { name: 'a LoadBalancer service is valid', svc: lb(), want: [] },
    { name: 'an ExternalName service is valid', svc: externalName(), want: [] },
    { name: 'an ExternalName may end in a dot', svc: externalName({ externalName: 'example.com.' }), want: [] },
    { name: 'a headless service needs no ports', svc: svc({ clusterIP: 'None', clusterIPs: ['None'], ports: [] }), want: [] },
    // ValidateServiceName: a DNS-1035 label.
    { name: 'the name is a DNS-1035 label: no leading digit', svc: svc({}, { name: '1web' }), want: [['FieldValueInvalid', `metadata.name: Invalid value: "1web": ${dns1035}`]] },
    { name: 'the name is a DNS-1035 label: no dots', svc: svc({}, { name: 'web.app' }), want: [['FieldValueInvalid', `metadata.name: Invalid value: "web.app": ${dns1035}`]] },
    { name: 'ports are required but for headless and ExternalName services', svc: svc({ ports: [] }), want: [['FieldValueRequired', 'spec.ports: Required value']] },
    // Types.
    { name: 'an unknown type is not supported', svc: svc({ type: 'Weird' }), want: [['FieldValueNotSupported', 'spec.type: Unsupported value: "Weird": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']] },
    { name: 'type is required', svc: svc({ type: '' }), want: [['FieldValueRequired', 'spec.type: Required value']] },
    { name: 'a NodePort service may not be headless', svc: nodePort({ clusterIP: 'None', clusterIPs: ['None'] }), want: [['FieldValueInvalid', `spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`]] },
    { name: 'a LoadBalancer service may not be headless', svc: lb({ clusterIP: 'None', clusterIPs: ['None'] }), want: [['FieldValueInvalid', `spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for LoadBalancer services`]] },
    { name: 'an ExternalName service has no cluster IPs', svc: externalName({ clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] }), want: [['FieldValueForbidden', 'spec.clusterIPs: Forbidden: may not be set for ExternalName services']] },
    { name: 'an ExternalName service has no IP families', svc: externalName({ ipFamilies: ['IPv4'] }), want: [['FieldValueForbidden', 'spec.ipFamilies: Forbidden: may not be set for ExternalName services']] },
    { name: 'an ExternalName service has no IP family policy', svc: externalName({ ipFamilyPolicy: 'SingleStack' }), want: [['FieldValueForbidden', 'spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services']] },
    { name: 'an ExternalName service needs its name', svc: externalName({ externalName: '' }), want: [['FieldValueRequired', 'spec.externalName: Required value']] },
    {
      name: 'the external name is a DNS subdomain',
      svc: externalName({ externalName: 'Example_com' }),
      want: [['FieldValueInvalid', `spec.externalName: Invalid value: "Example_com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`]],
    },
    // Ports.
    { name: 'a port number is 1..65535', svc: svc({ ports: [{ port: 0, protocol: 'TCP', targetPort: 80 }] }), want: [['FieldValueInvalid', `spec.ports[0].port: Invalid value: 0: ${portRange}`]] },
    { name: 'a port above 65535 is invalid', svc: svc({ ports: [{ port: 65536, protocol: 'TCP', targetPort: 80 }] }), want: [['FieldValueInvalid', `spec.ports[0].port: Invalid value: 65536: ${portRange}`]] },
    { name: 'the protocol is required', svc: svc({ ports: [{ port: 80, protocol: '', targetPort: 80 }] }), want: [['FieldValueRequired', 'spec.ports[0].protocol: Required value']] },
    { name: 'TCP, UDP and SCTP are the protocols', svc: svc({ ports: [{ port: 80, protocol: 'ICMP', targetPort: 80 }] }), want: [['FieldValueNotSupported', 'spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"']] },
    { name: 'UDP is a protocol', svc: svc({ ports: [{ port: 53, protocol: 'UDP', targetPort: 53 }] }), want: [] },
    { name: 'a numeric targetPort is a port number', svc: svc({ ports: [{ port: 80, protocol: 'TCP', targetPort: 70000 }] }), want: [['FieldValueInvalid', `spec.ports[0].targetPort: Invalid value: 70000: ${portRange}`]] },
    { name: 'a named targetPort is an IANA service name', svc: svc({ ports: [{ port: 80, protocol: 'TCP', targetPort: 'my_port' }] }), want: [['FieldValueInvalid', 'spec.ports[0].targetPort: Invalid value: "my_port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)']] },
    { name: 'a named targetPort is valid', svc: svc({ ports: [{ port: 80, protocol: 'TCP', targetPort: 'http' }] }), want: [] },
    {
      name: 'several ports each need a name',
      svc: svc({ ports: [{ name: 'a', port: 80, protocol: 'TCP', targetPort: 80 }, { port: 81, protocol: 'TCP', targetPort: 81 }] }),
      want: [['FieldValueRequired', 'spec.ports[1].name: Required value']],
    },
    {
      name: 'port names are unique',
      svc: svc({ ports: [{ name: 'a', port: 80, protocol: 'TCP', targetPort: 80 }, { name: 'a', port: 81, protocol: 'TCP', targetPort: 81 }] }),
      want: [['FieldValueDuplicate', 'spec.ports[1].name: Duplicate value: "a"']],
    },
    {
      name: 'a port name is a DNS-1123 label',
      svc: svc({ ports: [{ name: 'A', port: 80, protocol: 'TCP', targetPort: 80 }] }),
      want: [['FieldValueInvalid', `spec.ports[0].name: Invalid value: "A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`]],
    },
    {
      name: 'one port and protocol once',
      svc: svc({ ports: [{ name: 'a', port: 80, protocol: 'TCP', targetPort: 80 }, { name: 'b', port: 80, protocol: 'TCP', targetPort: 81 }] }),
      want: [['FieldValueDuplicate', `spec.ports[1]: Duplicate value: ${servicePort('TCP', 80)}`]],
    },
    {
      name: 'one port number may serve TCP and UDP',
      svc: svc({ ports: [{ name: 'a', port: 53, protocol: 'TCP', targetPort: 53 }, { name: 'b', port: 53, protocol: 'UDP', targetPort: 53 }] }),
      want: [],
    },
    { name: 'a ClusterIP service takes no node port', svc: svc({ ports: [{ port: 80, protocol: 'TCP', targetPort: 80, nodePort: 30080 }] }), want: [['FieldValueForbidden', "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]] },
    {
      name: 'a node port and protocol once',
      svc: nodePort({ ports: [{ name: 'a', port: 80, protocol: 'TCP', targetPort: 80, nodePort: 30080 }, { name: 'b', port: 81, protocol: 'TCP', targetPort: 81, nodePort: 30080 }] }),
      want: [['FieldValueDuplicate', 'spec.ports[1].nodePort: Duplicate value: 30080']],
    },
    { name: 'an appProtocol is a qualified name', svc: svc({ ports: [{ port: 80, protocol: 'TCP', targetPort: 80, appProtocol: 'kubernetes.io/h2c' }] }), want: [] },
    // Selector, session affinity.
    { name: 'selector values are label values', svc: svc({ selector: { app: 'a b' } }), want: [['FieldValueInvalid', `spec.selector: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`]] },
    { name: 'sessionAffinity is required', svc: svc({ sessionAffinity: '' }), want: [['FieldValueRequired', 'spec.sessionAffinity: Required value']] },
    { name: 'sessionAffinity is None or ClientIP', svc: svc({ sessionAffinity: 'Cookie' }), want: [['FieldValueNotSupported', 'spec.sessionAffinity: Unsupported value: "Cookie": supported values: "ClientIP", "None"']] },
    { name: 'ClientIP affinity with a timeout is valid', svc: svc({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } }), want: [] },
    { name: 'ClientIP affinity needs its config', svc: svc({ sessionAffinity: 'ClientIP' }), want: [['FieldValueRequired', 'spec.sessionAffinityConfig: Required value: when session affinity type is ClientIP']] },
    { name: 'ClientIP affinity timeout at most a day', svc: svc({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } } }), want: [['FieldValueInvalid', 'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400']] },
    { name: 'no affinity config with None', svc: svc({ sessionAffinityConfig: { clientIP: { timeoutSeconds: 10 } } }), want: [['FieldValueForbidden', 'spec.sessionAffinityConfig: Forbidden: must not be set when session affinity is None']] },
    // Cluster IPs and families.
    { name: 'clusterIPs follows clusterIP', svc: svc({ clusterIPs: [] }), want: [['FieldValueRequired', 'spec.clusterIPs: Required value']] },
    { name: 'the first cluster IP is clusterIP', svc: svc({ clusterIPs: ['10.96.0.11'] }), want: [['FieldValueInvalid', 'spec.clusterIPs: Invalid value: []string{"10.96.0.11"}: first value must match `clusterIP`']] },
    { name: 'no clusterIPs without clusterIP', svc: svc({ clusterIP: '', clusterIPs: ['10.96.0.11'] }), want: [['FieldValueInvalid', 'spec.clusterIPs: Invalid value: []string{"10.96.0.11"}: must be empty when `clusterIP` is not specified']] },
    { name: 'a cluster IP is an IP', svc: svc({ clusterIP: '10.96.0.300', clusterIPs: ['10.96.0.300'] }), want: [['FieldValueInvalid', 'spec.clusterIPs[0]: Invalid value: "10.96.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']] },
    { name: 'None is the only value when it is one', svc: svc({ clusterIP: 'None', clusterIPs: ['None', '10.96.0.1'] }), want: [['FieldValueInvalid', `spec.clusterIPs: Invalid value: []string{"None", "10.96.0.1"}: 'None' must be the first and only value`]] },
    { name: 'two cluster IPs of one family are refused', svc: svc({ clusterIPs: ['10.96.0.10', '10.96.0.11'] }), want: [['FieldValueInvalid', 'spec.clusterIPs: Invalid value: []string{"10.96.0.10", "10.96.0.11"}: may specify no more than one IP for each IP family']] },
    { name: 'IPv4 and IPv6 are the families', svc: svc({ ipFamilies: ['IPv5'] }), want: [['FieldValueNotSupported', 'spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"']] },
    { name: 'a family once', svc: svc({ ipFamilies: ['IPv4', 'IPv4'] }), want: [['FieldValueDuplicate', 'spec.ipFamilies[1]: Duplicate value: "IPv4"']] },
    { name: 'a cluster IP matches its family', svc: svc({ ipFamilies: ['IPv6'] }), want: [['FieldValueInvalid', 'spec.clusterIPs[0]: Invalid value: "10.96.0.10": expected an IPv6 value as indicated by `ipFamilies[0]`']] },
    { name: 'the family policies', svc: svc({ ipFamilyPolicy: 'Both' }), want: [['FieldValueNotSupported', 'spec.ipFamilyPolicy: Unsupported value: "Both": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"']] },
    // External IPs.
    { name: 'an external IP is an IP', svc: svc({ externalIPs: ['nope'], externalTrafficPolicy: 'Cluster' }), want: [['FieldValueInvalid', 'spec.externalIPs[0]: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']] },
    { name: 'an external IP is not loopback', svc: svc({ externalIPs: ['127.0.0.1'], externalTrafficPolicy: 'Cluster' }), want: [['FieldValueInvalid', 'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']] },
    { name: 'an external IP is not link-local', svc: svc({ externalIPs: ['169.254.1.1'], externalTrafficPolicy: 'Cluster' }), want: [['FieldValueInvalid', 'spec.externalIPs[0]: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)']] },
    { name: 'an external IP is not unspecified', svc: svc({ externalIPs: ['0.0.0.0'], externalTrafficPolicy: 'Cluster' }), want: [['FieldValueInvalid', 'spec.externalIPs[0]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)']] },
    // Load balancer fields.
    { name: 'source ranges only for a LoadBalancer', svc: svc({ loadBalancerSourceRanges: ['10.0.0.0/8'] }), want: [['FieldValueForbidden', "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'"]] },
    { name: 'source ranges are CIDRs', svc: lb({ loadBalancerSourceRanges: ['10.0.0.0'] }), want: [['FieldValueInvalid', 'spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']] },
    { name: 'allocateLoadBalancerNodePorts only for a LoadBalancer', svc: nodePort({ allocateLoadBalancerNodePorts: true }), want: [['FieldValueForbidden', "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'"]] },
    { name: 'a LoadBalancer needs allocateLoadBalancerNodePorts (upstream\'s path has no spec.)', svc: lb({ allocateLoadBalancerNodePorts: undefined }), want: [['FieldValueRequired', 'allocateLoadBalancerNodePorts: Required value']] },
    { name: 'loadBalancerClass only for a LoadBalancer', svc: svc({ loadBalancerClass: 'example.com/lb' }), want: [['FieldValueForbidden', "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'"]] },
    // Traffic policies.
    { name: 'externalTrafficPolicy only for externally-accessible services', svc: svc({ externalTrafficPolicy: 'Local' }), want: [['FieldValueInvalid', 'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services']] },
    { name: 'a NodePort needs externalTrafficPolicy', svc: nodePort({ externalTrafficPolicy: '' }), want: [['FieldValueRequired', 'spec.externalTrafficPolicy: Required value']] },
    { name: 'externalTrafficPolicy is Cluster or Local', svc: nodePort({ externalTrafficPolicy: 'Global' }), want: [['FieldValueNotSupported', 'spec.externalTrafficPolicy: Unsupported value: "Global": supported values: "Cluster", "Local"']] },
    { name: 'a health check node port only for a Local LoadBalancer', svc: nodePort({ healthCheckNodePort: 30001 }), want: [['FieldValueInvalid', "spec.healthCheckNodePort: Invalid value: 30001: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"]] },
    { name: 'a Local LoadBalancer needs its health check node port', svc: lb({ externalTrafficPolicy: 'Local' }), want: [['FieldValueRequired', 'spec.healthCheckNodePort: Required value']] },
    { name: 'internalTrafficPolicy is required for ClusterIP', svc: svc({ internalTrafficPolicy: undefined }), want: [['FieldValueRequired', 'spec.internalTrafficPolicy: Required value']] },
    { name: 'internalTrafficPolicy is Cluster or Local', svc: svc({ internalTrafficPolicy: 'Node' }), want: [['FieldValueNotSupported', 'spec.internalTrafficPolicy: Unsupported value: "Node": supported values: "Cluster", "Local"']] },
    { name: 'trafficDistribution is PreferClose', svc: svc({ trafficDistribution: 'Nearest' }), want: [['FieldValueNotSupported', 'spec.trafficDistribution: Unsupported value: "Nearest": supported values: "PreferClose"']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateService(r.svc), r.want));
});

describe('validateServiceUpdate', () => {
  const rows: { name: string; old: Service; svc: Service; want: Want }[] = [
    { name: 'an unchanged service is valid', old: svc(), svc: svc(), want: [] },
    {
      name: 'the cluster IP cannot change',
      old: svc(),
      svc: svc({ clusterIP: '10.96.0.11', clusterIPs: ['10.96.0.11'] }),
      want: [['FieldValueInvalid', 'spec.clusterIPs[0]: Invalid value: []string{"10.96.0.11"}: may not change once set']],
    },
    {
      name: 'the cluster IP cannot be unset',
      old: svc(),
      svc: svc({ clusterIP: '', clusterIPs: [] }),
      want: [['FieldValueInvalid', 'spec.clusterIPs[0]: Invalid value: []string{}: primary clusterIP can not be unset']],
    },
    { name: 'the family cannot change', old: svc(), svc: svc({ ipFamilies: ['IPv6'] }), want: [
      ['FieldValueInvalid', 'spec.ipFamilies[0]: Invalid value: []core.IPFamily{"IPv6"}: may not change once set'],
      ['FieldValueInvalid', 'spec.clusterIPs[0]: Invalid value: "10.96.0.10": expected an IPv6 value as indicated by `ipFamilies[0]`'],
    ] },
    { name: 'a cluster IP may go with a change to ExternalName', old: svc(), svc: externalName(), want: [] },
    { name: 'a headless service stays headless without errors of cluster IPs', old: svc({ clusterIP: 'None', clusterIPs: ['None'] }), svc: svc({ clusterIP: 'None', clusterIPs: ['None'] }), want: [] },
    {
      name: 'the health check node port of a Local LoadBalancer is immutable',
      old: lb({ externalTrafficPolicy: 'Local', healthCheckNodePort: 30001 }),
      svc: lb({ externalTrafficPolicy: 'Local', healthCheckNodePort: 30002 }),
      want: [['FieldValueForbidden', 'spec.healthCheckNodePort: Forbidden: field is immutable']],
    },
    { name: 'the loadBalancerClass cannot change', old: lb({ loadBalancerClass: 'a.io/x' }), svc: lb({ loadBalancerClass: 'a.io/y' }), want: [['FieldValueInvalid', 'spec.loadBalancerClass: Invalid value: "a.io/y": may not change once set']] },
    { name: 'the name is immutable', old: svc(), svc: svc({}, { name: 'other' }), want: [['FieldValueInvalid', 'metadata.name: Invalid value: "other": field is immutable']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateServiceUpdate(r.svc, r.old), r.want));
});

describe('validateServiceStatusUpdate', () => {
  const withIngress = (ingress: NonNullable<NonNullable<Service['status']>['loadBalancer']>['ingress']) => ({ ...lb(), status: { loadBalancer: { ingress } } });
  const rows: { name: string; svc: Service; want: Want }[] = [
    { name: 'an ingress IP is valid', svc: withIngress([{ ip: '192.0.2.1' }]), want: [] },
    { name: 'an ingress IP is an IP', svc: withIngress([{ ip: 'nope' }]), want: [['FieldValueInvalid', 'status.loadBalancer.ingress[0].ip: Invalid value: "nope": must be a valid IP address']] },
    { name: 'an ingress hostname is not an IP', svc: withIngress([{ hostname: '192.0.2.1' }]), want: [['FieldValueInvalid', 'status.loadBalancer.ingress[0].hostname: Invalid value: "192.0.2.1": must be a DNS name, not an IP address']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateServiceStatusUpdate(r.svc, lb()), r.want));
});

describe('defaultService (SetDefaults_Service)', () => {
  const base = (spec: Partial<ServiceSpec>): Service => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec });
  const rows: { name: string; in: Partial<ServiceSpec>; want: Partial<ServiceSpec> }[] = [
    { name: 'type ClusterIP, sessionAffinity None, internalTrafficPolicy Cluster', in: {}, want: { type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' } },
    { name: 'a port gets protocol TCP and targetPort = port', in: { ports: [{ port: 80 }] }, want: { ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' } },
    { name: 'a targetPort 0 or "" is defaulted too', in: { ports: [{ port: 80, targetPort: 0 }, { port: 81, targetPort: '' }] }, want: { ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }, { port: 81, protocol: 'TCP', targetPort: 81 }], type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' } },
    { name: 'a given protocol and targetPort stay', in: { ports: [{ port: 53, protocol: 'UDP', targetPort: 'dns' }] }, want: { ports: [{ port: 53, protocol: 'UDP', targetPort: 'dns' }], type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' } },
    { name: 'a NodePort gets externalTrafficPolicy Cluster', in: { type: 'NodePort' }, want: { type: 'NodePort', sessionAffinity: 'None', externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster' } },
    { name: 'a ClusterIP with external IPs gets externalTrafficPolicy Cluster', in: { externalIPs: ['192.0.2.1'] }, want: { externalIPs: ['192.0.2.1'], type: 'ClusterIP', sessionAffinity: 'None', externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster' } },
    { name: 'a LoadBalancer allocates node ports by default', in: { type: 'LoadBalancer' }, want: { type: 'LoadBalancer', sessionAffinity: 'None', externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true } },
    { name: 'an ExternalName gets no traffic policy', in: { type: 'ExternalName', externalName: 'example.com' }, want: { type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' } },
    { name: 'ClientIP affinity gets a 10800 s timeout', in: { sessionAffinity: 'ClientIP' }, want: { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } }, type: 'ClusterIP', internalTrafficPolicy: 'Cluster' } },
    { name: 'None affinity drops an affinity config', in: { sessionAffinity: 'None', sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } }, want: { sessionAffinity: 'None', type: 'ClusterIP', internalTrafficPolicy: 'Cluster' } },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(defaultService(base(r.in)).spec, r.want));
});
