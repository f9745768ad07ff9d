// What admission remembers between pods (the Pod Security policy of a namespace's labels,
// names found valid) must never show: the same labels object changed in place, or a name
// checked again after it was found valid or invalid, gives what a first evaluation gives.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluatePodSecurity } from '../../src/admission/podsecurity.js';
import type { Pod } from '../../src/api/types.js';
import { isDNS1123Label, isQualifiedName, isValidLabelValue } from '../../src/api/validation/names.js';

const privilegedPod = (): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] },
});

describe('remembered Pod Security policy', () => {
  it('follows a label changed in place on the same labels object', () => {
    const labels: Record<string, string> = { 'pod-security.kubernetes.io/enforce': 'privileged' };
    const defaults = { enforce: 'privileged', 'enforce-version': 'latest' };
    assert.equal(evaluatePodSecurity(labels, defaults, privilegedPod()).denied, undefined);
    labels['pod-security.kubernetes.io/enforce'] = 'baseline';
    assert.match(evaluatePodSecurity(labels, defaults, privilegedPod()).denied ?? '', /^violates PodSecurity "baseline:latest"/);
    delete labels['pod-security.kubernetes.io/enforce'];
    assert.equal(evaluatePodSecurity(labels, defaults, privilegedPod()).denied, undefined);
  });

  it('follows other defaults for the same labels', () => {
    const labels: Record<string, string> = {};
    assert.equal(evaluatePodSecurity(labels, { enforce: 'privileged' }, privilegedPod()).denied, undefined);
    assert.match(evaluatePodSecurity(labels, { enforce: 'baseline' }, privilegedPod()).denied ?? '', /^violates PodSecurity "baseline:latest"/);
  });
});

describe('names found valid are remembered, the messages of invalid ones are not lost', () => {
  const rows: { name: string; check: (v: string) => string[]; valid: string; invalid: string }[] = [
    { name: 'DNS-1123 label', check: isDNS1123Label, valid: 'app', invalid: 'App' },
    { name: 'qualified name', check: isQualifiedName, valid: 'example.com/x', invalid: 'a/b/c' },
    { name: 'label value', check: isValidLabelValue, valid: 'v1', invalid: '-v' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const first = r.check(r.invalid);
      assert.ok(first.length > 0);
      assert.deepEqual(r.check(r.invalid), first);
      assert.deepEqual(r.check(r.valid), []);
      const again = r.check(r.valid);
      assert.equal(again.length, 0);
      // A caller may add to the list it gets: the next caller's is still empty.
      again.push('x');
      assert.deepEqual(r.check(r.valid), []);
    });
  }
});
