// Pod subresources beyond status: binding (the scheduler's write), eviction (policy/v1) and
// log (served by the node agent that runs the pod).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { fieldError } from '../api/fielderrors.js';
import type { Pod } from '../api/types.js';
import { bindPod } from './binding.js';
import type { Api, RequestInfo } from './rest.js';
import { decodeBody, isObject, mediaType, readBody, sendJSON } from './request.js';
import type { ResourcePath } from './request.js';
import type { ResourceDef } from './resources.js';
import { statusErrors, successStatus } from './status.js';

export type SubresourceHandler = (api: Api, def: ResourceDef, path: ResourcePath, req: IncomingMessage, res: ServerResponse, info: RequestInfo, query: URLSearchParams) => Promise<void>;

/** Where pod logs come from: the node agent registers one (see the agent), tests may too. */
export interface LogSource {
  stream(pod: Pod, container: string, opts: { follow: boolean; tailLines?: number; previous: boolean; timestamps: boolean }, res: ServerResponse): Promise<void>;
}

const podsGR = { group: '', resource: 'pods' };

async function body(req: IncomingMessage, what: string): Promise<Record<string, unknown>> {
  const raw = decodeBody(await readBody(req), mediaType(req), what);
  if (!isObject(raw)) throw statusErrors.badRequest(`${what}: the body must be a JSON object`);
  return raw;
}

const binding: SubresourceHandler = async (api, def, path, req, res, info) => {
  if (req.method !== 'POST') throw statusErrors.methodNotSupported(podsGR, req.method ?? '');
  const b = await body(req, 'Binding in version "v1" cannot be handled as a Binding');
  const target = isObject(b.target) ? b.target : undefined;
  const node = typeof target?.name === 'string' ? target.name : '';
  if (!node) throw statusErrors.invalid('Binding', '', path.name!, [fieldError.required('target.name')]);
  await bindPod(api, path.namespace!, path.name!, node, info);
  sendJSON(res, 201, { ...successStatus(), code: 201 });
};

const eviction: SubresourceHandler = async (api, def, path, req, res, info) => {
  if (req.method !== 'POST') throw statusErrors.methodNotSupported(podsGR, req.method ?? '');
  const e = await body(req, 'Eviction in version "v1" cannot be handled as a Eviction');
  const opts = isObject(e.deleteOptions) ? (e.deleteOptions as { gracePeriodSeconds?: number }) : {};
  // No PodDisruptionBudgets are served, so every eviction is allowed.
  await api.delete(def, path.namespace, path.name!, opts, info);
  sendJSON(res, 201, { ...successStatus(), code: 201 });
};

export function logHandler(source: () => LogSource | undefined): SubresourceHandler {
  return async (api, def, path, req, res, _info, q) => {
    if (req.method !== 'GET') throw statusErrors.methodNotSupported(podsGR, req.method ?? '');
    const pod = await api.get<Pod>(def, path.namespace, path.name!);
    const names = (pod.spec.containers ?? []).map((c) => c.name);
    const all = [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? []), ...(pod.spec.ephemeralContainers ?? [])].map((c) => c.name);
    let container = q.get('container') ?? '';
    if (!container) {
      if (names.length !== 1) {
        throw statusErrors.badRequest(`a container name must be specified for pod ${path.name}, choose one of: [${names.join(' ')}]`);
      }
      container = names[0]!;
    }
    if (!all.includes(container)) throw statusErrors.badRequest(`container ${container} is not valid for pod ${path.name}`);
    if (!pod.spec.nodeName) throw statusErrors.badRequest(`pod ${path.name} does not have a host assigned`);
    const src = source();
    if (!src) throw statusErrors.badRequest(`container "${container}" in pod "${path.name}" is waiting to start: no node agent serves its logs`);
    const tail = q.get('tailLines');
    await src.stream(pod, container, { follow: q.get('follow') === 'true', tailLines: tail ? Number(tail) : undefined, previous: q.get('previous') === 'true', timestamps: q.get('timestamps') === 'true' }, res);
  };
}

export function podSubresources(logs: () => LogSource | undefined): Record<string, SubresourceHandler> {
  return { binding, eviction, log: logHandler(logs) };
}
