// nodes/proxy (pkg/registry/core/node/rest/proxy.go): /api/v1/nodes/NODE/proxy/PATH is passed
// to PATH on the node's agent with the server's own credentials, as kube-apiserver's
// UpgradeAwareHandler passes it to the kubelet: the method, the query, the body and the
// headers (less the caller's Authorization, which the authentication filter removes, the
// Impersonate-* ones, which the impersonation filter removes, and the
// hop-by-hop ones) go up; the agent's status, headers and body come back as they are, so its
// refusals and its Prometheus text reach the caller unchanged. Who may do this is decided before
// (nodes/proxy with the verb of the method); the agent then authorizes the API server itself.
// A failure to reach the agent is proxy.Transport's 503 "error trying to reach service".

import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Node } from '../api/types.js';
import { goTransportError, type AgentConnector } from './nodeconnection.js';
import type { SubresourceHandler } from './subresources.js';
import { sendJSON } from './request.js';
import { statusErrors } from './status.js';

/** Go's httputil hop-by-hop headers, which a proxy never forwards. */
const hopByHop = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The headers a proxied request carries upstream. */
export function upstreamHeaders(h: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(h)) {
    // WithImpersonation removed the Impersonate-* headers before the proxy saw the request.
    if (v === undefined || hopByHop.has(k) || k === 'authorization' || k === 'host' || k.startsWith('impersonate-')) continue;
    out[k] = v;
  }
  return out;
}

export function nodeProxyHandler(agents: AgentConnector): SubresourceHandler {
  return async (api, def, path, req, res) => {
    const method = req.method ?? 'GET';
    const node = await api.get<Node>(def, undefined, path.name!);
    const url = agents.location(node);
    url.pathname = path.proxyPath || '/';
    url.search = new URL(req.url ?? '/', 'http://x').search;
    await new Promise<void>((resolve) => {
      const up = agents.request(url, { method, headers: upstreamHeaders(req.headers) });
      let answered = false;
      res.once('close', () => {
        if (!res.writableFinished) up.destroy();
        resolve();
      });
      up.on('error', (e: NodeJS.ErrnoException) => {
        if (!answered && !res.headersSent) {
          const s = statusErrors.serviceUnavailable(`error trying to reach service: ${goTransportError(url, e)}`);
          sendJSON(res, s.code, s.status);
        } else res.destroy();
        resolve();
      });
      up.on('response', (r) => {
        answered = true;
        const headers: OutgoingHttpHeaders = {};
        for (const [k, v] of Object.entries(r.headers)) if (v !== undefined && !hopByHop.has(k)) headers[k] = v;
        res.writeHead(r.statusCode ?? 502, headers);
        // A streamed answer (a followed log) goes out as it comes.
        res.flushHeaders();
        r.pipe(res);
        r.on('end', () => resolve());
        r.on('error', () => {
          res.destroy();
          resolve();
        });
      });
      if (method === 'GET' || method === 'HEAD') up.end();
      else req.pipe(up);
    });
  };
}
