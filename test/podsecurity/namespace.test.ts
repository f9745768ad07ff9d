// Namespace label policy: parsing, defaults, warn defaulting from enforce, fail-closed/fail-open
// handling of bad values, label validation messages, and the admission texts built from them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorString, invalidMessage } from '../../src/api/fielderrors.js';
import {
  aggregateFieldErrors, DEFAULT_POLICY, enforcePolicyAnnotation, exemptNamespaceWarning, formatLevelVersion, isFullyPrivileged,
  parseLevel, parseVersion, policyErrorAnnotation, policyToEvaluate, resolveDefaults, validateNamespaceLabels,
  validateNamespaceLabelsUpdate, validatePodSecurityDefaults, type Policy, type PodSecurityDefaults,
  LEVELS, levelVersion, levelVersionEquivalent, type LevelVersion,
} from '../../src/podsecurity/index.js';

const P = 'pod-security.kubernetes.io/';
const LEVEL_MSG = 'must be one of privileged, baseline, restricted';
const VERSION_MSG = 'must be "latest" or "v1.x"';

/** `enforce=…, audit=…, warn=…` for compact expectations. */
const show = (p: Policy) => `enforce=${formatLevelVersion(p.enforce)}, audit=${formatLevelVersion(p.audit)}, warn=${formatLevelVersion(p.warn)}`;

// ---------------------------------------------------------------------------------------------
// Parsers.

const levelRows: [unknown, string, string | undefined][] = [
  ['privileged', 'privileged', undefined], ['baseline', 'baseline', undefined], ['restricted', 'restricted', undefined],
  ['Restricted', 'restricted', LEVEL_MSG], ['', 'restricted', LEVEL_MSG], ['foo', 'restricted', LEVEL_MSG], [5, 'restricted', LEVEL_MSG],
  [undefined, 'restricted', LEVEL_MSG],
];
for (const [input, level, error] of levelRows) {
  test(`parseLevel(${JSON.stringify(input)}) → ${level}${error ? ' with error (fails closed)' : ''}`, () => {
    assert.deepEqual(parseLevel(input), error ? { level, error } : { level });
  });
}

const versionRows: [unknown, string | undefined][] = [
  ['latest', 'latest'], ['v1.0', 'v1.0'], ['v1.1', 'v1.1'], ['v1.20', 'v1.20'], ['v1.25', 'v1.25'], ['v1.37', 'v1.37'], ['v1.99', 'v1.99'], ['v1.10000', 'v1.10000'],
  ['v1.9223372036854775807', 'v1.9223372036854776000'], // parses (Go int64 max); JS number precision limits the printed form
  ['v1.9223372036854775808', undefined], ['v1.05', undefined], ['v1.', undefined], ['1.25', undefined], ['v2.0', undefined],
  ['v1.2.3', undefined], ['Latest', undefined], ['', undefined], [' v1.2', undefined], ['v1.2\n', undefined], ['v1.-1', undefined],
  [1.25, undefined], [null, undefined],
  ['foo', undefined], ['v1', undefined], ['1.1', undefined], // with '', 'v2.0' and v1.10000 above: upstream api/helpers_test.go TestParseVersion
];
for (const [input, expect] of versionRows) {
  test(`parseVersion(${JSON.stringify(input)}) → ${expect ?? 'error, latest'}`, () => {
    const r = parseVersion(input);
    if (expect === undefined) {
      assert.deepEqual(r, { version: 'latest', error: VERSION_MSG });
    } else {
      assert.equal(r.error, undefined);
      assert.equal(formatLevelVersion({ level: 'baseline', version: r.version }), `baseline:${expect}`);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// policyToEvaluate.

interface PolicyRow {
  name: string;
  labels: unknown;
  defaults?: PodSecurityDefaults;
  expect: string;
  errors?: string[];
}

const policyRows: PolicyRow[] = [
  { name: 'no labels: defaults privileged:latest everywhere', labels: undefined, expect: 'enforce=privileged:latest, audit=privileged:latest, warn=privileged:latest' },
  { name: 'empty labels: defaults', labels: {}, expect: 'enforce=privileged:latest, audit=privileged:latest, warn=privileged:latest' },
  { name: 'labels not an object: defaults, no errors', labels: 'enforce=restricted', expect: 'enforce=privileged:latest, audit=privileged:latest, warn=privileged:latest' },
  { name: 'unrelated labels ignored', labels: { app: 'x', [`${P}other`]: 'restricted' }, expect: 'enforce=privileged:latest, audit=privileged:latest, warn=privileged:latest' },
  { name: 'enforce=baseline alone also warns at baseline', labels: { [`${P}enforce`]: 'baseline' },
    expect: 'enforce=baseline:latest, audit=privileged:latest, warn=baseline:latest' },
  { name: 'warn takes the enforce version with the enforce level', labels: { [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.30' },
    expect: 'enforce=restricted:v1.30, audit=privileged:latest, warn=restricted:v1.30' },
  { name: 'warn-version label keeps its own version while the level defaults from enforce',
    labels: { [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.30', [`${P}warn-version`]: 'v1.25' },
    expect: 'enforce=restricted:v1.30, audit=privileged:latest, warn=restricted:v1.25' },
  { name: 'explicit warn label is kept even if more lenient', labels: { [`${P}enforce`]: 'restricted', [`${P}warn`]: 'privileged' },
    expect: 'enforce=restricted:latest, audit=privileged:latest, warn=privileged:latest' },
  { name: 'invalid warn label still counts as set (no defaulting from enforce), fails open', labels: { [`${P}enforce`]: 'restricted', [`${P}warn`]: 'bogus' },
    expect: 'enforce=restricted:latest, audit=privileged:latest, warn=privileged:latest', errors: [`metadata.labels[${P}warn]: Invalid value: "bogus": ${LEVEL_MSG}`] },
  { name: 'enforce not stricter than default warn: warn unchanged', labels: { [`${P}enforce`]: 'baseline' }, defaults: { warn: 'restricted', 'warn-version': 'v1.20' },
    expect: 'enforce=baseline:latest, audit=privileged:latest, warn=restricted:v1.20' },
  { name: 'enforce stricter than default warn: warn raised', labels: { [`${P}enforce`]: 'restricted' }, defaults: { warn: 'baseline' },
    expect: 'enforce=restricted:latest, audit=privileged:latest, warn=restricted:latest' },
  { name: 'bad enforce fails closed to restricted and does not default warn',
    labels: { [`${P}enforce`]: 'foo' }, expect: 'enforce=restricted:latest, audit=privileged:latest, warn=privileged:latest',
    errors: [`metadata.labels[${P}enforce]: Invalid value: "foo": ${LEVEL_MSG}`] },
  { name: 'bad audit fails open to privileged', labels: { [`${P}audit`]: 'foo' }, defaults: { audit: 'baseline' },
    expect: 'enforce=privileged:latest, audit=privileged:latest, warn=privileged:latest',
    errors: [`metadata.labels[${P}audit]: Invalid value: "foo": ${LEVEL_MSG}`] },
  { name: 'bad warn fails open to privileged', labels: { [`${P}warn`]: 'Restricted' },
    expect: 'enforce=privileged:latest, audit=privileged:latest, warn=privileged:latest',
    errors: [`metadata.labels[${P}warn]: Invalid value: "Restricted": ${LEVEL_MSG}`] },
  { name: 'bad version becomes latest (enforce level still applies and defaults warn)',
    labels: { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.05' }, defaults: { 'enforce-version': 'v1.20' },
    expect: 'enforce=baseline:latest, audit=privileged:latest, warn=baseline:latest',
    errors: [`metadata.labels[${P}enforce-version]: Invalid value: "v1.05": ${VERSION_MSG}`] },
  { name: 'version label without level pins the default level\'s version', labels: { [`${P}enforce-version`]: 'v1.25' },
    expect: 'enforce=privileged:v1.25, audit=privileged:latest, warn=privileged:latest' },
  { name: 'version label without level pins a configured default level', labels: { [`${P}audit-version`]: 'v1.25' }, defaults: { audit: 'restricted' },
    expect: 'enforce=privileged:latest, audit=restricted:v1.25, warn=privileged:latest' },
  { name: 'defaults apply when no labels; warn is not derived from a default enforce', labels: {}, defaults: { enforce: 'baseline', 'enforce-version': 'v1.29' },
    expect: 'enforce=baseline:v1.29, audit=privileged:latest, warn=privileged:latest' },
  { name: 'all six labels, errors in label order', labels: {
    [`${P}warn-version`]: 'v9', [`${P}warn`]: 'w', [`${P}audit-version`]: 'x', [`${P}audit`]: 'a', [`${P}enforce-version`]: 'y', [`${P}enforce`]: 'e' },
    expect: 'enforce=restricted:latest, audit=privileged:latest, warn=privileged:latest',
    errors: [
      `metadata.labels[${P}enforce]: Invalid value: "e": ${LEVEL_MSG}`, `metadata.labels[${P}enforce-version]: Invalid value: "y": ${VERSION_MSG}`,
      `metadata.labels[${P}audit]: Invalid value: "a": ${LEVEL_MSG}`, `metadata.labels[${P}audit-version]: Invalid value: "x": ${VERSION_MSG}`,
      `metadata.labels[${P}warn]: Invalid value: "w": ${LEVEL_MSG}`, `metadata.labels[${P}warn-version]: Invalid value: "v9": ${VERSION_MSG}`,
    ] },
  { name: 'non-string label values are read as text and rejected', labels: { [`${P}enforce`]: 5, [`${P}enforce-version`]: 1.25 },
    expect: 'enforce=restricted:latest, audit=privileged:latest, warn=privileged:latest',
    errors: [`metadata.labels[${P}enforce]: Invalid value: "5": ${LEVEL_MSG}`, `metadata.labels[${P}enforce-version]: Invalid value: "1.25": ${VERSION_MSG}`] },
  { name: 'null label value is "" (present, invalid)', labels: { [`${P}enforce`]: null },
    expect: 'enforce=restricted:latest, audit=privileged:latest, warn=privileged:latest',
    errors: [`metadata.labels[${P}enforce]: Invalid value: "": ${LEVEL_MSG}`] },
];

for (const row of policyRows) {
  test(`policyToEvaluate: ${row.name}`, () => {
    const { policy, errors } = policyToEvaluate(row.labels, row.defaults);
    assert.equal(show(policy), row.expect);
    assert.deepEqual(errors.map(errorString), row.errors ?? []);
  });
}

// Upstream api/helpers_test.go TestPolicyToEvaluate: its cases as rows (its makeLabels always adds an
// unrelated `other-label`; defaults are privileged:latest for every mode). Upstream only asserts
// that an error occurred; the rows pin the error text too.
const upstreamLabels = (kvs: Record<string, string>): Record<string, string> =>
  Object.fromEntries([['other-label', 'foo-bar'], ...Object.entries(kvs).map(([k, v]) => [P + k, v])]);
const upstreamPolicyRows: PolicyRow[] = [
  { name: 'simple enforce', labels: upstreamLabels({ enforce: 'baseline' }), expect: 'enforce=baseline:latest, audit=privileged:latest, warn=baseline:latest' },
  { name: 'simple warn', labels: upstreamLabels({ warn: 'restricted' }), expect: 'enforce=privileged:latest, audit=privileged:latest, warn=restricted:latest' },
  { name: 'simple audit', labels: upstreamLabels({ audit: 'baseline' }), expect: 'enforce=privileged:latest, audit=baseline:latest, warn=privileged:latest' },
  { name: 'enforce & warn', labels: upstreamLabels({ enforce: 'baseline', warn: 'restricted' }),
    expect: 'enforce=baseline:latest, audit=privileged:latest, warn=restricted:latest' },
  { name: 'enforce version', labels: upstreamLabels({ enforce: 'baseline', 'enforce-version': 'v1.22' }),
    expect: 'enforce=baseline:v1.22, audit=privileged:latest, warn=baseline:v1.22' },
  { name: 'enforce version & warn-version', labels: upstreamLabels({ enforce: 'baseline', 'enforce-version': 'v1.22', 'warn-version': 'latest' }),
    expect: 'enforce=baseline:v1.22, audit=privileged:latest, warn=baseline:latest' },
  { name: 'enforce & warn-version', labels: upstreamLabels({ enforce: 'baseline', 'warn-version': 'v1.23' }),
    expect: 'enforce=baseline:latest, audit=privileged:latest, warn=baseline:v1.23' },
  { name: 'fully specd', labels: upstreamLabels({ enforce: 'baseline', 'enforce-version': 'v1.20', warn: 'restricted', 'warn-version': 'v1.21',
    audit: 'restricted', 'audit-version': 'v1.22' }), expect: 'enforce=baseline:v1.20, audit=restricted:v1.22, warn=restricted:v1.21' },
  { name: 'enforce no warn', labels: upstreamLabels({ enforce: 'baseline', warn: 'privileged' }),
    expect: 'enforce=baseline:latest, audit=privileged:latest, warn=privileged:latest' },
  { name: 'enforce warn error', labels: upstreamLabels({ enforce: 'baseline', warn: 'foo' }),
    expect: 'enforce=baseline:latest, audit=privileged:latest, warn=privileged:latest', errors: [`metadata.labels[${P}warn]: Invalid value: "foo": ${LEVEL_MSG}`] },
  { name: 'enforce error', labels: upstreamLabels({ enforce: 'foo' }),
    expect: 'enforce=restricted:latest, audit=privileged:latest, warn=privileged:latest', errors: [`metadata.labels[${P}enforce]: Invalid value: "foo": ${LEVEL_MSG}`] },
];
for (const row of upstreamPolicyRows) {
  test(`upstream api/helpers_test.go TestPolicyToEvaluate/"${row.name}"`, () => {
    const { policy, errors } = policyToEvaluate(row.labels, DEFAULT_POLICY);
    assert.equal(show(policy), row.expect);
    assert.deepEqual(errors.map(errorString), row.errors ?? []);
  });
}

// Upstream api/helpers_test.go TestLevelVersionEquals and TestPolicyEquals.
const lvEquivRows: [string, LevelVersion, LevelVersion, boolean][] = [
  ...LEVELS.flatMap((l) => (['latest', 'v1.18', 'v1.30'] as const).map((v): [string, LevelVersion, LevelVersion, boolean] =>
    [`a LevelVersion should be equal to itself (${l}:${v})`, levelVersion(l, v), levelVersion(l, v), true])),
  ...LEVELS.flatMap((l1) => LEVELS.filter((l2) => l2 !== l1).map((l2): [string, LevelVersion, LevelVersion, boolean] =>
    [`different levels should not be equal (${l1} vs ${l2})`, levelVersion(l1), levelVersion(l2), false])),
  ...(['baseline', 'restricted'] as const).flatMap((l) => ['latest', 'v1.18', 'v1.30'].flatMap((a) => ['v1.16', 'v1.13'].map(
    (b): [string, LevelVersion, LevelVersion, boolean] => [`different non-privileged versions should not be equal (${l}:${a} vs ${b})`, levelVersion(l, a), levelVersion(l, b), false]))),
  ...['latest', 'v1.18', 'v1.30'].flatMap((a) => ['v1.16', 'v1.13'].map(
    (b): [string, LevelVersion, LevelVersion, boolean] => [`different privileged versions should be equal (${a} vs ${b})`, levelVersion('privileged', a), levelVersion('privileged', b), true])),
];
for (const [name, a, b, expect] of lvEquivRows) {
  test(`upstream api/helpers_test.go TestLevelVersionEquals/"${name}"`, () => assert.equal(levelVersionEquivalent(a, b), expect));
}

test('upstream api/helpers_test.go TestPolicyEquals: FullyPrivileged ignores versions; a baseline audit is not fully privileged', () => {
  const privileged = DEFAULT_POLICY;
  const privileged2: Policy = { ...privileged, enforce: levelVersion('privileged', 'v1.20') };
  const baseline: Policy = { ...privileged, audit: levelVersion('baseline') };
  assert.equal(isFullyPrivileged(privileged), true);
  assert.equal(isFullyPrivileged(privileged2), true);
  assert.equal(isFullyPrivileged(baseline), false);
  // Policy.Equivalent is mode-by-mode LevelVersion.Equivalent (exemptNamespaceWarning's "equal to the defaults" test).
  assert.equal(exemptNamespaceWarning('ns1', privileged2, { [`${P}enforce-version`]: 'v1.20' }, privileged), '');
  assert.equal(exemptNamespaceWarning('ns1', baseline, { [`${P}audit`]: 'baseline' }, baseline), '');
  assert.equal(exemptNamespaceWarning('ns1', baseline, { [`${P}audit`]: 'baseline' }, privileged),
    'namespace "ns1" is exempt from Pod Security, and the policy (audit=baseline:latest) will be ignored');
});

test('policyToEvaluate: accepts a resolved Policy as defaults and never mutates it', () => {
  const defaults = resolveDefaults({ enforce: 'baseline', warn: 'baseline' });
  const before = show(defaults);
  const { policy } = policyToEvaluate({ [`${P}enforce`]: 'restricted' }, defaults);
  assert.equal(show(policy), 'enforce=restricted:latest, audit=privileged:latest, warn=restricted:latest');
  assert.equal(show(defaults), before);
  assert.equal(show(DEFAULT_POLICY), 'enforce=privileged:latest, audit=privileged:latest, warn=privileged:latest');
});

test('isFullyPrivileged: only when all three modes are privileged', () => {
  assert.equal(isFullyPrivileged(policyToEvaluate({ [`${P}enforce-version`]: 'v1.2' }).policy), true);
  assert.equal(isFullyPrivileged(policyToEvaluate({ [`${P}audit`]: 'baseline' }).policy), false);
});

// ---------------------------------------------------------------------------------------------
// Validation messages.

test('validateNamespaceLabels: the exact 422 message for a bad enforce label', () => {
  const errs = validateNamespaceLabels({ [`${P}enforce`]: 'foo' });
  assert.equal(invalidMessage('Namespace', 'ns1', errs),
    'Namespace "ns1" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "foo": must be one of privileged, baseline, restricted');
  assert.equal(errs[0]!.field, 'metadata.labels[pod-security.kubernetes.io/enforce]');
  assert.equal(errs[0]!.type, 'FieldValueInvalid');
  assert.equal(errs[0]!.badValue, 'foo');
});

test('validateNamespaceLabels: several bad labels are listed in brackets', () => {
  const errs = validateNamespaceLabels({ [`${P}enforce`]: 'foo', [`${P}warn-version`]: '1.25' });
  assert.equal(invalidMessage('Namespace', 'ns1', errs),
    'Namespace "ns1" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "foo": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.25": must be "latest" or "v1.x"]');
});

test('validateNamespaceLabels: valid labels and no labels give no errors', () => {
  assert.deepEqual(validateNamespaceLabels({ [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.99', [`${P}audit`]: 'baseline',
    [`${P}audit-version`]: 'latest', [`${P}warn`]: 'privileged', [`${P}warn-version`]: 'v1.0' }), []);
  assert.deepEqual(validateNamespaceLabels(undefined), []);
});

const updateRows: [string, unknown, unknown, number][] = [
  ['update: valid new labels accepted', { [`${P}enforce`]: 'baseline' }, { [`${P}enforce`]: 'foo' }, 0],
  ['update: newly invalid labels rejected', { [`${P}enforce`]: 'foo' }, { [`${P}enforce`]: 'baseline' }, 1],
  ['update: unchanged invalid labels tolerated', { [`${P}enforce`]: 'foo', app: 'x' }, { [`${P}enforce`]: 'foo' }, 0],
  ['update: differently invalid labels rejected', { [`${P}enforce`]: 'bar' }, { [`${P}enforce`]: 'foo' }, 1],
  ['update: an added bad label on an invalid namespace rejected', { [`${P}enforce`]: 'foo', [`${P}audit`]: 'x' }, { [`${P}enforce`]: 'foo' }, 2],
];
for (const [name, newLabels, oldLabels, count] of updateRows) {
  test(`validateNamespaceLabelsUpdate ${name}`, () => assert.equal(validateNamespaceLabelsUpdate(newLabels, oldLabels).length, count));
}

test('validatePodSecurityDefaults: errors on defaults.* in upstream order (enforce, warn, audit)', () => {
  const errs = validatePodSecurityDefaults({ audit: 'x', 'warn-version': 'v2.0', enforce: 'bogus' });
  assert.deepEqual(errs.map(errorString), [
    `defaults.enforce: Invalid value: "bogus": ${LEVEL_MSG}`,
    `defaults.warn-version: Invalid value: "v2.0": ${VERSION_MSG}`,
    `defaults.audit: Invalid value: "x": ${LEVEL_MSG}`,
  ]);
  assert.deepEqual(validatePodSecurityDefaults(undefined), []);
  assert.deepEqual(validatePodSecurityDefaults({ enforce: '', 'enforce-version': '' }), []);
});

test('resolveDefaults: empty entries default to privileged/latest; bad entries resolve like bad labels', () => {
  assert.equal(show(resolveDefaults()), 'enforce=privileged:latest, audit=privileged:latest, warn=privileged:latest');
  assert.equal(show(resolveDefaults({ enforce: 'restricted', 'enforce-version': 'v1.30', warn: '' })),
    'enforce=restricted:v1.30, audit=privileged:latest, warn=privileged:latest');
  assert.equal(show(resolveDefaults({ enforce: 'bad', audit: 'bad', warn: 'bad', 'warn-version': 'bad' })),
    'enforce=restricted:latest, audit=privileged:latest, warn=privileged:latest');
});

// ---------------------------------------------------------------------------------------------
// Texts built from the namespace policy.

test('policyErrorAnnotation: one error as is, several in brackets, duplicates dropped', () => {
  const one = policyToEvaluate({ [`${P}enforce`]: 'foo' }).errors;
  assert.equal(policyErrorAnnotation(one),
    'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "foo": must be one of privileged, baseline, restricted');
  const two = policyToEvaluate({ [`${P}enforce`]: 'foo', [`${P}audit-version`]: 'x' }).errors;
  assert.equal(aggregateFieldErrors([...two, ...two]),
    `[metadata.labels[${P}enforce]: Invalid value: "foo": ${LEVEL_MSG}, metadata.labels[${P}audit-version]: Invalid value: "x": ${VERSION_MSG}]`);
  assert.equal(aggregateFieldErrors([]), '');
});

test('enforcePolicyAnnotation: the applied level:version', () => {
  assert.equal(enforcePolicyAnnotation(policyToEvaluate({ [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.30' }).policy.enforce), 'baseline:v1.30');
  assert.equal(enforcePolicyAnnotation(policyToEvaluate({}).policy.enforce), 'privileged:latest');
});

const exemptRows: [string, Record<string, string>, string][] = [
  ['exempt namespace warning lists non-privileged modes whose labels are present', { [`${P}enforce`]: 'restricted' },
    'namespace "ns1" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored'],
  ['exempt namespace warning: audit and warn labels', { [`${P}audit`]: 'baseline', [`${P}warn`]: 'restricted', [`${P}warn-version`]: 'v1.30' },
    'namespace "ns1" is exempt from Pod Security, and the policy (audit=baseline:latest, warn=restricted:v1.30) will be ignored'],
  ['exempt namespace warning: none for a fully privileged policy', { [`${P}enforce`]: 'privileged', [`${P}enforce-version`]: 'v1.5' }, ''],
  ['exempt namespace warning: none without PSA labels', { app: 'x' }, ''],
];
for (const [name, labels, expect] of exemptRows) {
  test(name, () => {
    const { policy } = policyToEvaluate(labels);
    assert.equal(exemptNamespaceWarning('ns1', policy, labels), expect);
  });
}

test('exempt namespace warning: none when the labels select exactly the configured defaults', () => {
  const defaults = resolveDefaults({ enforce: 'baseline', warn: 'baseline' });
  const labels = { [`${P}enforce`]: 'baseline' };
  assert.equal(exemptNamespaceWarning('ns1', policyToEvaluate(labels, defaults).policy, labels, defaults), '');
  // Against the built-in defaults the same labels differ (enforce and the derived warn are baseline).
  assert.equal(exemptNamespaceWarning('ns1', policyToEvaluate(labels).policy, labels),
    'namespace "ns1" is exempt from Pod Security, and the policy (enforce=baseline:latest) will be ignored');
});

// Upstream admission/admission_test.go TestExemptNamespaceWarning: the namespace is named after the
// case, an unrelated sentinel label is always present (and never printed), defaults are
// privileged:latest unless the row gives baseline:v1.23 for every mode. Upstream checks a
// substring; the rows pin the whole text.
const baselineV123: Policy = { enforce: levelVersion('baseline', 'v1.23'), audit: levelVersion('baseline', 'v1.23'), warn: levelVersion('baseline', 'v1.23') };
const upstreamExemptRows: [string, Record<string, string>, Policy, string][] = [
  ['empty-case', {}, DEFAULT_POLICY, ''],
  ['ignore-privileged', { [`${P}enforce`]: 'privileged', [`${P}enforce-version`]: 'v1.24', [`${P}warn-version`]: 'v1.25' }, DEFAULT_POLICY, ''],
  ['warn-on-enforce', { [`${P}enforce`]: 'baseline' }, DEFAULT_POLICY,
    'namespace "warn-on-enforce" is exempt from Pod Security, and the policy (enforce=baseline:latest) will be ignored'],
  ['warn-on-warn', { [`${P}warn`]: 'baseline' }, DEFAULT_POLICY,
    'namespace "warn-on-warn" is exempt from Pod Security, and the policy (warn=baseline:latest) will be ignored'],
  ['warn-on-audit', { [`${P}audit`]: 'restricted' }, DEFAULT_POLICY,
    'namespace "warn-on-audit" is exempt from Pod Security, and the policy (audit=restricted:latest) will be ignored'],
  ['ignore-default-policy', {}, baselineV123, ''],
  ['warn-versions-default-policy', { [`${P}warn-version`]: 'latest' }, baselineV123,
    'namespace "warn-versions-default-policy" is exempt from Pod Security, and the policy (warn=baseline:latest) will be ignored'],
];
for (const [name, podSecurityLabels, defaults, expect] of upstreamExemptRows) {
  test(`upstream admission/admission_test.go TestExemptNamespaceWarning/${name}`, () => {
    const labels = { ...podSecurityLabels, qqincegidneocgu: 'vpmxkpcjphxrcpx' };
    const { policy, errors } = policyToEvaluate(labels, defaults);
    assert.deepEqual(errors, []);
    assert.equal(exemptNamespaceWarning(name, policy, labels, defaults), expect);
  });
}
