// Once the API server listens, the rest of a start (the kubernetes Service's Endpoints, prom-client,
// the controllers and the scheduler, which upstream are other processes and goroutines) runs on
// the thread that serves the requests. Most of its steps are promise chains over SQLite that never
// leave the microtask queue, so a client that connected meanwhile waited for all of them: its
// accept, each flight of its TLS handshake and its request are I/O callbacks, run only in the
// event loop's poll phase. A restart's first 200 on /readyz came ~45 ms of CPU after `listen`.
//
// So the start awaits a turn between its steps: the poll phase runs (setImmediate comes right
// after it), and while a connection accepted by then is in its TLS handshake, or has finished it
// and its first request is not answered yet, the start waits for that. A connection that stalls
// there holds the start back for handshakeWaitMs at most. What /readyz reports is unchanged: only
// the order of work on the thread.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Server, TLSSocket } from 'node:tls';

/** How long the start waits for the connections in progress before it goes on regardless. */
export const handshakeWaitMs = 100;

export class StartTurns {
  #handshaking = 0;
  /** Connections past their handshake whose first request is not answered yet. */
  readonly #firstRequest = new Set<Socket>();
  readonly #waiting = new Set<() => void>();

  /** `stallMs`: how long a turn waits for the connections in progress (tests lengthen it). */
  constructor(server: Server, private readonly stallMs = handshakeWaitMs) {
    // tls.Server's events: `connection` when a TCP connection is accepted, before its handshake;
    // `secureConnection` once the handshake succeeded, `tlsClientError` when it failed (a reset
    // and the handshake timeout included); https.Server's `request`.
    server.on('connection', () => this.#handshaking++);
    server.on('secureConnection', (socket: TLSSocket) => {
      this.#firstRequest.add(socket);
      socket.once('close', () => this.#answered(socket));
      this.#handshakeEnded();
    });
    server.on('tlsClientError', () => this.#handshakeEnded());
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (this.#firstRequest.has(req.socket)) res.once('close', () => this.#answered(req.socket));
    });
  }

  #handshakeEnded(): void {
    if (this.#handshaking === 0) return;
    this.#handshaking--;
    this.#wakeWhenIdle();
  }

  #answered(socket: Socket): void {
    if (this.#firstRequest.delete(socket)) this.#wakeWhenIdle();
  }

  /** The connections the next turn waits for: in their handshake, or with their first request unanswered. */
  get inProgress(): number {
    return this.#handshaking + this.#firstRequest.size;
  }

  #wakeWhenIdle(): void {
    if (this.inProgress === 0) for (const wake of this.#waiting) wake();
  }

  /**
   * Resolves after the event loop's next poll phase, once the connections in progress then have
   * their first request answered.
   */
  async turn(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.inProgress === 0) return;
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(() => {
        // Stalled (a client that connected and says nothing): not waited for again.
        this.#handshaking = 0;
        this.#firstRequest.clear();
        wake();
      }, this.stallMs);
      this.#waiting.add(wake);
    });
  }
}
