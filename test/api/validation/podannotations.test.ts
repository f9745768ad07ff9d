// The pod-specific annotations (src/api/validation/podannotations.ts, upstream's
// ValidatePodSpecificAnnotations): the mirror-pod and pod-deletion-cost rows of upstream's
// TestValidatePod (validation_test.go), and the annotation rules as a pod template gets them
// (ValidatePodTemplateSpec: at `<template>.annotations`, and the create-time match rules).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsePodDeletionCost } from '../../../src/api/poddeletioncost.js';
import type { Pod, PodTemplateSpec } from '../../../src/api/types.js';
import { validatePodCreate, validatePodTemplateSpec } from '../../../src/api/validation/index.js';
import { FieldPath } from '../../../src/api/fielderrors.js';
import { allGates, assertErrors, container, podWith, type Want } from './helpers.js';

const COST = 'controller.kubernetes.io/pod-deletion-cost';
const MIRROR = 'kubernetes.io/config.mirror';

describe('pod-specific annotations in validatePodCreate', () => {
  const annotated = (a: Record<string, string>, mutate: (p: Pod) => void = () => {}) =>
    podWith((p) => {
      p.metadata.annotations = a;
      mutate(p);
    });
  const rows: { name: string; pod: Pod; want: Want }[] = [
    { name: 'negative pod-deletion-cost', pod: annotated({ [COST]: '-100' }), want: [] },
    { name: 'positive pod-deletion-cost', pod: annotated({ [COST]: '100' }), want: [] },
    { name: 'invalid pod-deletion-cost', pod: annotated({ [COST]: 'text' }), want: [['FieldValueInvalid', `metadata.annotations[${COST}]: Invalid value: "text": must be a 32bit integer`]] },
    { name: 'invalid leading zeros pod-deletion-cost', pod: annotated({ [COST]: '008' }), want: [['FieldValueInvalid', `metadata.annotations[${COST}]: Invalid value: "008": must be a 32bit integer`]] },
    { name: 'invalid leading plus sign pod-deletion-cost', pod: annotated({ [COST]: '+10' }), want: [['FieldValueInvalid', `metadata.annotations[${COST}]: Invalid value: "+10": must be a 32bit integer`]] },
    { name: 'a pod-deletion-cost beyond int32', pod: annotated({ [COST]: '2147483648' }), want: [['FieldValueInvalid', `metadata.annotations[${COST}]: Invalid value: "2147483648": must be a 32bit integer`]] },
    { name: 'mirror-pod present without nodeName', pod: annotated({ [MIRROR]: '' }), want: [['FieldValueInvalid', `metadata.annotations[${MIRROR}]: Invalid value: "": must set spec.nodeName if mirror pod annotation is set`]] },
    { name: 'mirror-pod populated without nodeName', pod: annotated({ [MIRROR]: 'foo' }), want: [['FieldValueInvalid', `metadata.annotations[${MIRROR}]: Invalid value: "foo": must set spec.nodeName if mirror pod annotation is set`]] },
    { name: 'mirror-pod with a nodeName', pod: annotated({ [MIRROR]: 'foo' }, (p) => (p.spec.nodeName = 'node-1')), want: [] },
    {
      name: 'annotation errors come after the metadata ones and before the spec ones',
      pod: annotated({ 'a b': 'x', [COST]: 'x' }, (p) => (p.spec.containers[0]!.name = 'C')),
      want: [
        ['FieldValueInvalid', 'metadata.annotations: Invalid value: "a b": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')'],
        ['FieldValueInvalid', `metadata.annotations[${COST}]: Invalid value: "x": must be a 32bit integer`],
        [
          'FieldValueInvalid',
          "spec.containers[0].name: Invalid value: \"C\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        ],
      ],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});

describe('GetDeletionCostFromPodAnnotations', () => {
  const rows: [string, number | undefined][] = [
    ['0', 0],
    ['-0', 0],
    ['100', 100],
    ['-100', -100],
    ['2147483647', 2147483647],
    ['-2147483648', -2147483648],
    ['2147483648', undefined],
    ['008', undefined],
    ['+10', undefined],
    ['', undefined],
    ['-', undefined],
    ['1e3', undefined],
    [' 1', undefined],
  ];
  for (const [v, want] of rows) test(`${JSON.stringify(v)} → ${want}`, () => assert.equal(parsePodDeletionCost(v), want));
});

describe('pod templates (ValidatePodTemplateSpec)', () => {
  const path = FieldPath.root('spec').child('template');
  const tpl = (annotations: Record<string, string>, spec: Partial<PodTemplateSpec['spec']> = {}): PodTemplateSpec => ({
    metadata: { labels: { app: 'web' }, annotations },
    spec: { containers: [container()], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, ...spec },
  });
  const rows: { name: string; t: PodTemplateSpec; want: Want }[] = [
    {
      name: 'an invalid seccomp annotation, at spec.template.annotations',
      t: tpl({ 'seccomp.security.alpha.kubernetes.io/pod': 'foo' }),
      want: [['FieldValueInvalid', 'spec.template.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "foo": must be a valid seccomp profile']],
    },
    {
      name: 'an AppArmor annotation for a container the template lacks',
      t: tpl({ 'container.apparmor.security.beta.kubernetes.io/x': 'runtime/default' }),
      want: [['FieldValueInvalid', 'spec.template.annotations[container.apparmor.security.beta.kubernetes.io/x]: Invalid value: "x": container not found']],
    },
    {
      name: 'annotation and field must match in a template too, after the spec errors',
      t: tpl({ 'container.apparmor.security.beta.kubernetes.io/c': 'runtime/default' }, { securityContext: { appArmorProfile: { type: 'Unconfined' }, runAsUser: -1 } }),
      want: [
        ['FieldValueInvalid', 'spec.template.spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive'],
        ['FieldValueForbidden', 'spec.template.spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match'],
      ],
    },
    {
      name: 'a template label key error sits at spec.template.labels',
      t: { ...tpl({}), metadata: { labels: { 'a b': 'x' } } },
      want: [
        [
          'FieldValueInvalid',
          "spec.template.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ],
      ],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validatePodTemplateSpec(r.t, { gates: allGates }, path), r.want));
});
