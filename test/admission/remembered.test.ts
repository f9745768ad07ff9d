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

describe('remembered Pod Security outcomes', () => {
  const apparmorPod = (profile: string | undefined): Pod => ({
    ...privilegedPod(),
    metadata: { name: 'p', namespace: 'ns', ...(profile ? { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': profile } } : {}) },
    spec: { containers: [{ name: 'c', image: 'busybox' }] },
  });
  it('the same spec under another policy is evaluated afresh', () => {
    const warnOnly = { 'pod-security.kubernetes.io/warn': 'baseline' };
    const enforced = { 'pod-security.kubernetes.io/enforce': 'baseline' };
    const defaults = { enforce: 'privileged' };
    const warned = evaluatePodSecurity(warnOnly, defaults, privilegedPod());
    assert.equal(warned.denied, undefined);
    assert.match(warned.warnings[0] ?? '', /^would violate PodSecurity "baseline:latest"/);
    assert.match(evaluatePodSecurity(enforced, defaults, privilegedPod()).denied ?? '', /^violates PodSecurity "baseline:latest"/);
  });
  it('the same spec with other annotations is evaluated afresh', () => {
    const labels = { 'pod-security.kubernetes.io/enforce': 'baseline' };
    assert.equal(evaluatePodSecurity(labels, {}, apparmorPod(undefined)).denied, undefined);
    assert.match(evaluatePodSecurity(labels, {}, apparmorPod('unconfined')).denied ?? '', /forbidden AppArmor profile/);
    assert.equal(evaluatePodSecurity(labels, {}, apparmorPod('runtime/default')).denied, undefined);
  });
  it('a caller may add to the warnings it gets: the next caller\'s are as evaluated', () => {
    const labels = { 'pod-security.kubernetes.io/warn': 'baseline' };
    const first = evaluatePodSecurity(labels, {}, privilegedPod());
    first.warnings.push('x');
    assert.equal(evaluatePodSecurity(labels, {}, privilegedPod()).warnings.length, 1);
  });
  it('warn set stricter than enforce still warns about what enforce allowed', () => {
    const labels = { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' };
    const out = evaluatePodSecurity(labels, {}, apparmorPod(undefined));
    assert.equal(out.denied, undefined);
    assert.match(out.warnings[0] ?? '', /^would violate PodSecurity "restricted:latest"/);
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
