// How the API server reaches a node's agent (kube-apiserver's kubelet client,
// pkg/kubelet/client and pkg/registry/core/node/strategy.go ResourceLocation): the node's
// preferred address and its daemonEndpoints.kubeletEndpoint port give the location, and every
// request goes out with the server's own client credentials. This is the one place that knows
// them: pods/log, nodes/proxy, exec/attach/port-forward and the Metrics API all build on
// `AgentConnector`.
//
// Failures before any response are worded as Go's http.Client words them (goRequestError),
// since kube-apiserver passes that text through in a 500 that is not a Status.

import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Node } from '../api/types.js';
import { StatusError } from './status.js';

/** kube-apiserver's --kubelet-port default, used when a Node reports no kubelet endpoint port. */
export const defaultKubeletPort = 10250;

/** kube-apiserver's default --kubelet-preferred-address-types, with InternalIP first. */
export const preferredAddressTypes = ['InternalIP', 'Hostname', 'InternalDNS', 'ExternalDNS', 'ExternalIP'];

/** The connect timeout of Go's default dialer. */
export const dialTimeoutMs = 30_000;

/** An error that is not a Status: kube-apiserver answers 500 with no reason and the error's text. */
export function unknownError(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

/** nodeutil.GetPreferredNodeAddress over `preferredAddressTypes`. */
export function nodeAddress(node: Node): string {
  const addresses = node.status?.addresses ?? [];
  for (const type of preferredAddressTypes) {
    const a = addresses.find((x) => x.type === type);
    if (a) return a.address;
    // Kubelets before 1.5 registered no Hostname address; the label stands in.
    if (type === 'Hostname' && node.metadata.labels?.['kubernetes.io/hostname']) return node.metadata.labels['kubernetes.io/hostname'];
  }
  throw unknownError(`no preferred addresses found; known addresses: [${addresses.map((a) => `{${a.type} ${a.address}}`).join(' ')}]`);
}

/** net.JoinHostPort. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The agent's base URL for `node` (path `/`): its preferred address and kubelet endpoint port. */
export function agentLocation(node: Node, scheme: 'http' | 'https' = 'https'): URL {
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
  return new URL(`${scheme}://${joinHostPort(nodeAddress(node), port && port > 0 ? port : defaultKubeletPort)}/`);
}

/** How Go's http.Client words a failure to get a response, for the errors Node reports. */
export function goRequestError(url: URL, e: NodeJS.ErrnoException, method = 'GET'): string {
  const verb = method.charAt(0).toUpperCase() + method.slice(1).toLowerCase();
  return `${verb} ${JSON.stringify(url.toString())}: ${goTransportError(url, e)}`;
}

/** The transport's own error text (what a RoundTrip returns, without the url.Error wrapping). */
export function goTransportError(url: URL, e: NodeJS.ErrnoException): string {
  const hostport = url.host;
  const dial = (what: string) => `dial tcp ${hostport}: ${what}`;
  let inner: string;
  switch (e.code) {
    case 'ECONNREFUSED':
      inner = dial('connect: connection refused');
      break;
    case 'EHOSTUNREACH':
      inner = dial('connect: no route to host');
      break;
    case 'ENETUNREACH':
      inner = dial('connect: network is unreachable');
      break;
    case 'ETIMEDOUT':
      inner = dial('i/o timeout');
      break;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      inner = `dial tcp: lookup ${url.hostname}: no such host`;
      break;
    case 'ECONNRESET':
      inner = e.message === 'socket hang up' ? 'EOF' : 'read: connection reset by peer';
      break;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    // A CA of the same name that did not sign it (Go adds which candidate failed; not kept here).
    case 'CERT_SIGNATURE_FAILURE':
      inner = 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
      break;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      inner = `tls: failed to verify certificate: x509: certificate is not valid for ${url.hostname}`;
      break;
    case 'CERT_HAS_EXPIRED':
      inner = 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
      break;
    default:
      inner = e.message;
  }
  return inner;
}

/**
 * The server's credentials towards agents: the CA their serving certificates chain to and the
 * client certificate they accept from the API server (upstream's --kubelet-client-certificate,
 * --kubelet-client-key and --kubelet-certificate-authority).
 */
export interface AgentClientCredentials {
  ca: string;
  cert: string;
  key: string;
}

export interface AgentRequestInit {
  method?: string;
  headers?: OutgoingHttpHeaders;
}

/** What every caller of an agent uses: where a node's agent is, and a request to it. */
export interface AgentConnector {
  /** The agent's base URL for `node`. */
  location(node: Node): URL;
  /**
   * A request to `url` with the server's credentials (the caller writes a body, if any, and
   * ends it). A connection that does not come up within Go's dial timeout fails with
   * ETIMEDOUT. For an Upgrade, set the Connection/Upgrade headers and listen for 'upgrade'.
   */
  request(url: URL, init?: AgentRequestInit): ClientRequest;
  /** The TLS options of those requests, for callers that must dial themselves. */
  readonly tls: AgentClientCredentials;
}

function withDialTimeout(req: ClientRequest): ClientRequest {
  req.on('socket', (s: Socket) => {
    if (!s.connecting) return;
    const t = setTimeout(() => req.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })), dialTimeoutMs);
    s.once('connect', () => clearTimeout(t));
    s.once('secureConnect', () => clearTimeout(t));
    s.once('close', () => clearTimeout(t));
  });
  return req;
}

/** The connector over HTTPS with `creds`: the agent's certificate must chain to `creds.ca`. */
export function agentConnector(creds: AgentClientCredentials): AgentConnector {
  const agent = new HttpsAgent({ keepAlive: true, ca: creds.ca, cert: creds.cert, key: creds.key });
  return {
    tls: creds,
    location: (node) => agentLocation(node, 'https'),
    request: (url, init = {}) => {
      const upgrade = /upgrade/i.test(String(init.headers?.connection ?? init.headers?.Connection ?? ''));
      const opts = { method: init.method ?? 'GET', headers: { Accept: '*/*', ...init.headers }, ca: creds.ca, cert: creds.cert, key: creds.key };
      // Upgraded connections are never returned to a pool.
      if (url.protocol === 'http:') return withDialTimeout(httpRequest(url, { ...opts, agent: upgrade ? false : plainAgent }));
      return withDialTimeout(httpsRequest(url, { ...opts, agent: upgrade ? false : agent }));
    },
  };
}

const plainAgent = new HttpAgent({ keepAlive: true });

