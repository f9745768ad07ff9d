// Dry runs and DeleteOptions over HTTPS against a real server: a dry run of every write verb,
// with dryRun in the query or in the DeleteOptions body, leaves the store exactly as it was (no
// object, no quota charge, no managedFields, no new revision, no events); DeleteOptions are
// decoded, validated and given precedence as kube-apiserver's delete handler does.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client, type Response } from './client.js';

const ns = 'dry';
const pods = `/api/v1/namespaces/${ns}/pods`;
const podPath = (name: string) => `${pods}/${name}`;
const quotaPath = `/api/v1/namespaces/${ns}/resourcequotas/q`;
const merge = { 'Content-Type': 'application/merge-patch+json' };
const apply = { 'Content-Type': 'application/apply-patch+yaml' };

const podBody = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } });

describe('dry runs and DeleteOptions', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;

  const ok = async (r: Promise<Response>, code = 200): Promise<Response> => {
    const res = await r;
    assert.equal(res.status, code, res.text);
    return res;
  };
  const create = async (name: string) => (await ok(admin.request('POST', pods, podBody(name)), 201)).json();
  const bind = (name: string) => ok(admin.request('POST', `${podPath(name)}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: 'node-1' } }), 201);
  const get = async (name: string) => {
    const r = await admin.request('GET', podPath(name));
    return r.status === 200 ? r.json() : undefined;
  };
  const podCount = async () => (await ok(admin.request('GET', pods))).json().items.length as number;
  const quotaUsed = async () => (await ok(admin.request('GET', quotaPath))).json().status?.used?.pods as string | undefined;
  const eventCount = async () => (await ok(admin.request('GET', `/api/v1/namespaces/${ns}/events`))).json().items.length as number;

  /** Waits (bounded) until the quota controller has caught up, so nothing else writes meanwhile. */
  const settle = async () => {
    for (let i = 0; i < 400; i++) {
      if ((await quotaUsed()) === String(await podCount())) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.fail('the quota status never caught up with the pods in the namespace');
  };

  /** Everything a write could leave behind, to compare before and after a dry run. */
  const snapshot = async () => ({
    revision: await s.store.currentRevision(),
    pods: (await ok(admin.request('GET', pods))).json().items,
    quotaUsed: await quotaUsed(),
    events: await eventCount(),
  });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-dryrun-'));
    // No leader Lease renewals in the background: a dry run must leave the revision as it was.
    s = await startServer({ dataDir: join(dir, 'data'), port: 0, scheduler: false, quotaResyncSeconds: 3600, leaderElection: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
    await ok(admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }), 201);
    await ok(admin.request('POST', `/api/v1/namespaces/${ns}/resourcequotas`, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '10' } } }), 201);
    await create('live');
    await create('graceful');
    await bind('graceful');
    await settle();
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const dryQuery = '?dryRun=All';
  let current: { metadata: Record<string, unknown> } = { metadata: {} };
  const rows: { name: string; request: () => Promise<Response>; code: number; check?: (r: Response) => void }[] = [
    {
      name: 'create with dryRun in the query stores no pod and charges no quota',
      request: () => admin.request('POST', pods + dryQuery, podBody('ghost')),
      code: 201,
      check: (r) => assert.equal(r.json().metadata.resourceVersion, undefined),
    },
    {
      name: 'update with dryRun in the query changes nothing and answers with the current resourceVersion',
      request: async () => {
        current = await get('live');
        return admin.request('PUT', podPath('live') + dryQuery, { ...current, metadata: { ...current.metadata, resourceVersion: undefined, labels: { app: 'changed' } } });
      },
      code: 200,
      check: (r) => assert.deepEqual([r.json().metadata.labels.app, r.json().metadata.resourceVersion], ['changed', current.metadata.resourceVersion]),
    },
    {
      name: 'merge patch with dryRun in the query changes nothing',
      request: () => admin.request('PATCH', podPath('live') + dryQuery, { metadata: { labels: { app: 'patched' } } }, merge),
      code: 200,
      check: (r) => assert.equal(r.json().metadata.labels.app, 'patched'),
    },
    {
      name: 'server-side apply with dryRun in the query records no manager',
      request: () => admin.request('PATCH', podPath('live') + dryQuery + '&fieldManager=dry', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'live', labels: { extra: 'x' } } }), apply),
      code: 200,
      check: (r) => assert.ok(r.json().metadata.managedFields.some((m: { manager: string }) => m.manager === 'dry')),
    },
    {
      name: 'server-side apply creating with dryRun in the query stores nothing',
      request: () => admin.request('PATCH', podPath('ghost-apply') + dryQuery + '&fieldManager=dry', JSON.stringify(podBody('ghost-apply')), apply),
      code: 201,
    },
    {
      name: 'delete with dryRun in the query (no body) deletes nothing',
      request: () => admin.request('DELETE', podPath('live') + dryQuery),
      code: 200,
    },
    {
      name: 'delete with dryRun in the DeleteOptions body deletes nothing',
      request: () => admin.request('DELETE', podPath('live'), { propagationPolicy: 'Background', dryRun: ['All'] }),
      code: 200,
    },
    {
      name: 'delete with a v1 DeleteOptions body carrying dryRun deletes nothing',
      request: () => admin.request('DELETE', podPath('live'), { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] }),
      code: 200,
    },
    {
      name: 'delete with a meta.k8s.io/v1 DeleteOptions body carrying dryRun deletes nothing',
      request: () => admin.request('DELETE', podPath('live'), { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'], gracePeriodSeconds: 0 }),
      code: 200,
    },
    {
      name: 'a dry-run delete of a bound pod answers with the pod as it would be marked, and marks nothing',
      request: () => admin.request('DELETE', podPath('graceful'), { gracePeriodSeconds: 45, dryRun: ['All'] }),
      code: 200,
      check: (r) => assert.equal(r.json().metadata.deletionGracePeriodSeconds, 45),
    },
    {
      name: 'a binding with dryRun in the query binds nothing',
      request: () => admin.request('POST', `${podPath('live')}/binding${dryQuery}`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'live' }, target: { kind: 'Node', name: 'node-1' } }),
      code: 201,
    },
    {
      name: 'an eviction with dryRun in the query deletes nothing',
      request: () => admin.request('POST', `${podPath('live')}/eviction${dryQuery}`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'live' } }),
      code: 201,
    },
    {
      name: 'an eviction with dryRun in its deleteOptions deletes nothing',
      request: () => admin.request('POST', `${podPath('live')}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'live' }, deleteOptions: { dryRun: ['All'] } }),
      code: 201,
    },
    {
      name: 'a dry-run delete of a namespace answers with it Terminating, and terminates nothing',
      request: () => admin.request('DELETE', `/api/v1/namespaces/${ns}`, { dryRun: ['All'] }),
      code: 200,
      check: (r) => assert.equal(r.json().status.phase, 'Terminating'),
    },
    {
      name: 'deletecollection with dryRun in the query deletes nothing',
      request: () => admin.request('DELETE', pods + dryQuery),
      code: 200,
      check: (r) => assert.equal(r.json().items.length, 2),
    },
    {
      name: 'deletecollection with dryRun in the DeleteOptions body deletes nothing',
      request: () => admin.request('DELETE', pods, { dryRun: ['All'] }),
      code: 200,
      check: (r) => assert.equal(r.json().items.length, 2),
    },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      await settle();
      const before = await snapshot();
      const r = await row.request();
      assert.equal(r.status, row.code, r.text);
      row.check?.(r);
      assert.deepEqual(await snapshot(), before);
    });
  }

  const refused: { name: string; request: () => Promise<Response>; code: number; reason: string; message: string }[] = [
    {
      name: 'dryRun other than All in the body is a 422 on DeleteOptions',
      request: () => admin.request('DELETE', podPath('live'), { dryRun: ['Foo'] }),
      code: 422,
      reason: 'Invalid',
      message: 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Foo"]: supported values: "All"',
    },
    {
      name: 'dryRun other than All in the query of a DELETE is a 422 on DeleteOptions',
      request: () => admin.request('DELETE', podPath('live') + '?dryRun=All&dryRun=Foo'),
      code: 422,
      reason: 'Invalid',
      message: 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["All","Foo"]: supported values: "All"',
    },
    {
      name: 'dryRun other than All on a create is a 422 on CreateOptions',
      request: () => admin.request('POST', pods + '?dryRun=Foo', podBody('nope')),
      code: 422,
      reason: 'Invalid',
      message: 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Foo"]: supported values: "All"',
    },
    {
      name: 'dryRun other than All on an update is a 422 on UpdateOptions',
      request: () => admin.request('PUT', podPath('live') + '?dryRun=', podBody('live')),
      code: 422,
      reason: 'Invalid',
      message: 'UpdateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: [""]: supported values: "All"',
    },
    {
      name: 'dryRun other than All on a patch is a 422 on PatchOptions',
      request: () => admin.request('PATCH', podPath('live') + '?dryRun=all', { metadata: { labels: { a: 'b' } } }, merge),
      code: 422,
      reason: 'Invalid',
      message: 'PatchOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["all"]: supported values: "All"',
    },
    {
      name: 'an unknown fieldValidation on a create is a 422 on CreateOptions, not a 400',
      request: () => admin.request('POST', pods + '?fieldValidation=strict', podBody('nope')),
      code: 422,
      reason: 'Invalid',
      message: 'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
    },
    {
      name: 'an apply patch without fieldManager is a 422 on PatchOptions',
      request: () => admin.request('PATCH', podPath('live'), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'live' } }, { 'Content-Type': 'application/apply-patch+yaml' }),
      code: 422,
      reason: 'Invalid',
      message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    },
    {
      name: 'force on a merge patch is a 422 on PatchOptions',
      request: () => admin.request('PATCH', podPath('live') + '?force=true', { metadata: { labels: { a: 'b' } } }, merge),
      code: 422,
      reason: 'Invalid',
      message: 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    },
    {
      name: 'a fieldManager with a control character is a 422 on UpdateOptions, the value as Go quotes it',
      request: () => admin.request('PUT', podPath('live') + '?fieldManager=a%00b', podBody('live')),
      code: 422,
      reason: 'Invalid',
      message: 'UpdateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\x00b": invalid character U+0000 (at position 1)',
    },
    {
      name: 'an unknown propagationPolicy in the body is a 422',
      request: () => admin.request('DELETE', podPath('live'), { propagationPolicy: 'Sideways' }),
      code: 422,
      reason: 'Invalid',
      message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    },
    {
      name: 'an unknown propagationPolicy in the query is a 422',
      request: () => admin.request('DELETE', podPath('live') + '?propagationPolicy=background'),
      code: 422,
      reason: 'Invalid',
      message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "background": supported values: "Foreground", "Background", "Orphan", "nil"',
    },
    {
      name: 'orphanDependents with propagationPolicy is a 422',
      request: () => admin.request('DELETE', podPath('live'), { orphanDependents: false, propagationPolicy: 'Foreground' }),
      code: 422,
      reason: 'Invalid',
      message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set',
    },
    {
      name: 'orphanDependents with propagationPolicy in the query is a 422, with every error listed',
      request: () => admin.request('DELETE', podPath('live') + '?orphanDependents=true&propagationPolicy=Nope&dryRun=x'),
      code: 422,
      reason: 'Invalid',
      message:
        'DeleteOptions.meta.k8s.io "" is invalid: [propagationPolicy: Invalid value: "Nope": orphanDependents and deletionPropagation cannot be both set, propagationPolicy: Unsupported value: "Nope": supported values: "Foreground", "Background", "Orphan", "nil", dryRun: Unsupported value: ["x"]: supported values: "All"]',
    },
    {
      name: 'a uid precondition the pod does not meet is a 409',
      request: () => admin.request('DELETE', podPath('live'), { preconditions: { uid: 'not-the-uid' } }),
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on pods "live": Precondition failed: UID in precondition: not-the-uid, UID in object meta: <uid>',
    },
    {
      name: 'an empty uid precondition is still a precondition',
      request: () => admin.request('DELETE', podPath('live'), { preconditions: { uid: '' } }),
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on pods "live": Precondition failed: UID in precondition: , UID in object meta: <uid>',
    },
    {
      name: 'a resourceVersion precondition the pod does not meet is a 409',
      request: () => admin.request('DELETE', podPath('live'), { preconditions: { resourceVersion: '1' } }),
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on pods "live": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: <rv>',
    },
    {
      name: 'a body that is not JSON is a 400',
      request: () => admin.request('DELETE', podPath('live'), '{"dryRun":'),
      code: 400,
      reason: 'BadRequest',
      message: "couldn't get version/kind; json parse error: <any>",
    },
    {
      name: 'a body that is not an object is a 400',
      request: () => admin.request('DELETE', podPath('live'), '["All"]'),
      code: 400,
      reason: 'BadRequest',
      message: `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    },
    {
      name: 'a body of another kind is a 400',
      request: () => admin.request('DELETE', podPath('live'), { kind: 'Pod', apiVersion: 'v1', dryRun: ['All'] }),
      code: 400,
      reason: 'BadRequest',
      message: 'no kind "Pod" is registered for version "v1" in scheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:28"',
    },
    {
      name: 'a gracePeriodSeconds of the wrong JSON type is a 400',
      request: () => admin.request('DELETE', podPath('live'), { gracePeriodSeconds: '0' }),
      code: 400,
      reason: 'BadRequest',
      message: 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
    },
    {
      name: 'a dryRun that is not a list is a 400',
      request: () => admin.request('DELETE', podPath('live'), { dryRun: 'All' }),
      code: 400,
      reason: 'BadRequest',
      message: 'json: cannot unmarshal string into Go struct field DeleteOptions.dryRun of type []string',
    },
    {
      name: 'a gracePeriodSeconds in the query that is not an integer is a 400',
      request: () => admin.request('DELETE', podPath('live') + '?gracePeriodSeconds=soon'),
      code: 400,
      reason: 'BadRequest',
      message: 'strconv.ParseInt: parsing "soon": invalid syntax',
    },
  ];
  for (const row of refused) {
    it(row.name, async () => {
      await settle();
      const before = await snapshot();
      const live = await get('live');
      const r = await row.request();
      assert.equal(r.status, row.code, r.text);
      const st = r.json();
      assert.deepEqual([st.kind, st.status, st.reason, st.code], ['Status', 'Failure', row.reason, row.code]);
      const expected = row.message.replace('<uid>', live.metadata.uid).replace('<rv>', live.metadata.resourceVersion);
      if (expected.endsWith('<any>')) assert.ok(st.message.startsWith(expected.slice(0, -'<any>'.length)), st.message);
      else assert.equal(st.message, expected);
      if (row.code === 422) assert.deepEqual([st.details.group, st.details.kind], ['meta.k8s.io', expected.split('.')[0]]);
      assert.deepEqual(await snapshot(), before);
    });
  }

  // The body's options replace the query's entirely (delete.go decodes one or the other).
  const graces: { name: string; query: string; body?: unknown; grace: number }[] = [
    { name: 'gracePeriodSeconds from the query when there is no body', query: '?gracePeriodSeconds=5', grace: 5 },
    { name: 'gracePeriodSeconds from the body', query: '', body: { gracePeriodSeconds: 7 }, grace: 7 },
    { name: 'a body without gracePeriodSeconds ignores the query one: the pod default applies', query: '?gracePeriodSeconds=5', body: { propagationPolicy: 'Background' }, grace: 30 },
    { name: 'a body gracePeriodSeconds wins over the query one', query: '?gracePeriodSeconds=5', body: { gracePeriodSeconds: 9 }, grace: 9 },
  ];
  it('dryRun in the query is ignored when a body is sent, as kube-apiserver ignores it: the pod goes', async () => {
    await create('body-wins');
    await ok(admin.request('DELETE', podPath('body-wins') + '?dryRun=All', { propagationPolicy: 'Background' }));
    assert.equal(await get('body-wins'), undefined);
  });
  graces.forEach((g, i) => {
    it(g.name, async () => {
      const name = `grace-${i}`;
      await create(name);
      await bind(name);
      const r = await ok(admin.request('DELETE', podPath(name) + g.query, g.body));
      assert.equal(r.json().metadata.deletionGracePeriodSeconds, g.grace);
      assert.equal((await get(name)).metadata.deletionGracePeriodSeconds, g.grace);
    });
  });

  // There is no garbage collector, so (as upstream's registry without one) a valid policy only
  // has to be accepted: the object goes as it would with any other.
  for (const policy of ['Orphan', 'Foreground', 'Background']) {
    it(`propagationPolicy ${policy} is accepted and deletes the pod`, async () => {
      const name = `policy-${policy.toLowerCase()}`;
      const created = await create(name);
      await ok(admin.request('DELETE', podPath(name), { propagationPolicy: policy, preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion } }));
      assert.equal(await get(name), undefined);
    });
  }
});
