// One RBAC rule read three ways: RuleAllows (the rows of plugin/pkg/auth/authorizer/rbac
// rbac_test.go TestRuleMatches), Covers (component-helpers auth/rbac/validation
// policy_comparator_test.go, one row per upstream test) and the compact form the escalation
// message prints (rule.go CompactRules, rbacv1helpers.CompactString).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PolicyRule } from '../../src/api/rbactypes.js';
import { compactRules, compactString, covers, ruleAllows, type RuleRequest } from '../../src/policy/rbacrules.js';

const res = (verb: string, apiGroup: string, resource: string, subresource = '', name = ''): RuleRequest => ({ verb, resourceRequest: true, apiGroup, resource, subresource, name });
const url = (verb: string, path: string): RuleRequest => ({ verb, resourceRequest: false, path });

describe('ruleAllows (TestRuleMatches)', () => {
  const rows: { name: string; rule: PolicyRule; cases: [RuleRequest, boolean][] }[] = [
    {
      name: 'star verb, exact match other',
      rule: { verbs: ['*'], apiGroups: ['group1'], resources: ['resource1'] },
      cases: [
        [res('verb1', 'group1', 'resource1'), true],
        [res('verb1', 'group2', 'resource1'), false],
        [res('verb1', 'group1', 'resource2'), false],
        [res('verb1', 'group2', 'resource2'), false],
        [res('verb2', 'group1', 'resource1'), true],
        [res('verb2', 'group2', 'resource1'), false],
      ],
    },
    {
      name: 'star group, exact match other',
      rule: { verbs: ['verb1'], apiGroups: ['*'], resources: ['resource1'] },
      cases: [
        [res('verb1', 'group1', 'resource1'), true],
        [res('verb1', 'group2', 'resource1'), true],
        [res('verb1', 'group1', 'resource2'), false],
        [res('verb2', 'group1', 'resource1'), false],
      ],
    },
    {
      name: 'star resource, exact match other',
      rule: { verbs: ['verb1'], apiGroups: ['group1'], resources: ['*'] },
      cases: [
        [res('verb1', 'group1', 'resource1'), true],
        [res('verb1', 'group2', 'resource1'), false],
        [res('verb1', 'group1', 'resource2'), true],
        [res('verb2', 'group1', 'resource1'), false],
      ],
    },
    {
      name: 'tuple expansion',
      rule: { verbs: ['verb1', 'verb2'], apiGroups: ['group1', 'group2'], resources: ['resource1', 'resource2'] },
      cases: [
        [res('verb1', 'group1', 'resource1'), true],
        [res('verb1', 'group2', 'resource2'), true],
        [res('verb2', 'group1', 'resource2'), true],
        [res('verb3', 'group1', 'resource1'), false],
        [res('verb1', 'group3', 'resource1'), false],
        [res('verb1', 'group1', 'resource3'), false],
      ],
    },
    {
      name: 'subresource expansion',
      rule: { verbs: ['*'], apiGroups: ['*'], resources: ['resource1/subresource1'] },
      cases: [
        [res('verb1', 'group1', 'resource1', 'subresource1'), true],
        [res('verb1', 'group1', 'resource1', 'subresource2'), false],
        [res('verb1', 'group1', 'resource2', 'subresource1'), false],
        [res('verb1', 'group1', 'resource1'), false],
      ],
    },
    {
      name: 'a */subresource rule matches that subresource of any resource, not the resource itself',
      rule: { verbs: ['get'], apiGroups: [''], resources: ['*/scale'] },
      cases: [
        [res('get', '', 'deployments', 'scale'), true],
        [res('get', '', 'replicasets', 'scale'), true],
        [res('get', '', 'deployments', 'status'), false],
        [res('get', '', 'deployments'), false],
        [res('get', '', 'deployments', 'xscale'), false],
      ],
    },
    {
      name: 'resource names: only the named objects; a request without a name does not match',
      rule: { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'] },
      cases: [
        [res('get', '', 'configmaps', '', 'a'), true],
        [res('get', '', 'configmaps', '', 'b'), true],
        [res('get', '', 'configmaps', '', 'c'), false],
        [res('get', '', 'configmaps'), false],
      ],
    },
    {
      name: 'star nonresource, exact match other',
      rule: { verbs: ['verb1'], nonResourceURLs: ['*'] },
      cases: [
        [url('verb1', '/foo'), true],
        [url('verb1', '/foo/bar'), true],
        [url('verb1', '/foo/baz'), true],
        [url('verb1', '/foo/bar/one'), true],
        [url('verb1', '/foo/baz/one'), true],
        [url('verb2', '/foo'), false],
        [url('verb2', '/foo/bar'), false],
      ],
    },
    {
      name: 'star nonresource subpath',
      rule: { verbs: ['verb1'], nonResourceURLs: ['/foo/*'] },
      cases: [
        [url('verb1', '/foo'), false],
        [url('verb1', '/foo/bar'), true],
        [url('verb1', '/foo/baz'), true],
        [url('verb1', '/foo/bar/one'), true],
        [url('verb1', '/foo/baz/one'), true],
        [url('verb1', '/notfoo'), false],
        [url('verb1', '/notfoo/bar'), false],
        [url('verb1', '/notfoo/baz'), false],
        [url('verb1', '/notfoo/bar/one'), false],
        [url('verb1', '/notfoo/baz/one'), false],
      ],
    },
    {
      name: 'star verb, exact nonresource',
      rule: { verbs: ['*'], nonResourceURLs: ['/foo', '/foo/bar/one'] },
      cases: [
        [url('verb1', '/foo'), true],
        [url('verb1', '/foo/bar'), false],
        [url('verb1', '/foo/baz'), false],
        [url('verb1', '/foo/bar/one'), true],
        [url('verb1', '/foo/baz/one'), false],
        [url('verb2', '/foo'), true],
        [url('verb2', '/foo/bar/one'), true],
      ],
    },
    {
      name: 'a resource rule never matches a non-resource request, nor the reverse',
      rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      cases: [
        [url('get', '/healthz'), false],
        [res('get', 'apps', 'deployments'), true],
      ],
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      for (const [req, want] of r.cases) assert.equal(ruleAllows(req, r.rule), want, JSON.stringify(req));
    });
  }
});

describe('covers (policy_comparator_test.go)', () => {
  const v1 = (verbs: string[], resources: string[], resourceNames?: string[]): PolicyRule => ({ apiGroups: ['v1'], verbs, resources, ...(resourceNames ? { resourceNames } : {}) });
  const rows: { name: string; owner: PolicyRule[]; servant: PolicyRule[]; covered: boolean; missing: PolicyRule[] }[] = [
    { name: 'ExactMatch', owner: [v1(['get'], ['builds'])], servant: [v1(['get'], ['builds'])], covered: true, missing: [] },
    { name: 'SubresourceWildcard', owner: [v1(['get'], ['*/scale'])], servant: [v1(['get'], ['foo/scale'])], covered: true, missing: [] },
    {
      name: 'MultipleRulesCoveringSingleRule',
      owner: [v1(['delete'], ['deployments']), v1(['delete'], ['builds']), v1(['update'], ['builds', 'deployments'])],
      servant: [v1(['delete', 'update'], ['builds', 'deployments'])],
      covered: true,
      missing: [],
    },
    {
      name: 'MultipleAPIGroupsCoveringSingleRule',
      owner: ['group1', 'group2'].flatMap((g) => [
        { apiGroups: [g], verbs: ['delete'], resources: ['deployments'] },
        { apiGroups: [g], verbs: ['delete'], resources: ['builds'] },
        { apiGroups: [g], verbs: ['update'], resources: ['builds', 'deployments'] },
      ]),
      servant: [{ apiGroups: ['group1', 'group2'], verbs: ['delete', 'update'], resources: ['builds', 'deployments'] }],
      covered: true,
      missing: [],
    },
    {
      name: 'SingleAPIGroupsCoveringMultiple',
      owner: [{ apiGroups: ['group1', 'group2'], verbs: ['delete', 'update'], resources: ['builds', 'deployments'] }],
      servant: ['group1', 'group2'].flatMap((g) => [
        { apiGroups: [g], verbs: ['delete'], resources: ['deployments'] },
        { apiGroups: [g], verbs: ['delete'], resources: ['builds'] },
        { apiGroups: [g], verbs: ['update'], resources: ['builds', 'deployments'] },
      ]),
      covered: true,
      missing: [],
    },
    {
      name: 'MultipleRulesMissingSingleVerbResourceCombination',
      owner: [v1(['delete', 'update'], ['builds', 'deployments']), v1(['delete'], ['pods'])],
      servant: [v1(['delete', 'update'], ['builds', 'deployments', 'pods'])],
      covered: false,
      missing: [v1(['update'], ['pods'])],
    },
    { name: 'APIGroupStarCoveringMultiple', owner: [{ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] }], servant: [{ apiGroups: ['group1', 'group2'], verbs: ['get'], resources: ['roles'] }], covered: true, missing: [] },
    {
      name: 'EnumerationNotCoveringAPIGroupStar',
      owner: [{ apiGroups: ['dummy-group'], verbs: ['get'], resources: ['roles'] }],
      servant: [{ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] }],
      covered: false,
      missing: [{ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] }],
    },
    { name: 'APIGroupStarCoveringStar', owner: [{ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] }], servant: [{ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] }], covered: true, missing: [] },
    { name: 'VerbStarCoveringMultiple', owner: [v1(['*'], ['roles'])], servant: [v1(['watch', 'list'], ['roles'])], covered: true, missing: [] },
    { name: 'EnumerationNotCoveringVerbStar', owner: [v1(['get', 'list', 'watch', 'create', 'update', 'delete', 'exec'], ['roles'])], servant: [v1(['*'], ['roles'])], covered: false, missing: [v1(['*'], ['roles'])] },
    { name: 'VerbStarCoveringStar', owner: [v1(['*'], ['roles'])], servant: [v1(['*'], ['roles'])], covered: true, missing: [] },
    { name: 'ResourceStarCoveringMultiple', owner: [v1(['get'], ['*'])], servant: [v1(['get'], ['resourcegroup:deployments'])], covered: true, missing: [] },
    { name: 'EnumerationNotCoveringResourceStar', owner: [v1(['get'], ['roles', 'resourcegroup:deployments'])], servant: [v1(['get'], ['*'])], covered: false, missing: [v1(['get'], ['*'])] },
    { name: 'ResourceStarCoveringStar', owner: [v1(['get'], ['*'])], servant: [v1(['get'], ['*'])], covered: true, missing: [] },
    { name: 'ResourceNameEmptyCoveringMultiple', owner: [v1(['get'], ['pods'], [])], servant: [v1(['get'], ['pods'], ['foo', 'bar'])], covered: true, missing: [] },
    { name: 'EnumerationNotCoveringResourceNameEmpty', owner: [v1(['get'], ['pods'], ['foo', 'bar'])], servant: [v1(['get'], ['pods'], [])], covered: false, missing: [v1(['get'], ['pods'])] },
    { name: 'NonResourceURLs', owner: [{ nonResourceURLs: ['/apis'], verbs: ['*'] }], servant: [{ nonResourceURLs: ['/apis'], verbs: ['*'] }], covered: true, missing: [] },
    { name: 'NonResourceURLsStar', owner: [{ nonResourceURLs: ['*'], verbs: ['*'] }], servant: [{ nonResourceURLs: ['/apis', '/apis/v1', '/'], verbs: ['*'] }], covered: true, missing: [] },
    {
      name: 'NonResourceURLsStarAfterPrefixDoesntCover',
      owner: [{ nonResourceURLs: ['/apis/*'], verbs: ['*'] }],
      servant: [{ nonResourceURLs: ['/apis', '/apis/v1'], verbs: ['get'] }],
      covered: false,
      missing: [{ nonResourceURLs: ['/apis'], verbs: ['get'] }],
    },
    { name: 'NonResourceURLsStarAfterPrefix', owner: [{ nonResourceURLs: ['/apis/*'], verbs: ['*'] }], servant: [{ nonResourceURLs: ['/apis/v1/foo', '/apis/v1'], verbs: ['get'] }], covered: true, missing: [] },
    {
      name: 'NonResourceURLsWithOtherFields',
      owner: [{ ...v1(['get'], ['builds']), nonResourceURLs: ['/apis'] }],
      servant: [{ ...v1(['get'], ['builds']), nonResourceURLs: ['/apis'] }],
      covered: true,
      missing: [],
    },
    { name: 'NonResourceURLsWithOtherFieldsFailure', owner: [v1(['get'], ['builds'])], servant: [{ ...v1(['get'], ['builds']), nonResourceURLs: ['/apis'] }], covered: false, missing: [{ nonResourceURLs: ['/apis'], verbs: ['get'] }] },
  ];
  const norm = (rs: PolicyRule[]) => rs.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([, v]) => !(Array.isArray(v) && v.length === 0)).sort()))).sort();
  for (const r of rows) {
    test(`Covers${r.name}`, () => {
      const got = covers(r.owner, r.servant);
      assert.equal(got.covered, r.covered);
      assert.deepEqual(norm(got.missing), norm(r.missing));
    });
  }

  // TestNonResourceURLCovers: one owner URL against one requested URL.
  const urlRows: [string, string, boolean][] = [
    ['*', '', true], ['*', '/', true], ['*', '/api', true], ['/*', '', false], ['/*', '/', true], ['/*', '/foo', true], ['/api', '/api', true],
    ['/apis', '/api', false], ['/api/v1', '/api', false], ['/api/v1', '/api/v1', true], ['/api/*', '/api/v1', true], ['/api/*', '/api', false],
    ['/api/*/*', '/api/v1', false], ['/*/v1/*', '/api/v1', false],
  ];
  for (const [owner, requested, want] of urlRows) {
    test(`NonResourceURLCovers(${JSON.stringify(owner)}, ${JSON.stringify(requested)}) is ${want}`, () => {
      assert.equal(covers([{ verbs: ['get'], nonResourceURLs: [owner] }], [{ verbs: ['get'], nonResourceURLs: [requested] }]).covered, want);
    });
  }
});

describe('compactRules and compactString (the escalation message\'s lines)', () => {
  test('one-group one-resource rules that differ only by verb are merged', () => {
    const got = compactRules([
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
      { apiGroups: [''], resources: ['pods'], resourceNames: ['a'], verbs: ['get'] },
      { nonResourceURLs: ['/x'], verbs: ['get'] },
    ]).map(compactString).sort();
    assert.deepEqual(got, [
      '{APIGroups:[""], Resources:["pods"], ResourceNames:["a"], Verbs:["get"]}',
      '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
      '{NonResourceURLs:["/x"], Verbs:["get"]}',
    ]);
  });
  test('compactString leaves empty parts out and quotes as Go does', () => {
    assert.equal(compactString({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }), '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}');
    assert.equal(compactString({ verbs: ['get'], nonResourceURLs: ['/a"b'] }), '{NonResourceURLs:["/a\\"b"], Verbs:["get"]}');
  });
});
