// The node agent's connection to the API server, built from the one client every controller
// uses (src/client), as the kubelet builds its clientset, pod source and event broadcaster:
//   - an HttpClient with the kubeconfig's CA and the node's bearer token, so every request is
//     made as system:node:<name> and NodeRestriction and the node authorizer see the node;
//   - a shared informer of the pods bound here (pkg/kubelet/config/apiserver.go: a list and watch
//     of pods with fieldSelector spec.nodeName=<node>, the only pod list the node authorizer
//     grants a node);
//   - the event recorder, as component `kubelet` on host <node>, under the kubelet's own event
//     rate limit (KubeletConfiguration eventRecordQPS 50, eventBurst 100) and the
//     EventCorrelator's per-object spam filter;
//   - the ConfigMaps and Secrets pods refer to, and the RuntimeClass a pod names (the kubelet's
//     RuntimeClass manager; NodeRules let a node read every class), read with the node's identity.

import { TokenManager } from './tokenmanager.js';
import type { Pod } from '../api/types.js';
import type { Service } from '../api/servicetypes.js';
import { isStatus } from '../client/errors.js';
import { SharedInformerFactory } from '../client/factory.js';
import { HttpClient } from '../client/http.js';
import type { SharedIndexInformer } from '../client/informer.js';
import type { KubeClient, ResourceRef } from '../client/interface.js';
import { TokenBucket } from '../client/ratelimit.js';
import { EventRecorder } from '../client/recorder.js';
import { configMapsRef, podsRef, runtimeClassesRef, secretsRef, servicesRef } from '../client/resources.js';
import type { ClientConfig } from './kubeconfig.js';
import type { ObjectSource } from './podworker/context.js';

/** KubeletConfiguration's defaults for the event client (eventRecordQPS, eventBurst). */
export const eventRecordQPS = 50;
export const eventBurst = 100;

export interface AgentConnection {
  client: KubeClient;
  informers: SharedInformerFactory;
  /** The pods bound to this node. */
  pods: SharedIndexInformer<Pod>;
  events: EventRecorder;
  objects: ObjectSource;
  /** Stops the informers and closes the client's connections. */
  close(): void;
}

/** The field selector of the pods bound to a node (fields.OneTermEqualSelector("spec.nodeName", name)). */
export function boundPodsSelector(nodeName: string): string {
  return `spec.nodeName=${nodeName}`;
}

/** A namespaced object by name, or null when the API says it does not exist. */
async function getOrNull<T>(client: KubeClient, ref: ResourceRef, namespace: string | undefined, name: string): Promise<T | null> {
  try {
    return (await client.get(ref, namespace, name)) as T;
  } catch (e) {
    if (isStatus(e, 404)) return null;
    throw e;
  }
}

/** The agent's client, pod informer, recorder and object reads over a client (tests pass a fake). */
export function agentConnection(client: KubeClient, nodeName: string, log: (msg: string) => void, close: () => void = () => undefined): AgentConnection {
  const informers = new SharedInformerFactory(client);
  const pods = informers.informerFor<Pod>(podsRef, { fieldSelector: boundPodsSelector(nodeName) });
  // The kubelet's service informer (every namespace: the master service is in default), started
  // when a container first needs its service variables; it has listed once before any is made.
  const services = informers.informerFor<Service>(servicesRef);
  let servicesListed: Promise<void> | undefined;
  const events = new EventRecorder(client, { component: 'kubelet', host: nodeName }, { limiter: new TokenBucket(eventRecordQPS, eventBurst), log });
  const tokens = new TokenManager(async (ns, name, request) => {
    if (!client.createToken) throw new Error('the API client cannot create tokens');
    return client.createToken(ns, name, request);
  });
  return {
    client,
    informers,
    pods,
    events,
    objects: {
      configMap: (ns, name) => getOrNull(client, configMapsRef, ns, name),
      secret: (ns, name) => getOrNull(client, secretsRef, ns, name),
      runtimeClass: (name) => getOrNull(client, runtimeClassesRef, undefined, name),
      serviceAccountToken: (ns, name, request) => tokens.serviceAccountToken(ns, name, request),
      forgetPod: (uid) => tokens.deletePodTokens(uid),
      services: async () => {
        try {
          await (servicesListed ??= services.start());
        } catch (e) {
          // Without a list the containers start without service variables rather than not at all.
          log(`services could not be listed: ${e instanceof Error ? e.message : String(e)}; containers start without service environment variables`);
          return [];
        }
        return services.lister.list();
      },
    },
    close: () => {
      tokens.stop();
      informers.stop();
      close();
    },
  };
}

/** The connection of a node agent to the server its kubeconfig names. */
export function connectAgent(config: ClientConfig, nodeName: string, log: (msg: string) => void): AgentConnection {
  const client = new HttpClient({ ...config, userAgent: `bulkhead-agent/${nodeName}` });
  return agentConnection(client, nodeName, log, () => client.close());
}
