// The root CA publisher's decision for one namespace (upstream's syncNamespace): create when
// missing, leave alone when the data is exactly the CA and the description is there, else put
// the data and the description back, keeping everything else of the stored ConfigMap.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ConfigMap } from '../../src/api/types.js';
import { descriptionAnnotation, rootCAConfigMapChange, rootCACertConfigMapName, rootCADescription } from '../../src/controllers/rootcacert.js';

const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const stored = (over: Partial<ConfigMap> & { annotations?: Record<string, string> } = {}): ConfigMap => {
  const { annotations, ...rest } = over;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: rootCACertConfigMapName, namespace: 'ns', resourceVersion: '7', annotations: annotations ?? { [descriptionAnnotation]: rootCADescription } },
    data: { 'ca.crt': ca },
    ...rest,
  };
};

const rows: { name: string; current: ConfigMap | undefined; action: 'none' | 'create' | 'update'; data?: Record<string, string>; annotations?: Record<string, string>; keeps?: (c: ConfigMap) => void }[] = [
  { name: 'missing: created with the CA and the description', current: undefined, action: 'create', data: { 'ca.crt': ca }, annotations: { [descriptionAnnotation]: rootCADescription } },
  { name: 'as published: nothing to do', current: stored(), action: 'none' },
  { name: 'any non-empty description will do', current: stored({ annotations: { [descriptionAnnotation]: 'x' } }), action: 'none' },
  { name: 'another CA: put back', current: stored({ data: { 'ca.crt': 'old' } }), action: 'update', data: { 'ca.crt': ca } },
  { name: 'an extra key: dropped', current: stored({ data: { 'ca.crt': ca, more: 'x' } }), action: 'update', data: { 'ca.crt': ca } },
  { name: 'no data: put back', current: stored({ data: undefined }), action: 'update', data: { 'ca.crt': ca } },
  {
    name: 'the description removed: added back, other annotations kept',
    current: stored({ annotations: { mine: 'yes' } }),
    action: 'update',
    annotations: { mine: 'yes', [descriptionAnnotation]: rootCADescription },
  },
  {
    name: 'an update keeps the resourceVersion (a conflict, not a blind write) and binaryData',
    current: stored({ data: { 'ca.crt': 'old' }, binaryData: { b: 'AA==' } }),
    action: 'update',
    keeps: (c) => {
      assert.equal(c.metadata?.resourceVersion, '7');
      assert.deepEqual(c.binaryData, { b: 'AA==' });
    },
  },
];

for (const r of rows) {
  it(r.name, () => {
    const change = rootCAConfigMapChange(r.current, ca);
    assert.equal(change.action, r.action);
    if (change.action === 'none') return;
    if (r.data) assert.deepEqual(change.configMap.data, r.data);
    if (r.annotations) assert.deepEqual(change.configMap.metadata?.annotations, r.annotations);
    assert.equal(change.configMap.metadata?.name, rootCACertConfigMapName);
    r.keeps?.(change.configMap);
  });
}
