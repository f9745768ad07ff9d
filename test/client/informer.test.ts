// The shared informer (client-go SharedIndexInformer and its Reflector) over a fake client:
// list then watch, handlers in the order added, the 410 re-list, resync, the indexer and lister,
// and the factory's one informer per kind. Deterministic: the test pushes every event.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../src/api/types.js';
import { SharedInformerFactory } from '../../src/client/factory.js';
import { SharedIndexInformer } from '../../src/client/informer.js';
import { podsRef } from '../../src/client/resources.js';
import { FakeClient, pod } from './fakeclient.js';

/** Lets the informer's pending promises (a re-list, a new watch) run. */
const settle = () => new Promise((r) => setImmediate(r));

function recorder(log: string[], tag: string) {
  return {
    add: (o: KubeObject) => log.push(`${tag} add ${o.metadata!.name}`),
    update: (old: KubeObject, o: KubeObject) => log.push(`${tag} update ${o.metadata!.name} ${old.metadata!.resourceVersion}->${o.metadata!.resourceVersion}`),
    delete: (o: KubeObject) => log.push(`${tag} delete ${o.metadata!.name}`),
  };
}

describe('SharedIndexInformer', () => {
  it('lists, then watches from the list resourceVersion; every change reaches the handlers in the order they were added', async () => {
    const c = new FakeClient();
    const a = c.put(pod('a'));
    const inf = new SharedIndexInformer(c, podsRef);
    const log: string[] = [];
    inf.addEventHandler(recorder(log, 'h1'));
    inf.addEventHandler(recorder(log, 'h2'));
    await inf.start();
    assert.equal(c.watches.length, 1);
    assert.equal(c.watches[0]!.opts.resourceVersion, String(c.resourceVersion));
    const b = c.put(pod('b'));
    c.current.event({ type: 'ADDED', object: b });
    const a2 = c.put(a);
    c.current.event({ type: 'MODIFIED', object: a2 });
    c.current.event({ type: 'DELETED', object: b });
    assert.deepEqual(log, [
      'h1 add a', 'h2 add a',
      'h1 add b', 'h2 add b',
      `h1 update a ${a.metadata!.resourceVersion}->${a2.metadata!.resourceVersion}`, `h2 update a ${a.metadata!.resourceVersion}->${a2.metadata!.resourceVersion}`,
      'h1 delete b', 'h2 delete b',
    ]);
    assert.equal(inf.lastSyncResourceVersion, b.metadata!.resourceVersion);
    inf.stop();
  });

  it('a handler added to a running informer first gets every stored object as an add', async () => {
    const c = new FakeClient();
    c.put(pod('a'));
    c.put(pod('b'));
    const inf = new SharedIndexInformer(c, podsRef);
    await inf.start();
    const log: string[] = [];
    inf.addEventHandler(recorder(log, 'late'));
    assert.deepEqual(log.sort(), ['late add a', 'late add b']);
    inf.stop();
  });

  it('a watch ended with ERROR 410 re-lists: what is gone arrives as a delete, what changed as an update, and the new watch starts from the new list', async () => {
    const c = new FakeClient();
    c.put(pod('a'));
    const b = c.put(pod('b'));
    const inf = new SharedIndexInformer(c, podsRef);
    const log: string[] = [];
    inf.addEventHandler(recorder(log, 'h'));
    await inf.start();
    log.length = 0;
    // Meanwhile (events the watch missed): b deleted, c created.
    c.objects.delete(c.key(b));
    c.put(pod('c'));
    c.current.event({ type: 'ERROR', object: { kind: 'Status', code: 410 } as unknown as KubeObject });
    c.current.end();
    await settle();
    assert.equal(c.lists, 2);
    assert.deepEqual(log.filter((l) => !l.startsWith('h update')), ['h add c', 'h delete b']);
    assert.deepEqual(inf.lister.list().map((o) => o.metadata!.name), ['a', 'c']);
    assert.equal(c.watches.length, 2);
    assert.equal(c.watches[1]!.opts.resourceVersion, String(c.resourceVersion));
    inf.stop();
  });

  it('a watch refused with 410 at its start re-lists before watching again', async () => {
    const c = new FakeClient();
    c.put(pod('a'));
    const inf = new SharedIndexInformer(c, podsRef);
    await inf.start();
    c.refuseWatch.push(410);
    // A stream that ends normally resumes from the last resourceVersion: here refused as too old.
    c.current.end();
    await settle();
    await settle();
    assert.equal(c.lists, 2);
    assert.equal(c.watches.length, 2);
    inf.stop();
  });

  it('a BOOKMARK moves the resourceVersion the next watch resumes from, without a handler call', async () => {
    const c = new FakeClient();
    const inf = new SharedIndexInformer(c, podsRef);
    const log: string[] = [];
    inf.addEventHandler(recorder(log, 'h'));
    await inf.start();
    c.current.event({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '99' } } as KubeObject });
    c.current.end();
    // A normal end resumes at once, without a list.
    await settle();
    assert.equal(c.lists, 1);
    assert.equal(c.watches[1]!.opts.resourceVersion, '99');
    assert.deepEqual(log, []);
    inf.stop();
  });

  it('resync hands every stored object to every handler as an update of itself', async () => {
    const c = new FakeClient();
    c.put(pod('a'));
    const inf = new SharedIndexInformer(c, podsRef);
    const log: string[] = [];
    inf.addEventHandler(recorder(log, 'h'));
    await inf.start();
    log.length = 0;
    inf.resync();
    const rv = inf.lister.get('default', 'a')!.metadata!.resourceVersion;
    assert.deepEqual(log, [`h update a ${rv}->${rv}`]);
    inf.stop();
  });

  it('keeps indexes and answers the lister by namespace, by name and by index; keep() turns a change out of view into a delete', async () => {
    const c = new FakeClient();
    c.put(pod('a', { spec: { nodeName: 'n1' } }));
    c.put({ ...pod('b', { spec: { nodeName: 'n1' } }), metadata: { name: 'b', namespace: 'other' } });
    c.put(pod('done', { spec: { nodeName: 'n1' }, status: { phase: 'Succeeded' } }));
    const inf = new SharedIndexInformer<KubeObject & { spec?: { nodeName?: string }; status?: { phase?: string } }>(c, podsRef, { keep: (p) => p.status?.phase !== 'Succeeded' });
    inf.addIndex('node', (p) => p.spec?.nodeName);
    const log: string[] = [];
    inf.addEventHandler(recorder(log, 'h'));
    await inf.start();
    assert.deepEqual(inf.lister.list().map((o) => o.metadata!.name), ['a', 'b']);
    assert.deepEqual(inf.lister.list('default').map((o) => o.metadata!.name), ['a']);
    assert.equal(inf.lister.get('other', 'b')?.metadata?.name, 'b');
    assert.deepEqual([...inf.lister.byIndex('node', 'n1').keys()].sort(), ['default/a', 'other/b']);
    const a2 = c.put(pod('a', { spec: { nodeName: 'n2' } }));
    c.current.event({ type: 'MODIFIED', object: a2 });
    assert.deepEqual([...inf.lister.byIndex('node', 'n1').keys()], ['other/b']);
    assert.deepEqual([...inf.lister.byIndex('node', 'n2').keys()], ['default/a']);
    log.length = 0;
    c.current.event({ type: 'MODIFIED', object: c.put(pod('a', { spec: { nodeName: 'n2' }, status: { phase: 'Succeeded' } })) });
    assert.deepEqual(log, ['h delete a']);
    assert.equal(inf.lister.byIndex('node', 'n2').size, 0);
    assert.ok(Object.isFrozen(inf.lister.get('other', 'b')));
    inf.stop();
  });

  it('a throwing handler does not keep the others from the event', async () => {
    const c = new FakeClient();
    const inf = new SharedIndexInformer(c, podsRef);
    const log: string[] = [];
    const orig = console.error;
    console.error = () => undefined;
    try {
      inf.addEventHandler({ add: () => { throw new Error('boom'); } });
      inf.addEventHandler(recorder(log, 'h'));
      await inf.start();
      c.current.event({ type: 'ADDED', object: c.put(pod('a')) });
    } finally {
      console.error = orig;
    }
    assert.deepEqual(log, ['h add a']);
    inf.stop();
  });
});

describe('SharedInformerFactory', () => {
  it('gives every caller of a kind the same informer: one list and one watch', async () => {
    const c = new FakeClient();
    const f = new SharedInformerFactory(c);
    const one = f.informerFor(podsRef);
    const two = f.informerFor(podsRef);
    assert.equal(one, two);
    assert.notEqual(f.informerFor(podsRef, {}, 'filtered'), one);
    await f.start();
    assert.equal(c.lists, 2);
    assert.equal(c.watches.length, 2);
    f.stop();
    assert.ok(c.watches.every((w) => w.stopped));
  });
});
