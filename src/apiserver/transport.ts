// The listener's limits and its answers to requests that never reach the handler, as
// kube-apiserver's secure serving sets up Go's http.Server (k8s.io/apiserver
// pkg/server/secure_serving.go: MaxHeaderBytes 1 MiB, ReadHeaderTimeout 32 s, IdleTimeout 90 s;
// the TLS handshake gets the read-header deadline) and as net/http answers what it cannot
// parse: plain HTTP on the TLS port is "Client sent an HTTP request to an HTTPS server." 400,
// oversized headers 431, a malformed request 400, a slow client is closed without a reply.
// Where Go writes plain text, Bulkhead writes the same code and words as a Status body, so
// every client that reads Status bodies can show them.
//
// None of these limits reaches a response being written: a watch or a log follow runs as long
// as its client stays (Node's requestTimeout and headersTimeout end at the request's last byte).

import type { Server, ServerOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import type { Status } from '../api/types.js';

export interface TransportLimits {
  /** Time to receive a request's headers (Go's ReadHeaderTimeout). */
  headersTimeoutMs: number;
  /** Time a kept-alive connection may sit idle between requests (Go's IdleTimeout). */
  keepAliveTimeoutMs: number;
  /** Time to complete the TLS handshake from the TCP connect. */
  handshakeTimeoutMs: number;
  /** The largest request line and headers (Go's MaxHeaderBytes). */
  maxHeaderBytes: number;
  /** How often Node checks the header deadline (it is enforced at this granularity). */
  checkIntervalMs: number;
}

export const upstreamTransportLimits: TransportLimits = {
  headersTimeoutMs: 32_000,
  keepAliveTimeoutMs: 90_000,
  handshakeTimeoutMs: 32_000,
  maxHeaderBytes: 1 << 20,
  checkIntervalMs: 5_000,
};

/** The https.createServer options these limits need (some cannot be set afterwards). */
export function transportServerOptions(l: TransportLimits): ServerOptions {
  return {
    handshakeTimeout: l.handshakeTimeoutMs,
    maxHeaderSize: l.maxHeaderBytes,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    headersTimeout: l.headersTimeoutMs,
    // Go's http.Server has no ReadTimeout here; the body is bounded by the handlers.
    requestTimeout: 0,
    connectionsCheckingInterval: l.checkIntervalMs,
  };
}

function statusBody(code: number, reason: string | undefined, message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, ...(reason ? { reason } : {}), code };
}

/** A whole response written on a socket the HTTP layer never handed to the handler. */
export function rawStatusResponse(version: '1.0' | '1.1', code: number, text: string, status: Status, headOnly = false): string {
  const body = JSON.stringify(status);
  return [
    `HTTP/${version} ${code} ${text}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    // A HEAD request's answer has no body: a client reads none, and bytes after it are an error.
    headOnly ? '' : body,
  ].join('\r\n');
}

export const httpOnTLSResponse = rawStatusResponse('1.0', 400, 'Bad Request', statusBody(400, 'BadRequest', 'Client sent an HTTP request to an HTTPS server.'));

/** Node's llhttp error codes for what net/http's readRequest refuses with 431 and with 400. */
export function clientErrorResponse(code: string | undefined, reason: string | undefined, method?: string): string | undefined {
  const headOnly = method === 'HEAD';
  if (code === 'HPE_HEADER_OVERFLOW') {
    // apimachinery has no reason for 431: NewGenericServerResponse leaves it unset.
    return rawStatusResponse('1.0', 431, 'Request Header Fields Too Large', statusBody(431, undefined, 'Request Header Fields Too Large'), headOnly);
  }
  if (code?.startsWith('HPE_')) {
    return rawStatusResponse('1.1', 400, 'Bad Request', statusBody(400, 'BadRequest', `malformed HTTP request${reason ? `: ${reason}` : ''}`), headOnly);
  }
  return undefined;
}

/** How long a refused client may be silent before its connection is closed (net/http's rstAvoidanceDelay). */
const lingerMs = 500;
/** The longest a refused client is read at all, however it trickles. */
const lingerMaxMs = 5000;

/**
 * As net/http's closeWriteAndWait after a refused request: the client may still be sending what
 * was refused (the rest of a 1 MiB header); reading and dropping it keeps the kernel from
 * answering it with a reset, which can discard the reply before the client has read it. Unlike
 * Go's fixed 500 ms, the wait restarts while data still arrives (a busy client can take longer
 * to send a megabyte), up to lingerMaxMs in all.
 */
function lingerAfterAnswer(socket: Duplex): void {
  const started = Date.now();
  const t = setTimeout(() => socket.destroy(), lingerMs);
  t.unref();
  socket.on('data', () => {
    if (Date.now() - started < lingerMaxMs) t.refresh();
  });
  socket.resume();
  socket.once('close', () => clearTimeout(t));
}

/** Installs the answers above on a listening server. */
export function guardTransport(server: Server): void {
  // A refused request can raise a second clientError on the same socket while its answer is
  // still on its way (the parser fails again on what the client goes on sending): the answer
  // and the linger stand; destroying the socket then would lose the answer.
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (err: NodeJS.ErrnoException & { reason?: string; rawPacket?: Buffer }, socket: Duplex) => {
    if (answered.has(socket)) return;
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean; writableEnded?: boolean } })._httpMessage;
    const method = err.rawPacket?.subarray(0, 8).toString('latin1').split(' ')[0];
    const answer = clientErrorResponse(err.code, err.reason, method);
    // A timeout, a reset, or a response still being written: Go closes without a reply. A
    // keep-alive client may send its next request before the previous response's 'finish'.
    if (!answer || !socket.writable || (inFlight?.headersSent && !inFlight.writableEnded)) {
      socket.destroy();
      return;
    }
    answered.add(socket);
    socket.end(answer);
    lingerAfterAnswer(socket);
  });
  server.on('tlsClientError', (err: NodeJS.ErrnoException, tlsSocket: Duplex) => {
    // OpenSSL recognises an HTTP request line where a TLS record should be. The TCP socket under
    // the failed TLS socket is still open and writes in the clear.
    const raw = (tlsSocket as Duplex & { _parent?: Duplex })._parent;
    if (err.code === 'ERR_SSL_HTTP_REQUEST' && raw && raw.writable) raw.end(httpOnTLSResponse);
  });
}
