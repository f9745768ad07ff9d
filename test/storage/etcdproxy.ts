// A gRPC proxy on loopback between an etcd client and a test etcd that loses answers on purpose.
// It is an HTTP/2 (h2c) proxy rather than a byte pump so that it sees each call's method and
// request body: `dropAnswer` lets one chosen call reach etcd, waits for etcd's answer and then
// drops the client's connection instead of relaying it (the request committed, the client never
// hears so); `dropRequest` drops the connection as soon as a chosen call arrives (it never
// reaches etcd). `holdAnswers` makes a silent member, one that accepts calls and never replies on
// a connection that stays open (a hung member, a black-holed path): each matching call reaches
// etcd, and etcd's answer is kept back until `answerAgain`, or until the client gives up on the
// call and cancels it (which the proxy passes on to etcd, and counts). Every other call, streams
// included, is relayed as is, and a new connection after a drop is served normally. Only sockets
// this proxy opened are ever closed.

import type { Socket } from 'node:net';
import { connect, constants, createServer, type ClientHttp2Session, type Http2Server, type Http2Session, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerHttp2Stream } from 'node:http2';

const { HTTP2_HEADER_PATH, HTTP2_HEADER_STATUS } = constants;

export interface DropRule {
  /** The gRPC method's path, e.g. "/etcdserverpb.KV/Txn". */
  method: string;
  /** Only a call whose request body contains these bytes (a key) matches; any call of the method when absent. */
  bodyContains?: Buffer;
}

export interface EtcdProxy {
  /** host:port to give the client instead of etcd's. */
  endpoint: string;
  /** The next call matching `rule` reaches etcd; its answer is replaced by a dropped connection. Resolves once dropped. */
  dropAnswer(rule: DropRule): Promise<void>;
  /** The next call matching `rule` is not forwarded: its connection drops when it arrives. Resolves once dropped. */
  dropRequest(rule: DropRule): Promise<void>;
  /** Forgets the drops that have not happened (a test that failed before its call was made). */
  disarm(): void;
  /**
   * From now on until answerAgain, calls matching `rule` (every KV call when absent) reach etcd
   * but get no answer: etcd's is held back while the connection stays open.
   */
  holdAnswers(rule?: DropRule): void;
  /** Ends holdAnswers: new calls are answered, and held answers of calls still open are relayed. */
  answerAgain(): void;
  /** Calls whose answers were held; of those, the ones etcd answered and the ones the client cancelled. */
  held: { calls: number; answeredByEtcd: number; cancelledByClient: number };
  /** How many calls of each method reached etcd through this proxy. */
  forwarded: Map<string, number>;
  close(): Promise<void>;
}

interface Armed {
  rule: DropRule;
  when: 'answer' | 'request';
  done(): void;
}

/** Headers a proxy must not copy from one HTTP/2 message to another. */
function forwardable(h: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !(k.startsWith(':') && k !== HTTP2_HEADER_STATUS)) out[k] = v;
  return out;
}

export async function startEtcdProxy(etcdEndpoint: string): Promise<EtcdProxy> {
  const armed: Armed[] = [];
  const forwarded = new Map<string, number>();
  const sessions = new Set<Http2Session>();
  const upstreams = new Map<Http2Session, ClientHttp2Session>();

  const held = { calls: 0, answeredByEtcd: 0, cancelledByClient: 0 };
  let holding: DropRule | 'kv' | undefined;
  /** Relays of held answers, run by answerAgain. */
  const waiting = new Set<() => void>();
  const matchesRule = (rule: DropRule, method: string, body: Buffer) => rule.method === method && (!rule.bodyContains || body.includes(rule.bodyContains));
  const holds = (method: string, body: Buffer) => holding !== undefined && (holding === 'kv' ? method.startsWith('/etcdserverpb.KV/') : matchesRule(holding, method, body));
  const matches = (a: Armed, method: string, body: Buffer) => matchesRule(a.rule, method, body);
  const take = (when: Armed['when'], method: string, body: Buffer): Armed | undefined => {
    const i = armed.findIndex((a) => a.when === when && matches(a, method, body));
    return i < 0 ? undefined : armed.splice(i, 1)[0];
  };
  /**
   * The TCP connections of the clients, by the client's port (loopback only). http2's own
   * `connection` listener makes the session (and emits `session`) before this one runs, so a
   * session finds its socket here when it is dropped, not when it starts.
   */
  const rawByPort = new Map<number, Socket>();
  /**
   * Drops the client's connection: its socket goes, with no GOAWAY, as when a network path breaks.
   * The TCP socket itself is destroyed, not the session: Http2Session.destroy() may still flush an
   * RST_STREAM for each open call before the socket closes, and whether it does depends on timing
   * (the client then reports `Internal … RST_STREAM` instead of a dropped connection).
   */
  const drop = (session: Http2Session, upstream: ClientHttp2Session) => {
    const port = session.socket?.remotePort;
    const raw = port === undefined ? undefined : rawByPort.get(port);
    if (raw) raw.destroy();
    else session.destroy();
    upstream.destroy();
  };

  const server: Http2Server = createServer();
  server.on('connection', (socket: Socket) => {
    if (socket.remotePort !== undefined) rawByPort.set(socket.remotePort, socket);
    socket.once('close', () => {
      if (socket.remotePort !== undefined && rawByPort.get(socket.remotePort) === socket) rawByPort.delete(socket.remotePort);
    });
  });
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    // One upstream connection per client connection, so that dropping one drops its calls only.
    const upstream = connect(`http://${etcdEndpoint}`);
    upstreams.set(session, upstream);
    upstream.on('error', () => {});
    session.on('error', () => {});
    session.on('close', () => {
      sessions.delete(session);
      upstreams.delete(session);
      upstream.close();
    });
    upstream.on('close', () => session.destroy());
  });
  server.on('stream', (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => {
    const session = stream.session!;
    const upstream = upstreams.get(session)!;
    const method = String(headers[HTTP2_HEADER_PATH]);
    stream.on('error', () => {});
    let body = Buffer.alloc(0);
    let doomed: Armed | undefined;
    let hold = false;
    let relayed = false;
    const out = upstream.request({ ...forwardable(headers), [HTTP2_HEADER_PATH]: method, ':method': 'POST' }, { endStream: false });
    out.on('error', () => stream.destroy());
    stream.on('data', (chunk: Buffer) => {
      // Unary requests are small: their whole body decides. Streams only ever match on their first messages.
      if (body.length < 64 * 1024) body = Buffer.concat([body, chunk]);
      const early = take('request', method, body);
      if (early) {
        drop(session, upstream);
        early.done();
        return;
      }
      doomed ??= take('answer', method, body);
      if (!hold && holds(method, body)) {
        hold = true;
        held.calls++;
      }
      out.write(chunk);
    });
    stream.on('end', () => {
      forwarded.set(method, (forwarded.get(method) ?? 0) + 1);
      out.end();
    });
    stream.on('close', () => {
      // The client gave up on a call still held (its deadline, a cancel): etcd hears of it too.
      if (hold && !relayed) held.cancelledByClient++;
      out.close();
    });
    out.on('response', (h) => {
      if (doomed) {
        const d = doomed;
        drop(session, upstream);
        d.done();
        return;
      }
      const relay = () => {
        waiting.delete(relay);
        if (stream.closed || relayed) return;
        relayed = true;
        stream.respond(forwardable(h), { waitForTrailers: true });
        out.pipe(stream);
      };
      if (hold && holding !== undefined) {
        held.answeredByEtcd++;
        waiting.add(relay);
        return;
      }
      relay();
    });
    let trailers: OutgoingHttpHeaders | undefined;
    out.on('trailers', (t) => (trailers = forwardable(t)));
    stream.on('wantTrailers', () => stream.sendTrailers(trailers ?? {}));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const arm = (rule: DropRule, when: Armed['when']) => new Promise<void>((done) => armed.push({ rule, when, done }));
  return {
    endpoint: `127.0.0.1:${port}`,
    forwarded,
    dropAnswer: (rule) => arm(rule, 'answer'),
    dropRequest: (rule) => arm(rule, 'request'),
    disarm: () => void armed.splice(0),
    held,
    holdAnswers: (rule) => void (holding = rule ?? 'kv'),
    answerAgain() {
      holding = undefined;
      for (const relay of [...waiting]) relay();
    },
    async close() {
      for (const s of sessions) s.destroy();
      for (const u of upstreams.values()) u.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
