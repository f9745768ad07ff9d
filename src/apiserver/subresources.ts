// Pod subresources beyond status: binding (the scheduler's write), eviction (policy/v1, the
// disruption budget check in eviction.ts) and log (proxied to the agent of the pod's node, see
// podlogs.ts).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { fieldError } from '../api/fielderrors.js';
import { cannotBeHandled, decodeObject, type GroupVersionKind } from '../api/schema/index.js';
import type { Node, Pod } from '../api/types.js';
import { bindPod } from './binding.js';
import { containerLogsURL, logContainer, parsePodLogOptions, proxyLogs } from './podlogs.js';
import type { AgentConnector } from './nodeconnection.js';
import { evictPod } from './eviction.js';
import type { Api, DeleteOptions, RequestInfo } from './rest.js';
import { decodeBody, isObject, mediaType, readBody, sendJSON } from './request.js';
import type { ResourcePath } from './request.js';
import type { ResourceDef } from './resources.js';
import { statusErrors, successStatus } from './status.js';

export type SubresourceHandler = (api: Api, def: ResourceDef, path: ResourcePath, req: IncomingMessage, res: ServerResponse, info: RequestInfo, query: URLSearchParams) => Promise<void>;

const podsGR = { group: '', resource: 'pods' };

const bindingGVK: GroupVersionKind = { group: '', version: 'v1', kind: 'Binding' };
const evictionGVK: GroupVersionKind = { group: 'policy', version: 'v1', kind: 'Eviction' };

/** The body as the create handler decodes it: the one decoder, with the request's fieldValidation. */
async function body(req: IncomingMessage, gvk: GroupVersionKind, info: RequestInfo): Promise<Record<string, unknown>> {
  const what = cannotBeHandled(gvk);
  const raw = decodeBody(await readBody(req), mediaType(req), what);
  if (!isObject(raw)) throw statusErrors.badRequest(`${what}: the body must be a JSON object`);
  const decoded = decodeObject(raw, gvk, info.fieldValidation);
  if (!decoded.ok) throw statusErrors.badRequest(decoded.message);
  info.warnings.push(...decoded.warnings);
  return decoded.object as unknown as Record<string, unknown>;
}

const binding: SubresourceHandler = async (api, def, path, req, res, info) => {
  if (req.method !== 'POST') throw statusErrors.methodNotSupported(podsGR, req.method ?? '');
  const b = await body(req, bindingGVK, info);
  const target = isObject(b.target) ? b.target : undefined;
  const meta = isObject(b.metadata) ? b.metadata : {};
  if (meta.name !== path.name) throw statusErrors.badRequest('name in URL does not match name in Binding object');
  const node = typeof target?.name === 'string' ? target.name : '';
  const kind = typeof target?.kind === 'string' ? target.kind : '';
  const errs = [
    ...(kind && kind !== 'Node' ? [fieldError.notSupported('target.kind', kind, ['Node', '<empty>'])] : []),
    ...(node ? [] : [fieldError.required('target.name')]),
  ];
  if (errs.length) throw statusErrors.invalid('Binding', '', path.name!, errs);
  const annotations = isObject(meta.annotations) ? (meta.annotations as Record<string, string>) : undefined;
  await bindPod(api, path.namespace!, path.name!, node, info, {
    ...(annotations ? { annotations } : {}),
    ...(typeof meta.uid === 'string' && meta.uid ? { uid: meta.uid } : {}),
    ...(typeof meta.resourceVersion === 'string' && meta.resourceVersion ? { resourceVersion: meta.resourceVersion } : {}),
  });
  sendJSON(res, 201, { ...successStatus(), code: 201 }, info.warnings);
};

const eviction: SubresourceHandler = async (api, def, path, req, res, info) => {
  if (req.method !== 'POST') throw statusErrors.methodNotSupported(podsGR, req.method ?? '');
  const e = await body(req, evictionGVK, info);
  const meta = isObject(e.metadata) ? e.metadata : {};
  if (meta.name !== path.name) throw statusErrors.badRequest('name in URL does not match name in Eviction object');
  const opts = isObject(e.deleteOptions) ? (e.deleteOptions as DeleteOptions) : {};
  // As the eviction REST's propagateDryRun: a dry run asked for in either place holds for the delete.
  const dryRun = info.dryRun || (Array.isArray(opts.dryRun) && opts.dryRun.length > 0);
  const result = await evictPod(api, def, path.namespace!, path.name!, opts, { ...info, dryRun });
  if (result.code === 500) return sendJSON(res, 500, result.status, info.warnings);
  sendJSON(res, 201, { ...successStatus(), code: 201 }, info.warnings);
};

export interface PodSubresourceOptions {
  /** How the server reaches a node's agent (src/apiserver/nodeconnection.ts). */
  agents: AgentConnector;
}

export function logHandler(opts: PodSubresourceOptions): SubresourceHandler {
  return async (api, def, path, req, res, _info, q) => {
    if (req.method !== 'GET') throw statusErrors.methodNotSupported(podsGR, req.method ?? '');
    const name = path.name!;
    const logOpts = parsePodLogOptions(q, name);
    const pod = await api.get<Pod>(def, path.namespace, name);
    const container = logContainer(pod, logOpts.container);
    // No node, no location: kube-apiserver streams nothing and answers 204.
    if (!pod.spec.nodeName) {
      res.writeHead(204);
      res.end();
      return;
    }
    const node = await api.get<Node>(api.def('nodes'), undefined, pod.spec.nodeName);
    await proxyLogs(opts.agents, containerLogsURL(opts.agents.location(node), pod, container, logOpts), name, res);
  };
}

export function podSubresources(opts: PodSubresourceOptions): Record<string, SubresourceHandler> {
  return { binding, eviction, log: logHandler(opts) };
}
