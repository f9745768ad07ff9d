// Discovery and OpenAPI agree, on a running server: every group-version and resource that
// discovery lists (aggregated v2, v2beta1 and legacy) is in /openapi/v3 and /openapi/v2 with its
// x-kubernetes-group-version-kind and an operation for each verb, and every OpenAPI document,
// path and operation belongs to something discovery lists, with the same kind.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';
import { readDocument } from './gnosticv2.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface GVK {
  group: string;
  version: string;
  kind: string;
}

/** One (resource, subresource) pair as discovery lists it: its kind, scope and verbs. */
interface Discovered {
  gv: string;
  resource: string;
  subresource: string;
  kind: GVK;
  namespaced: boolean;
  verbs: string[];
}

const gvPathOf = (group: string, version: string) => (group === '' ? `api/${version}` : `apis/${group}/${version}`);
const key = (d: { gv: string; resource: string; subresource: string }) => `${d.gv} ${d.resource}${d.subresource ? `/${d.subresource}` : ''}`;
const sortByKey = (l: Discovered[]) => [...l].map((d) => ({ ...d, verbs: [...d.verbs].sort() })).sort((a, b) => (key(a) < key(b) ? -1 : 1));

function fromAggregated(lists: Json[]): Discovered[] {
  const out: Discovered[] = [];
  for (const list of lists) {
    for (const item of list['items']) {
      for (const v of item['versions']) {
        const gv = gvPathOf(item['metadata']['name'] ?? '', v['version']);
        for (const r of v['resources']) {
          const namespaced = r['scope'] === 'Namespaced';
          out.push({ gv, resource: r['resource'], subresource: '', kind: r['responseKind'], namespaced, verbs: r['verbs'] });
          for (const s of r['subresources'] ?? []) out.push({ gv, resource: r['resource'], subresource: s['subresource'], kind: s['responseKind'], namespaced, verbs: s['verbs'] });
        }
      }
    }
  }
  return out;
}

function fromLegacy(lists: Json[]): Discovered[] {
  const out: Discovered[] = [];
  for (const list of lists) {
    const [group, version] = list['groupVersion'].includes('/') ? list['groupVersion'].split('/') : ['', list['groupVersion']];
    for (const r of list['resources']) {
      const [resource, subresource = ''] = String(r['name']).split('/');
      const kind = { group: r['group'] ?? group, version: r['version'] ?? version, kind: r['kind'] };
      out.push({ gv: gvPathOf(group, version), resource: resource!, subresource, kind, namespaced: r['namespaced'], verbs: r['verbs'] });
    }
  }
  return out;
}

/** The (resource, subresource, verb) an OpenAPI operation stands for. */
function operationTarget(path: string, method: string): { gv: string; resource: string; subresource: string; verb: string; namespaced: boolean } | undefined {
  const m = /^\/(api\/[^/]+|apis\/[^/]+\/[^/]+)\/(.*)$/.exec(path);
  if (!m || m[2] === '') return undefined;
  let segs = m[2]!.split('/');
  let namespaced = false;
  if (segs[0] === 'namespaces' && segs[1] === '{namespace}') {
    namespaced = true;
    segs = segs.slice(2);
  }
  const [resource, name, subresource = ''] = segs;
  const item = name === '{name}';
  const verbs: Record<string, string> = subresource
    ? { get: 'get', put: 'update', patch: 'patch', post: 'create', delete: 'delete' }
    : item
      ? { get: 'get', put: 'update', patch: 'patch', delete: 'delete' }
      : { get: 'list', post: 'create', delete: 'deletecollection' };
  return { gv: m[1]!, resource: resource!, subresource, verb: verbs[method]!, namespaced };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function operations(doc: Json): { path: string; method: string; op: Json }[] {
  const out: { path: string; method: string; op: Json }[] = [];
  for (const [path, item] of Object.entries(doc['paths'] as Json)) for (const m of METHODS) if (item[m]) out.push({ path, method: m, op: item[m] });
  return out;
}

function kindsWithSchema(schemas: Json): Set<string> {
  const out = new Set<string>();
  for (const s of Object.values(schemas)) for (const g of s['x-kubernetes-group-version-kind'] ?? []) out.add(`${g.group}/${g.version}/${g.kind}`);
  return out;
}

describe('discovery and OpenAPI are consistent', () => {
  let s: RunningServer;
  let dir: string;
  let c: Client;
  let aggregated: Discovered[];
  let aggregatedBeta: Discovered[];
  let legacy: Discovered[];
  let v3: Map<string, Json>;
  const docs: { name: string; paths: Map<string, Json>; schemas: Set<string>; ops: { path: string; method: string; op: Json; gv: string }[] }[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-discovery-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    c = new Client(s.url, s.caCert, s.adminToken);
    const get = async (path: string, accept = 'application/json') => {
      const r = await c.request('GET', path, undefined, { Accept: accept });
      assert.equal(r.status, 200, `${path}: ${r.text}`);
      return r.json<Json>();
    };
    const v2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
    const v2beta1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
    aggregated = fromAggregated([await get('/api', v2), await get('/apis', v2)]);
    aggregatedBeta = fromAggregated([await get('/api', v2beta1), await get('/apis', v2beta1)]);
    const lists: Json[] = [];
    for (const v of (await get('/api'))['versions']) lists.push(await get(`/api/${v}`));
    for (const g of (await get('/apis'))['groups']) for (const v of g['versions']) lists.push(await get(`/apis/${v['groupVersion']}`));
    legacy = fromLegacy(lists);

    v3 = new Map();
    for (const [gv, { serverRelativeURL }] of Object.entries((await get('/openapi/v3'))['paths'] as Json)) v3.set(gv, await get(serverRelativeURL));
    for (const [gv, doc] of v3) {
      docs.push({ name: `v3 ${gv}`, paths: new Map(Object.entries(doc['paths'])), schemas: kindsWithSchema(doc['components']['schemas']), ops: operations(doc).map((o) => ({ ...o, gv })) });
    }
    const swagger = await get('/openapi/v2');
    const pb = await c.request('GET', '/openapi/v2', undefined, { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    for (const [name, doc] of [['v2 json', swagger], ['v2 protobuf', readDocument(pb.raw)]] as const) {
      docs.push({ name, paths: new Map(Object.entries(doc['paths'])), schemas: kindsWithSchema(doc['definitions']), ops: operations(doc).map((o) => ({ ...o, gv: operationTarget(o.path, o.method)?.gv ?? '' })) });
    }
  });
  after(async () => {
    c?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('aggregated v2, v2beta1 and legacy discovery list the same resources, kinds, scopes and verbs', () => {
    assert.ok(aggregated.length > 0);
    assert.deepEqual(sortByKey(aggregatedBeta), sortByKey(aggregated));
    assert.deepEqual(sortByKey(legacy), sortByKey(aggregated));
  });

  it('the /openapi/v3 index has exactly the group-versions discovery lists', () => {
    assert.deepEqual([...v3.keys()].sort(), [...new Set(aggregated.map((d) => d.gv))].sort());
  });

  it('/openapi/v2 has paths under exactly the group-versions discovery lists', () => {
    for (const doc of docs.filter((d) => d.name.startsWith('v2'))) {
      const gvs = new Set([...doc.paths.keys()].map((p) => /^\/(api\/[^/]+|apis\/[^/]+\/[^/]+)\//.exec(p)?.[1]));
      assert.deepEqual([...gvs].sort(), [...new Set(aggregated.map((d) => d.gv))].sort(), doc.name);
    }
  });

  it('every discovered resource and subresource has a schema with its x-kubernetes-group-version-kind and an operation per verb, in v3 and v2', () => {
    for (const d of aggregated) {
      for (const doc of docs.filter((x) => x.name.startsWith('v2') || x.name === `v3 ${d.gv}`)) {
        const gvk = `${d.kind.group}/${d.kind.version}/${d.kind.kind}`;
        assert.ok(doc.schemas.has(gvk), `${doc.name}: no schema for ${gvk} (${key(d)})`);
        for (const verb of d.verbs.filter((v) => v !== 'watch')) {
          const found = doc.ops.find(({ path, method }) => {
            const t = operationTarget(path, method);
            return t && t.gv === d.gv && t.resource === d.resource && t.subresource === d.subresource && t.verb === verb && (t.namespaced === d.namespaced || verb === 'list');
          });
          assert.ok(found, `${doc.name}: no operation for ${verb} ${key(d)}`);
          assert.deepEqual(found.op['x-kubernetes-group-version-kind'], d.kind, `${doc.name}: ${found.method} ${found.path}`);
        }
      }
    }
  });

  it('every OpenAPI operation is for a discovered resource and verb, with the kind discovery gives', () => {
    for (const doc of docs) {
      for (const { path, method, op } of doc.ops) {
        const t = operationTarget(path, method);
        if (!t) continue; // the group-version's own discovery GET (`/api/v1/`)
        const d = aggregated.find((x) => x.gv === t.gv && x.resource === t.resource && x.subresource === t.subresource);
        assert.ok(d, `${doc.name}: ${method} ${path} is for ${key(t)}, which discovery does not list`);
        assert.ok(d.verbs.includes(t.verb), `${doc.name}: ${method} ${path}: discovery does not list verb ${t.verb}`);
        assert.deepEqual(op['x-kubernetes-group-version-kind'], d.kind, `${doc.name}: ${method} ${path}`);
      }
    }
  });

  it('every PATCH operation advertises fieldValidation in v3 and v2 (kubectl\'s server-side validation check)', () => {
    for (const doc of docs) {
      for (const { path, method, op } of doc.ops) {
        // A connect operation (nodes/proxy) passes the body on: it has no write options.
        if (method !== 'patch' || op['x-kubernetes-action'] === 'connect') continue;
        assert.ok((op['parameters'] as Json[]).some((p) => p['name'] === 'fieldValidation' && p['in'] === 'query'), `${doc.name}: ${path}`);
      }
    }
  });
});
