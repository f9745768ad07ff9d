// Pod tolerations (src/api/validation/tolerations.ts, upstream's ValidateTolerations), one row per
// rule, with upstream's wording.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorString, FieldPath } from '../../../src/api/fielderrors.js';
import type { Toleration } from '../../../src/api/types.js';
import { validateTolerations } from '../../../src/api/validation/tolerations.js';

const check = (ts: (Toleration | null)[]) => validateTolerations(ts, FieldPath.root('spec').child('tolerations')).map(errorString);

describe('pod tolerations', () => {
  const rows: { name: string; ts: (Toleration | null)[]; want: string[] }[] = [
    { name: 'key, Equal, value and effect: valid', ts: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }], want: [] },
    { name: 'empty key with Exists tolerates everything: valid', ts: [{ operator: 'Exists' }], want: [] },
    { name: 'NoExecute with tolerationSeconds: valid', ts: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }], want: [] },
    { name: 'empty key needs Exists', ts: [{ operator: 'Equal', value: 'x' }], want: ['spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"'] },
    { name: 'a null entry is the zero toleration: empty key, empty operator', ts: [null], want: ['spec.tolerations[0].operator: Invalid value: "": operator must be Exists when `key` is empty, which means "match all values and all keys"'] },
    { name: 'tolerationSeconds needs NoExecute', ts: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }], want: ["spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"] },
    { name: 'Exists with a value', ts: [{ key: 'k', operator: 'Exists', value: 'v' }], want: ['spec.tolerations[0].operator: Invalid value: core.Toleration{Key:"k", Operator:"Exists", Value:"v", Effect:"", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is \'Exists\''] },
    { name: 'an unknown operator', ts: [{ key: 'k', operator: 'In' }], want: ['spec.tolerations[0].operator: Unsupported value: "In": supported values: "Equal", "Exists"'] },
    { name: 'an unknown effect', ts: [{ key: 'k', operator: 'Exists', effect: 'Evict' }], want: ['spec.tolerations[0].effect: Unsupported value: "Evict": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'] },
    { name: 'a key that is not a qualified name', ts: [{ key: 'a b', operator: 'Exists' }], want: ["spec.tolerations[0].key: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"] },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(check(r.ts), r.want));
});
