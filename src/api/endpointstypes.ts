// core/v1 Endpoints and discovery.k8s.io/v1 EndpointSlice as Bulkhead reads and writes them
// (k8s.io/api core/v1 and discovery/v1 types.go; re-exported by types.ts).

import type { KubeObject, ObjectReference } from './types.js';

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[];
}

export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export interface EndpointHints {
  forZones?: { name: string }[];
  forNodes?: { name: string }[];
}

/** discovery/v1 Endpoint: one backend of a slice. */
export interface SliceEndpoint {
  addresses: string[];
  conditions?: EndpointConditions;
  hostname?: string;
  targetRef?: ObjectReference;
  deprecatedTopology?: Record<string, string>;
  nodeName?: string;
  zone?: string;
  hints?: EndpointHints;
}

/** discovery/v1 EndpointPort: name and protocol are defaulted ("" and TCP). */
export interface SlicePort {
  name?: string;
  protocol?: string;
  port?: number;
  appProtocol?: string;
}

export interface EndpointSlice extends KubeObject {
  addressType: string;
  endpoints: SliceEndpoint[];
  ports?: SlicePort[];
}
