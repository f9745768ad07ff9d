// The agent's event recorder: writes core/v1 Events about pods through the API, folding
// repeats into one object (count, lastTimestamp) as client-go's recorder does. Writes are
// queued and never block or fail the caller: an event is worth less than the pod's progress.
// As client-go's recordToSink, an event the server refuses because its namespace is being
// terminated is dropped without a complaint (upstream logs it at V(5)): on shutdown or namespace
// deletion the pod's own Killing events would otherwise fill stderr.

import { eventKey, newEvent, repeatedEvent, type EventSource } from '../api/events.js';
import type { Event, KubeObject } from '../api/types.js';
import { KubeClient, KubeError } from './kubeclient.js';

/** metav1 NamespaceTerminatingCause, the cause kube-apiserver's namespace lifecycle admission sets (a cause's Type is "reason" in JSON). */
export const namespaceTerminatingCause = 'NamespaceTerminating';

/**
 * The create was refused because the namespace is being terminated: 403 with the
 * NamespaceTerminating cause (kube-apiserver), or with the lifecycle admission's message alone
 * (a server that sends no cause).
 */
export function isNamespaceTerminating(e: unknown): boolean {
  if (!(e instanceof KubeError) || e.code !== 403) return false;
  if (e.status?.details?.causes?.some((c) => c.reason === namespaceTerminatingCause)) return true;
  return /^.* is forbidden: unable to create new content in namespace \S+ because it is being terminated$/.test(e.status?.message ?? '');
}

export class EventRecorder {
  private seq = 0;
  /** Event object name by eventKey, for repeats. */
  private readonly written = new Map<string, { namespace: string; name: string }>();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: KubeClient,
    private readonly source: EventSource,
    private readonly log: (msg: string) => void = () => undefined,
    private readonly now: () => Date = () => new Date(),
    /** Where dropped events are mentioned; default nowhere. */
    private readonly debug: (msg: string) => void = () => undefined,
  ) {}

  record(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const run = () =>
      this.write(obj, type, reason, message).catch((e: unknown) => {
        const line = `event ${reason} for ${obj.metadata?.namespace}/${obj.metadata?.name}: ${e instanceof Error ? e.message : String(e)}`;
        if (isNamespaceTerminating(e)) this.debug(`${line} (dropped)`);
        else this.log(line);
      });
    this.chain = this.chain.then(run, run);
  }

  /** Resolves when every event recorded so far has been written (or given up on). */
  flush(): Promise<void> {
    return this.chain;
  }

  private async write(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const key = eventKey(obj, type, reason, message);
    const known = this.written.get(key);
    const now = this.now();
    if (known) {
      const path = `/api/v1/namespaces/${encodeURIComponent(known.namespace)}/events/${encodeURIComponent(known.name)}`;
      try {
        const ev = await this.client.get<Event>(path);
        await this.client.update<Event>(path, repeatedEvent(ev, now));
        return;
      } catch (e) {
        if (!(e instanceof KubeError && (e.code === 404 || e.code === 409))) throw e;
      }
    }
    const ev = newEvent(obj, type, reason, message, this.source, now, this.seq++);
    const ns = ev.metadata.namespace!;
    await this.client.create<Event>(`/api/v1/namespaces/${encodeURIComponent(ns)}/events`, ev);
    if (this.written.size > 10_000) this.written.clear();
    this.written.set(key, { namespace: ns, name: ev.metadata.name! });
  }
}
