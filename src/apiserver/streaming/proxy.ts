// pods/exec, pods/attach and pods/portforward as kube-apiserver serves them: the options are
// read from the query (PodExecOptions, PodAttachOptions, PodPortForwardOptions, with their
// defaults), the container chosen as streamLocation chooses it, and the upgrade request is
// passed to the agent of the pod's node at the kubelet's location (`/exec/ns/pod/container?
// command=…&input=1&output=1&error=1&tty=1`, as ExecLocation writes it) over TLS with the
// server's agent-client credentials (nodeconnection.ts); then bytes are relayed both ways, as
// UpgradeAwareHandler does. The agent speaks the
// streaming protocol itself, so whatever it answers (101 or an error) reaches kubectl as is.
//
// An error before the upgrade is a Status on the upgrade's connection: the pod's NotFound, the
// container's BadRequest, and "error dialing backend: …" (500) when the agent cannot be reached.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { queryBool } from '../../api/queryparams.js';
import type { Node, Pod } from '../../api/types.js';
import { dialTimeoutMs, goTransportError, unknownError, type AgentClientCredentials, type AgentConnector } from '../nodeconnection.js';
import type { SubresourceHandler } from '../subresources.js';
import { statusErrors } from '../status.js';
import { takeOver, upgradeConnection } from './upgrade.js';

export type StreamKind = 'exec' | 'attach' | 'portforward';

/** The subresources that are connections, not objects (rest.Connecter in kube-apiserver). */
export const connectSubresources: ReadonlySet<string> = new Set(['exec', 'attach', 'portforward']);

/** A bool option with its default when absent (PodExecOptions' stdout and stderr default to true). */
function boolOption(q: URLSearchParams, name: string, dflt: boolean): boolean {
  return q.has(name) ? queryBool(q.get(name)) : dflt;
}

/** streamLocation's container: the named one, or the only one when none is named. */
export function streamContainer(pod: Pod, requested: string | undefined): string {
  const name = pod.metadata.name ?? '';
  const containers = pod.spec.containers ?? [];
  if (!requested) {
    if (containers.length === 1) return containers[0]!.name;
    if (containers.length === 0) throw statusErrors.badRequest(`a container name must be specified for pod ${name}`);
    const init = (pod.spec.initContainers ?? []).map((c) => c.name);
    let msg = `a container name must be specified for pod ${name}, choose one of: [${containers.map((c) => c.name).join(' ')}]`;
    if (init.length) msg += ` or one of the init containers: [${init.join(' ')}]`;
    throw statusErrors.badRequest(msg);
  }
  const all = [...(pod.spec.initContainers ?? []), ...containers, ...(pod.spec.ephemeralContainers ?? [])];
  if (!all.some((c) => c.name === requested)) throw statusErrors.badRequest(`container ${requested} is not valid for pod ${name}`);
  return requested;
}

/** The kubelet's path and query for the stream (ExecLocation, AttachLocation, PortForwardLocation). */
export function agentStreamPath(kind: StreamKind, pod: Pod, container: string | undefined, q: URLSearchParams): string {
  const ns = encodeURIComponent(pod.metadata.namespace ?? '');
  const name = encodeURIComponent(pod.metadata.name ?? '');
  const params = new URLSearchParams();
  if (kind === 'portforward') {
    for (const p of q.getAll('ports')) params.append('port', p);
    const s = params.toString();
    return `/portForward/${ns}/${name}${s ? `?${s}` : ''}`;
  }
  if (boolOption(q, 'stdin', false)) params.append('input', '1');
  if (boolOption(q, 'stdout', true)) params.append('output', '1');
  if (boolOption(q, 'stderr', true)) params.append('error', '1');
  if (boolOption(q, 'tty', false)) params.append('tty', '1');
  if (kind === 'exec') for (const c of q.getAll('command')) params.append('command', c);
  return `/${kind}/${ns}/${name}/${encodeURIComponent(container ?? '')}?${params.toString()}`;
}

/** Request headers not passed to the agent: the client's credentials (the server brings its own) and the hop's. */
const dropped = new Set(['authorization', 'host', 'cookie', 'proxy-authorization', 'content-length', 'transfer-encoding']);

/** The upgrade request as the agent receives it. */
export function agentRequestHead(method: string, path: string, host: string, headers: IncomingMessage['headersDistinct']): string {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`];
  for (const [k, vs] of Object.entries(headers)) {
    if (dropped.has(k) || k.startsWith('impersonate-') || !vs) continue;
    for (const v of vs) lines.push(`${k}: ${v}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** A connection to the agent at `url`: TLS with the server's client certificate, or plain for an http: location. */
function dial(url: URL, tls: AgentClientCredentials): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const port = Number(url.port);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const secure = url.protocol === 'https:';
    const s: Socket = secure ? tlsConnect({ host, port, ca: tls.ca, cert: tls.cert, key: tls.key, ...(isIP(host) ? {} : { servername: host }) }) : netConnect({ host, port });
    const t = setTimeout(() => s.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })), dialTimeoutMs);
    s.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(t);
      resolve(s);
    });
    s.once('error', (e) => {
      clearTimeout(t);
      reject(e);
    });
  });
}

export interface StreamingOptions {
  agents: AgentConnector;
}

function streamHandler(kind: StreamKind, opts: StreamingOptions): SubresourceHandler {
  return async (api, def, path, req, res, _info, q) => {
    if (req.method !== 'GET' && req.method !== 'POST') throw statusErrors.methodNotSupported({ group: '', resource: 'pods' }, req.method ?? '');
    const pod = await api.get<Pod>(def, path.namespace, path.name!);
    const container = kind === 'portforward' ? undefined : streamContainer(pod, q.get('container') || undefined);
    if (!pod.spec.nodeName) throw statusErrors.badRequest(`pod ${pod.metadata.name} does not have a host assigned`);
    // Before the node's location: a request that is no upgrade is the client's mistake (400),
    // whatever the node's state.
    if (!upgradeConnection(req)) throw statusErrors.badRequest('Upgrade request required');
    const node = await api.get<Node>(api.def('nodes'), undefined, pod.spec.nodeName);
    const base = opts.agents.location(node);
    let upstream: Socket;
    try {
      upstream = await dial(base, opts.agents.tls);
    } catch (e) {
      throw unknownError(`error dialing backend: ${goTransportError(base, e as NodeJS.ErrnoException)}`);
    }
    const conn = takeOver(req, res)!;
    upstream.on('error', () => conn.socket.destroy());
    conn.socket.on('error', () => upstream.destroy());
    upstream.write(agentRequestHead(req.method, agentStreamPath(kind, pod, container, q), base.host, req.headersDistinct));
    if (conn.head.length) upstream.write(conn.head);
    upstream.pipe(conn.socket);
    conn.socket.pipe(upstream);
    await new Promise<void>((resolve) => {
      let open = 2;
      const closed = () => {
        if (--open === 0) resolve();
      };
      upstream.once('close', () => {
        conn.socket.destroy();
        closed();
      });
      conn.socket.once('close', () => {
        upstream.destroy();
        closed();
      });
    });
  };
}

export function streamingSubresources(opts: StreamingOptions): Record<StreamKind, SubresourceHandler> {
  return { exec: streamHandler('exec', opts), attach: streamHandler('attach', opts), portforward: streamHandler('portforward', opts) };
}
