// The OpenAPI v3 documents: the shape rules kubectl 1.29-1.33 relies on (reference
// kubectl-protocol.md §3), the explain-critical fields, and schema completeness for the
// strategic merge patch kubectl computes from the document.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  canonicalJSON,
  documentHash,
  openAPIBundle,
  openAPIDocument,
  openAPIIndex,
  patchContentTypes,
  servedGroupVersions,
  type ServedResource,
} from '../../../src/api/schema/index.js';
import { servedResources } from '../../../src/apiserver/openapidocs.js';
import { DocReader, allRefs, fixturePods, samplePod } from './helpers.js';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

function operations(doc: Json): { path: string; method: string; op: Json }[] {
  const out: { path: string; method: string; op: Json }[] = [];
  for (const [path, item] of Object.entries(doc['paths'] as Record<string, Json>)) {
    for (const m of METHODS) if (item[m]) out.push({ path, method: m, op: item[m] as Json });
  }
  return out;
}

// The server's resources (apiserver/resources.ts), the list discovery reads too.
const defaultResources = servedResources();
const bundle = openAPIBundle(defaultResources);
const docs = Object.entries(bundle.documents);
const core = new DocReader(bundle.documents['api/v1']!.doc);

describe('OpenAPI index and documents', () => {
  it('serves the group-versions of the served resources: api/v1, authentication.k8s.io/v1, authorization.k8s.io/v1, batch/v1, certificates.k8s.io/v1, coordination.k8s.io/v1, discovery.k8s.io/v1, metrics.k8s.io/v1beta1, node.k8s.io/v1, policy/v1, rbac.authorization.k8s.io/v1 and scheduling.k8s.io/v1', () => {
    assert.deepEqual(servedGroupVersions(defaultResources), ['api/v1', 'apis/apps/v1', 'apis/authentication.k8s.io/v1', 'apis/authorization.k8s.io/v1', 'apis/autoscaling/v1', 'apis/autoscaling/v2', 'apis/batch/v1', 'apis/certificates.k8s.io/v1', 'apis/coordination.k8s.io/v1', 'apis/discovery.k8s.io/v1', 'apis/metrics.k8s.io/v1beta1', 'apis/node.k8s.io/v1', 'apis/policy/v1', 'apis/rbac.authorization.k8s.io/v1', 'apis/scheduling.k8s.io/v1']);
  });

  it('the index points at /openapi/v3/<gv>?hash=<document hash>, api/v1 included', () => {
    const paths = bundle.index['paths'] as Record<string, { serverRelativeURL: string }>;
    assert.ok(paths['api/v1'], 'api/v1 entry is mandatory');
    for (const [gv, { doc, hash }] of docs) {
      assert.equal(paths[gv]!.serverRelativeURL, `/openapi/v3/${gv}?hash=${hash}`);
      assert.equal(hash, documentHash(doc));
      assert.match(hash, /^[0-9A-F]{128}$/);
    }
    assert.deepEqual(openAPIIndex({ 'api/v1': 'AB' }), { paths: { 'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=AB' } } });
  });

  it('documents are OpenAPI 3.0.0 with info, paths and components.schemas', () => {
    for (const [gv, { doc }] of docs) {
      assert.equal(doc['openapi'], '3.0.0', gv);
      assert.equal(typeof (doc['info'] as Json)['title'], 'string');
      assert.ok(Object.keys(doc['paths'] as Json).length > 0, gv);
      assert.ok(Object.keys((doc['components'] as Json)['schemas'] as Json).length > 0, gv);
    }
  });

  it('documentHash is deterministic, ignores key order, and changes with the document', () => {
    const a = openAPIDocument('api/v1', defaultResources);
    const b = openAPIDocument('api/v1', defaultResources);
    assert.equal(documentHash(a), documentHash(b));
    assert.equal(documentHash({ x: 1, y: [1, { b: 2, a: 1 }] }), documentHash({ y: [1, { a: 1, b: 2 }], x: 1 }));
    assert.equal(canonicalJSON({ b: 1, a: [true, null, 's'] }), '{"a":[true,null,"s"],"b":1}');
    const podsOnly = openAPIDocument('api/v1', defaultResources.filter((r: ServedResource) => r.resource === 'pods'));
    assert.notEqual(documentHash(podsOnly), documentHash(a));
  });

  it('every $ref in every document resolves to a schema of that document', () => {
    for (const [gv, { doc }] of docs) {
      const schemas = (doc['components'] as Json)['schemas'] as Json;
      for (const r of allRefs(doc)) {
        assert.ok(r.startsWith('#/components/schemas/'), `${gv}: ${r}`);
        assert.ok(schemas[r.slice('#/components/schemas/'.length)], `${gv}: unresolved ${r}`);
      }
    }
  });

  it('every operation carries x-kubernetes-action and an x-kubernetes-group-version-kind object', () => {
    for (const [gv, { doc }] of docs) {
      for (const { path, method, op } of operations(doc)) {
        if (path.endsWith('/')) continue; // the discovery GET has no kind
        assert.equal(typeof op['x-kubernetes-action'], 'string', `${gv} ${method} ${path}`);
        const g = op['x-kubernetes-group-version-kind'] as Json;
        assert.ok(g && !Array.isArray(g) && typeof g['kind'] === 'string' && typeof g['version'] === 'string' && typeof g['group'] === 'string', `${method} ${path}`);
        assert.equal(typeof op['operationId'], 'string');
      }
    }
  });

  it('every PATCH operation has the fieldValidation query parameter, the GVK and the four patch content types', () => {
    let patches = 0;
    for (const [, { doc }] of docs) {
      for (const { path, method, op } of operations(doc)) {
        // A connect operation (nodes/proxy) passes whatever body it gets on: no patch options.
        if (method !== 'patch' || op['x-kubernetes-action'] === 'connect') continue;
        patches++;
        const params = op['parameters'] as { name: string; in: string }[];
        for (const name of ['fieldValidation', 'fieldManager', 'dryRun', 'force']) {
          assert.ok(params.some((p) => p.name === name && p.in === 'query'), `${path}: ${name}`);
        }
        assert.ok(op['x-kubernetes-group-version-kind'], path);
        assert.equal(op['x-kubernetes-action'], 'patch');
        const content = (op['requestBody'] as Json)['content'] as Json;
        assert.deepEqual(Object.keys(content).sort(), [...patchContentTypes].sort());
        for (const ct of patchContentTypes) assert.ok(content[ct], `${path}: ${ct}`);
      }
    }
    assert.ok(patches >= 10, `only ${patches} patch operations`);
  });

  it('each served kind has a PATCH operation with its GVK (kubectl\'s field-validation support check)', () => {
    for (const r of defaultResources) {
      if (!r.verbs?.includes('patch')) continue;
      const gv = r.group === '' ? 'api/v1' : `apis/${r.group}/${r.version}`;
      const found = operations(bundle.documents[gv]!.doc).some(({ method, op }) => {
        const g = op['x-kubernetes-group-version-kind'] as Json | undefined;
        return method === 'patch' && g?.['kind'] === r.kind && g?.['group'] === r.group && g?.['version'] === r.version;
      });
      assert.ok(found, `${r.kind}`);
    }
  });

  it('every kind schema has an x-kubernetes-group-version-kind array, and each served kind is found by it', () => {
    for (const [gv, { doc }] of docs) {
      const r = new DocReader(doc);
      for (const [name, s] of Object.entries(r.schemas)) {
        const g = s['x-kubernetes-group-version-kind'];
        if (g !== undefined) assert.ok(Array.isArray(g) && g.length > 0, `${gv}: ${name}`);
      }
    }
    const kinds: [string, string, string, string][] = [
      ['api/v1', '', 'Pod', 'io.k8s.api.core.v1.Pod'],
      ['api/v1', '', 'PodList', 'io.k8s.api.core.v1.PodList'],
      ['api/v1', '', 'Namespace', 'io.k8s.api.core.v1.Namespace'],
      ['api/v1', '', 'NamespaceList', 'io.k8s.api.core.v1.NamespaceList'],
      ['api/v1', '', 'Node', 'io.k8s.api.core.v1.Node'],
      ['api/v1', '', 'NodeList', 'io.k8s.api.core.v1.NodeList'],
      ['api/v1', '', 'ResourceQuota', 'io.k8s.api.core.v1.ResourceQuota'],
      ['api/v1', '', 'ResourceQuotaList', 'io.k8s.api.core.v1.ResourceQuotaList'],
      ['api/v1', '', 'LimitRange', 'io.k8s.api.core.v1.LimitRange'],
      ['api/v1', '', 'LimitRangeList', 'io.k8s.api.core.v1.LimitRangeList'],
      ['api/v1', '', 'Event', 'io.k8s.api.core.v1.Event'],
      ['api/v1', '', 'EventList', 'io.k8s.api.core.v1.EventList'],
      ['api/v1', '', 'Binding', 'io.k8s.api.core.v1.Binding'],
      ['api/v1', '', 'Status', 'io.k8s.apimachinery.pkg.apis.meta.v1.Status'],
      ['api/v1', '', 'DeleteOptions', 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions'],
      ['api/v1', 'policy', 'Eviction', 'io.k8s.api.policy.v1.Eviction'],
      ['apis/coordination.k8s.io/v1', 'coordination.k8s.io', 'Lease', 'io.k8s.api.coordination.v1.Lease'],
      ['apis/coordination.k8s.io/v1', 'coordination.k8s.io', 'LeaseList', 'io.k8s.api.coordination.v1.LeaseList'],
    ];
    for (const [gv, group, kind, name] of kinds) assert.equal(new DocReader(bundle.documents[gv]!.doc).kind(group, 'v1', kind), name, `${gv} ${kind}`);
  });

  it('has the collection, item and subresource paths of the default resources', () => {
    const paths = Object.keys(bundle.documents['api/v1']!.doc['paths'] as Json);
    for (const p of [
      '/api/v1/namespaces/{namespace}/pods',
      '/api/v1/namespaces/{namespace}/pods/{name}',
      '/api/v1/namespaces/{namespace}/pods/{name}/status',
      '/api/v1/namespaces/{namespace}/pods/{name}/binding',
      '/api/v1/namespaces/{namespace}/pods/{name}/eviction',
      '/api/v1/namespaces/{namespace}/pods/{name}/log',
      '/api/v1/pods',
      '/api/v1/namespaces',
      '/api/v1/namespaces/{name}',
      '/api/v1/namespaces/{name}/status',
      '/api/v1/namespaces/{name}/finalize',
      '/api/v1/nodes',
      '/api/v1/nodes/{name}',
      '/api/v1/nodes/{name}/status',
      '/api/v1/namespaces/{namespace}/resourcequotas/{name}/status',
      '/api/v1/namespaces/{namespace}/limitranges/{name}',
      '/api/v1/namespaces/{namespace}/events/{name}',
    ]) {
      assert.ok(paths.includes(p), p);
    }
    const lease = bundle.documents['apis/coordination.k8s.io/v1']!.doc['paths'] as Json;
    assert.ok(lease['/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}']);
    const pods = (bundle.documents['api/v1']!.doc['paths'] as Record<string, Json>);
    assert.deepEqual(Object.keys(pods['/api/v1/namespaces/{namespace}/pods']!).filter((k) => k !== 'parameters').sort(), ['delete', 'get', 'post']);
    assert.deepEqual(Object.keys(pods['/api/v1/namespaces/{namespace}/pods/{name}']!).filter((k) => k !== 'parameters').sort(), ['delete', 'get', 'patch', 'put']);
    const eviction = pods['/api/v1/namespaces/{namespace}/pods/{name}/eviction']!['post'] as Json;
    assert.deepEqual(eviction['x-kubernetes-group-version-kind'], { group: 'policy', kind: 'Eviction', version: 'v1' });
    assert.ok(core.schemas['io.k8s.api.policy.v1.Eviction']);
  });

  it('takes the served resources as input', () => {
    const only: ServedResource[] = [{ group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, subresources: ['status'] }];
    const doc = openAPIDocument('api/v1', only);
    const paths = Object.keys(doc['paths'] as Json);
    assert.ok(paths.includes('/api/v1/namespaces/{namespace}/pods/{name}/status'));
    assert.ok(!paths.some((p) => p.includes('/nodes')));
    assert.ok(!paths.some((p) => p.endsWith('/log')));
    assert.deepEqual(servedGroupVersions(only), ['api/v1']);
  });
});

describe('explain-critical fields (kubectl explain walks properties, allOf/$ref and items)', () => {
  const pod = core.kind('', 'v1', 'Pod')!;

  it('pod.spec.containers.oomKillMode: string, enum Single|Group, with a description', () => {
    for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
      const f = core.field(pod, `spec.${list}.oomKillMode`);
      assert.equal(f['type'], 'string');
      assert.deepEqual(f['enum'], ['Single', 'Group']);
      assert.match(f['description'] as string, /OOM/);
    }
  });

  it('pod.spec.containers.securityContext.ulimits: []Ulimit, listType map keyed by name, name/soft/hard required', () => {
    const f = core.field(pod, 'spec.containers.securityContext.ulimits');
    assert.equal(f['type'], 'array');
    assert.deepEqual(f['items'], { $ref: '#/components/schemas/io.k8s.api.core.v1.Ulimit' });
    assert.equal(f['x-kubernetes-list-type'], 'map');
    assert.deepEqual(f['x-kubernetes-list-map-keys'], ['name']);
    assert.ok((f['description'] as string).length > 20);
    const u = core.schemas['io.k8s.api.core.v1.Ulimit']!;
    assert.deepEqual(u['required'], ['name', 'hard', 'soft']);
    for (const k of ['name', 'soft', 'hard']) assert.ok(((u['properties'] as Record<string, Json>)[k]!['description'] as string).length > 0);
    assert.equal(core.field(pod, 'spec.containers.securityContext.ulimits.soft')['format'], 'int64');
  });

  it('struct-valued fields are allOf:[{$ref}] with the description beside them', () => {
    const f = core.field(pod, 'spec');
    assert.deepEqual(f['allOf'], [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodSpec' }]);
    assert.equal(typeof f['description'], 'string');
  });

  it('every property and every schema has a description; required lists name real properties', () => {
    for (const [gv, { doc }] of docs) {
      for (const [name, s] of Object.entries(new DocReader(doc).schemas)) {
        assert.ok(typeof s['description'] === 'string' && (s['description'] as string).length > 0, `${gv} ${name}`);
        const props = (s['properties'] ?? {}) as Record<string, Json>;
        for (const [p, ps] of Object.entries(props)) assert.ok(typeof ps['description'] === 'string' && (ps['description'] as string).length > 0, `${name}.${p}`);
        for (const r of (s['required'] ?? []) as string[]) assert.ok(props[r], `${name}: required ${r}`);
      }
    }
  });

  it('enums, formats and required lists follow upstream', () => {
    assert.deepEqual(core.field(pod, 'spec.restartPolicy')['enum'], ['Always', 'Never', 'OnFailure']);
    assert.deepEqual(core.field(pod, 'spec.containers.imagePullPolicy')['enum'], ['Always', 'IfNotPresent', 'Never']);
    assert.deepEqual(core.field(pod, 'spec.volumes.hostPath.type')['enum'], ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket']);
    assert.deepEqual((core.field(pod, 'spec.volumes.ephemeral.volumeClaimTemplate.spec.accessModes')['items'] as Json)['enum'], ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod']);
    assert.equal(core.field(pod, 'spec.containers.ports.containerPort')['format'], 'int32');
    assert.equal(core.field(pod, 'spec.terminationGracePeriodSeconds')['format'], 'int64');
    assert.deepEqual(core.schemas['io.k8s.api.core.v1.PodSpec']!['required'], ['containers']);
    assert.deepEqual(core.schemas['io.k8s.api.core.v1.ContainerPort']!['required'], ['containerPort']);
    assert.deepEqual(core.schemas['io.k8s.api.core.v1.Event']!['required'], ['metadata', 'involvedObject']);
    assert.deepEqual(core.schemas['io.k8s.api.core.v1.ContainerStatus']!['required'], ['name', 'ready', 'restartCount', 'image', 'imageID']);
    assert.deepEqual(core.schemas['io.k8s.apimachinery.pkg.api.resource.Quantity'], { description: core.schemas['io.k8s.apimachinery.pkg.api.resource.Quantity']!['description'], type: 'string' });
    assert.equal(core.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.Time']!['format'], 'date-time');
    assert.equal(core.schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']!['format'], 'int-or-string');
    assert.equal((core.field(pod, 'spec.containers.resources.limits')['additionalProperties'] as Json)['$ref'], '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity');
  });

  it('Node, Namespace, ResourceQuota, LimitRange, Event and Lease fields explain', () => {
    const node = core.kind('', 'v1', 'Node')!;
    assert.equal(core.field(node, 'status.declaredFeatures')['x-kubernetes-list-type'], 'atomic');
    assert.equal(core.field(node, 'status.daemonEndpoints.kubeletEndpoint.Port')['format'], 'int32');
    assert.equal(core.field(node, 'status.conditions')['x-kubernetes-patch-merge-key'], 'type');
    assert.equal(core.field(node, 'status.nodeInfo.kubeletVersion')['type'], 'string');
    assert.deepEqual(core.field(core.kind('', 'v1', 'Namespace')!, 'status.phase')['enum'], ['Active', 'Terminating']);
    assert.ok(core.field(core.kind('', 'v1', 'ResourceQuota')!, 'spec.scopeSelector.matchExpressions.scopeName'));
    assert.ok(core.field(core.kind('', 'v1', 'LimitRange')!, 'spec.limits.maxLimitRequestRatio'));
    assert.equal(core.resolve(core.field(core.kind('', 'v1', 'Event')!, 'eventTime'))['format'], 'date-time');
    const coord = new DocReader(bundle.documents['apis/coordination.k8s.io/v1']!.doc);
    assert.equal(coord.field(coord.kind('coordination.k8s.io', 'v1', 'Lease')!, 'spec.leaseDurationSeconds')['format'], 'int32');
  });
});

describe('schema completeness for strategic merge patch (kubectl needs every manifest field)', () => {
  /** kubectl's PatchMetaFromOpenAPIV3: every object- or list-valued key must be a property. */
  function walk(r: DocReader, schema: Json, value: unknown, path: string, missing: string[]): void {
    if (!value || typeof value !== 'object') return;
    const s = r.resolve(schema);
    if (Array.isArray(value)) {
      const items = s['items'] as Json | undefined;
      if (!items) return;
      for (const [i, v] of value.entries()) walk(r, items, v, `${path}[${i}]`, missing);
      return;
    }
    const props = s['properties'] as Record<string, Json> | undefined;
    const add = s['additionalProperties'] as Json | undefined;
    for (const [k, v] of Object.entries(value as Json)) {
      if (!v || typeof v !== 'object') continue;
      const sub = props?.[k] ?? add;
      if (!sub) {
        missing.push(`${path}.${k}`);
        continue;
      }
      walk(r, sub, v, `${path}.${k}`, missing);
    }
  }

  it('the sample pod resolves completely', () => {
    const pod = samplePod();
    delete (pod['metadata'] as Json)['managedFields']; // kubectl never diffs managedFields
    const missing: string[] = [];
    walk(core, core.schemas['io.k8s.api.core.v1.Pod']!, pod, '', missing);
    assert.deepEqual(missing, []);
  });

  it('every PSA fixture pod resolves completely', () => {
    const missing: string[] = [];
    for (const { file, pod } of fixturePods()) walk(core, core.schemas['io.k8s.api.core.v1.Pod']!, pod, file, missing);
    assert.deepEqual(missing.slice(0, 10), []);
  });
});
