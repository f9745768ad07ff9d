// Pod affinity and topology spread through the real kubectl: a refused pod prints kubectl's
// `The Pod "…" is invalid: …` line with upstream's paths and wording, and an accepted pod comes
// back with the matchLabelKeys merged into its affinity selector (PrepareForCreate). Skipped when
// no kubectl is installed.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { kubectlFound, kubectlSkip, useTestServer } from './kubectlserver.js';

const pod = (name: string, spec: Record<string, unknown>, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});

if (!kubectlFound) it('pod affinity and topology spread with the real kubectl', { skip: kubectlSkip }, () => {});
else {
  describe('pod affinity and topology spread with the real kubectl', () => {
    const { kubectl, dir } = useTestServer('bulkhead-podscheduling-kubectl-');
    const create = async (name: string, body: unknown) => {
      const file = join(dir(), `${name}.json`);
      writeFileSync(file, JSON.stringify(body));
      return kubectl('create', '-f', file);
    };

    const refused: { name: string; body: unknown; stderr: string }[] = [
      {
        name: 'a required node affinity term with a bad operator',
        body: pod('na', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'disk', operator: 'Equals', values: ['ssd'] }] }] } } } }),
        stderr: 'The Pod "na" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator\n',
      },
      {
        name: 'a preferred pod anti-affinity weight out of range',
        body: pod('pa', { affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 200, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: {} } }] } } }),
        stderr: 'The Pod "pa" is invalid: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 200: must be in the range 1-100\n',
      },
      {
        name: 'a topology spread constraint with maxSkew 0 and an unknown node taints policy',
        body: pod('ts', { topologySpreadConstraints: [{ maxSkew: 0, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', nodeTaintsPolicy: 'Always' }] }),
        stderr: 'The Pod "ts" is invalid: \n* spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero\n* spec.topologySpreadConstraints[0].nodeTaintsPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore"\n',
      },
    ];
    for (const r of refused) {
      it(`refused: ${r.name}`, async () => {
        const got = await create(`bad-${(r.body as { metadata: { name: string } }).metadata.name}`, r.body);
        assert.notEqual(got.code, 0);
        assert.equal(got.stderr, r.stderr);
      });
    }

    it('accepted: matchLabelKeys are merged into the stored selector', async () => {
      const body = pod('web-1', {
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash'] }] } },
      }, { app: 'web', 'pod-template-hash': '5d9f' });
      assert.equal((await create('web-1', body)).code, 0);
      const sel = await kubectl('get', 'pod', 'web-1', '-o', 'jsonpath={.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector}');
      assert.deepEqual(JSON.parse(sel.stdout), { matchExpressions: [{ key: 'pod-template-hash', operator: 'In', values: ['5d9f'] }], matchLabels: { app: 'web' } });
    });
  });
}
