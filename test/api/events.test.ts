// Events as client-go's recorder writes them: name = object name + hex time suffix, source with
// the node for a kubelet, repeats folded by count.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventKey, eventName, newEvent, repeatedEvent } from '../../src/api/events.js';
import type { Pod } from '../../src/api/types.js';

const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop', uid: 'u1', resourceVersion: '7' }, spec: { containers: [] } };
const now = new Date('2026-11-22T06:00:00.123Z');

describe('events', () => {
  it('a kubelet event names the pod, the component and the host', () => {
    const e = newEvent(pod, 'Warning', 'OOMKilling', 'Killed process 1 (tail)', { component: 'kubelet', host: 'n1' }, now, 3);
    assert.equal(e.metadata.namespace, 'shop');
    assert.match(e.metadata.name!, /^web\.[0-9a-f]+$/);
    assert.deepEqual(e.involvedObject, { kind: 'Pod', namespace: 'shop', name: 'web', uid: 'u1', apiVersion: 'v1', resourceVersion: '7' });
    assert.deepEqual(e.source, { component: 'kubelet', host: 'n1' });
    assert.equal(e.firstTimestamp, '2026-11-22T06:00:00Z');
    assert.equal(e.count, 1);
    assert.equal(e.reportingInstance, 'n1');
  });
  it("a controller's event: reportingInstance is its (empty) host, not its component", () => {
    const e = newEvent(pod, 'Normal', 'SuccessfulCreate', 'Created pod: web', { component: 'replicaset-controller' }, now, 0);
    assert.deepEqual([e.source, e.reportingComponent, e.reportingInstance], [{ component: 'replicaset-controller' }, 'replicaset-controller', '']);
  });
  it('names differ for events recorded in the same millisecond', () => {
    assert.notEqual(eventName('web', now, 1), eventName('web', now, 2));
  });
  it('a repeat bumps count and lastTimestamp only', () => {
    const e = newEvent(pod, 'Normal', 'Pulled', 'x', { component: 'kubelet' }, now, 0);
    const r = repeatedEvent(e, new Date('2026-11-22T06:01:00Z'));
    assert.equal(r.count, 2);
    assert.equal(r.firstTimestamp, '2026-11-22T06:00:00Z');
    assert.equal(r.lastTimestamp, '2026-11-22T06:01:00Z');
  });
  it('the fold key separates reasons and messages', () => {
    assert.notEqual(eventKey(pod, 'Normal', 'Pulled', 'a'), eventKey(pod, 'Normal', 'Pulled', 'b'));
    assert.notEqual(eventKey(pod, 'Normal', 'Pulled', 'a'), eventKey(pod, 'Normal', 'Created', 'a'));
  });
});
