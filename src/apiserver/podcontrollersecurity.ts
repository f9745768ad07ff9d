// The PodSecurity admission plugin on pod controllers (upstream pod-security-admission
// ValidatePodController, through the in-tree plugin's Validate): a create or update of a
// Deployment, ReplicaSet, StatefulSet, DaemonSet, Job or CronJob is checked after the kind's own
// validation, as a validating admission plugin runs, and before the quota charge; a template that
// violates the namespace's warn level adds the warning
// `would violate PodSecurity "<level>:<version>": <reasons>`. Never a denial. The rules are
// admission/podsecurity.ts's (exempt namespaces, users and runtime classes included); this file
// reads the namespace.

import { evaluatePodControllerSecurity, isPodController, podControllerTemplate } from '../admission/podsecurity.js';
import type { KubeObject, Namespace } from '../api/types.js';
import { requestExemption, type PodSecurityConfiguration } from '../podsecurity/index.js';
import type { Api, RequestInfo, Strategy } from './rest.js';

/** `strategy` (the kind's own, for `group`/`resource`) with Pod Security's warn-mode check of its pod template. */
export function withPodControllerSecurity(strategy: Strategy, group: string, resource: string, podSecurity: PodSecurityConfiguration): Strategy {
  if (!isPodController(group, resource)) return strategy;
  return {
    ...strategy,
    async create(obj, req, api, batch, track) {
      const made = strategy.create ? await strategy.create(obj, req, api, batch, track) : { obj };
      await warnPodController(made.obj, group, resource, req, api, podSecurity);
      return made;
    },
    async update(obj, old, req, api, subresource) {
      const made = strategy.update ? await strategy.update(obj, old, req, api, subresource) : { obj };
      // Upstream skips every subresource (scale, status); Bulkhead's deletion marks (`delete`) are no admission update at all.
      if (!subresource) await warnPodController(made.obj, group, resource, req, api, podSecurity);
      return made;
    },
  };
}

async function warnPodController(obj: KubeObject, group: string, resource: string, req: RequestInfo, api: Api, podSecurity: PodSecurityConfiguration): Promise<void> {
  const template = podControllerTemplate(group, resource, obj);
  if (!template) return;
  const namespace = obj.metadata?.namespace ?? req.namespace ?? '';
  const request = { exemptions: podSecurity.exemptions, namespace, username: req.user.name };
  // Exempt namespaces and users are let through before the namespace is read, as upstream does.
  if (requestExemption(podSecurity.exemptions, namespace, request.username)) return;
  const ns = await lookupNamespace(api, namespace);
  // A namespace that cannot be read: upstream allows the object with only an `error` audit annotation.
  if (!ns) return;
  req.warnings.push(...evaluatePodControllerSecurity(ns.metadata?.labels ?? {}, podSecurity.defaults, template, request));
}

/** The namespace from the cache, else the store (upstream's lister, then a live GET). */
async function lookupNamespace(api: Api, name: string): Promise<Namespace | undefined> {
  const cached = api.caches.get('namespaces')?.get(undefined, name)?.obj as Namespace | undefined;
  return cached ?? (await api.tryGet<Namespace>(api.def('namespaces'), undefined, name));
}
