// core/v1 Events as Kubernetes components write them (client-go's event recorder): the name is
// the object's name plus a unique suffix, the source names the component (and host, for a
// kubelet), and a repeat of the same reason and message bumps count and lastTimestamp instead
// of writing a new object. Pure: callers do the writing.

import type { Event, KubeObject } from './types.js';
import { metaTime } from './metatime.js';

export interface EventSource {
  component: string;
  /** The node, for events written by a node agent. */
  host?: string;
}

/** client-go's name suffix: the time in nanoseconds as hex, unique per recorder. */
export function eventName(objectName: string, now: Date, seq: number): string {
  return `${objectName}.${(BigInt(now.getTime()) * 1_000_000n + BigInt(seq % 1_000_000)).toString(16)}`;
}

/** The key under which repeats of one event are folded into one object. */
export function eventKey(obj: KubeObject, type: string, reason: string, message: string): string {
  return [obj.metadata?.uid ?? '', obj.metadata?.namespace ?? '', obj.metadata?.name ?? '', type, reason, message].join('\u0000');
}

export function newEvent(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string, source: EventSource, now: Date, seq: number, action?: string): Event {
  const namespace = obj.metadata?.namespace ?? 'default';
  const time = metaTime(now);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: eventName(obj.metadata?.name ?? '', now, seq), namespace },
    involvedObject: {
      kind: obj.kind,
      namespace: obj.metadata?.namespace,
      name: obj.metadata?.name,
      uid: obj.metadata?.uid,
      apiVersion: obj.apiVersion,
      resourceVersion: obj.metadata?.resourceVersion,
    },
    reason,
    message,
    source: source.host ? { component: source.component, host: source.host } : { component: source.component },
    firstTimestamp: time,
    lastTimestamp: time,
    count: 1,
    type,
    eventTime: null,
    // generateEvent: the reporting controller and instance are the source's component and host
    // (empty for a controller, which has no host).
    reportingComponent: source.component,
    reportingInstance: source.host ?? '',
    ...(action ? { action } : {}),
  };
}

/** The same event seen again: one more in count, a new lastTimestamp. */
export function repeatedEvent(ev: Event, now: Date): Event {
  return { ...ev, count: (ev.count ?? 1) + 1, lastTimestamp: metaTime(now) };
}
