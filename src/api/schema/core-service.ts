// core/v1 Service and its list (k8s.io/api core/v1 types.go; the descriptions are our own).

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const c = (short: string, description: string, fields: Record<string, string>, opts?: Parameters<typeof struct>[4]) =>
  struct(PKG.core, short, description, fields, opts);

const kindOf = (kind: string) => ({ gvk: [gvk('', 'v1', kind)] });

export const serviceSchemas: readonly SchemaDef[] = [
  c(
    'Service',
    'A named set of ports in front of the pods a selector picks. Bulkhead allocates cluster IPs and node ports but routes no traffic to them (there is no kube-proxy).',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'ServiceSpec | What the service looks like.',
      status: 'ServiceStatus | The most recently observed status of the service. Read-only.',
    },
    kindOf('Service'),
  ),
  c('ServiceList', 'A list of services.', { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]Service! | The services.' }, kindOf('ServiceList')),
  c('ServiceSpec', 'The attributes a user creates a service with.', {
    ports: '[]ServicePort ps=merge mk=port lt=map lk=port,protocol | The ports the service exposes.',
    selector: '{}s mt=atomic | Routes to the pods whose labels match; empty or absent means the endpoints are managed outside.',
    clusterIP: 's | The IP address of the service, allocated from the service cluster IP range unless given; None makes a headless service. Cannot be changed once set.',
    clusterIPs: '[]s lt=atomic | The IP addresses of the service; the first is clusterIP.',
    type: 's enum=ClusterIP,ExternalName,LoadBalancer,NodePort go=ServiceType | ClusterIP (the default), NodePort, LoadBalancer or ExternalName.',
    externalIPs: '[]s lt=atomic | IPs outside the cluster that route to this service (not managed by the cluster).',
    sessionAffinity: 's enum=ClientIP,None go=ServiceAffinity | None (the default) or ClientIP.',
    loadBalancerIP: 's | Deprecated: the IP a LoadBalancer asks for.',
    loadBalancerSourceRanges: '[]s lt=atomic | CIDRs a cloud load balancer admits.',
    externalName: 's | The DNS name an ExternalName service answers with (a CNAME).',
    externalTrafficPolicy: 's enum=Cluster,Local go=ServiceExternalTrafficPolicy | How external traffic is routed: Cluster (default) or Local.',
    healthCheckNodePort: 'i32 | The node port of the health check of a LoadBalancer with externalTrafficPolicy Local.',
    publishNotReadyAddresses: 'b | Publish the addresses of pods that are not ready.',
    sessionAffinityConfig: 'SessionAffinityConfig | Session affinity settings.',
    ipFamilies: '[]s lt=atomic go=IPFamily | The IP families of the service: IPv4 (the only one a single-stack IPv4 cluster has) or IPv6.',
    ipFamilyPolicy: 's enum=PreferDualStack,RequireDualStack,SingleStack go=IPFamilyPolicy | SingleStack (the default), PreferDualStack or RequireDualStack.',
    allocateLoadBalancerNodePorts: 'b | Whether a LoadBalancer gets node ports (true by default).',
    loadBalancerClass: 's | The class of the load balancer implementation.',
    internalTrafficPolicy: 's enum=Cluster,Local go=ServiceInternalTrafficPolicy | How traffic from inside the cluster is routed: Cluster (default) or Local.',
    trafficDistribution: 's | A preference for how traffic is spread among endpoints (PreferClose).',
  }),
  c('ServicePort', 'One port a service exposes.', {
    name: 's | Name of the port, a DNS label; required when there is more than one port.',
    protocol: 's enum=SCTP,TCP,UDP go=Protocol default=TCP | TCP (the default), UDP or SCTP.',
    appProtocol: 's | The application protocol of the port.',
    port: 'i32! | The port the service exposes.',
    targetPort: 'IntOrString | The port number or name on the pods; defaults to port.',
    nodePort: 'i32 | The port on every node for NodePort and LoadBalancer services, allocated from the node port range unless given.',
  }),
  c('SessionAffinityConfig', 'Session affinity settings.', { clientIP: 'ClientIPConfig | ClientIP affinity settings.' }),
  c('ClientIPConfig', 'ClientIP session affinity settings.', { timeoutSeconds: 'i32 | Seconds a ClientIP session sticks (1 to 86400, default 10800).' }),
  c('ServiceStatus', 'The observed state of a service.', {
    loadBalancer: 'LoadBalancerStatus | The load balancer, if any.',
    conditions: '[]Condition ps=merge mk=type lt=map lk=type | Current conditions of the service.',
  }),
  c('LoadBalancerStatus', 'The status of a load balancer.', { ingress: '[]LoadBalancerIngress lt=atomic | The ingress points of the load balancer.' }),
  c('LoadBalancerIngress', 'One ingress point of a load balancer.', {
    ip: 's | IP of the ingress point.',
    hostname: 's | DNS name of the ingress point.',
    ipMode: 's go=LoadBalancerIPMode | VIP or Proxy.',
    ports: '[]PortStatus lt=atomic | Status of the ports.',
  }),
  c('PortStatus', 'The status of one port of a load balancer.', {
    port: 'i32! | Port number.',
    protocol: 's! go=Protocol | TCP, UDP or SCTP.',
    error: 's | Why the port is in error, if it is.',
  }),
];
