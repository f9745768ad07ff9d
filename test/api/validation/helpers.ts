// Shared fixtures for the validation tables: a valid, defaulted pod to mutate, and the rendering
// every row asserts against ([type, errorString] pairs, in order).

import assert from 'node:assert/strict';
import { errorString, type FieldError, type FieldErrorType } from '../../../src/api/fielderrors.js';
import type { Container, Pod } from '../../../src/api/types.js';

export type Want = [FieldErrorType, string][];

export const allGates: Readonly<{ ContainerOOMKillMode: boolean; ContainerUlimits: boolean; PodLevelResources: boolean; InPlacePodVerticalScaling: boolean }> =
  Object.freeze({
    ContainerOOMKillMode: true,
    ContainerUlimits: true,
    PodLevelResources: true,
    InPlacePodVerticalScaling: true,
  });

export function container(name = 'c', extra: Partial<Container> = {}): Container {
  return { name, image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', resources: {}, ...extra };
}

/** A pod that passes validation, shaped as it is after API defaulting. */
export function basePod(): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      containers: [container()],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  };
}

/** The pod after `mutate` changed a fresh copy of basePod(). */
export function podWith(mutate: (p: Pod) => void): Pod {
  const p = basePod();
  mutate(p);
  return p;
}

export function render(errs: readonly FieldError[]): Want {
  return errs.map((e) => [e.type, errorString(e)]);
}

export function assertErrors(errs: readonly FieldError[], want: Want): void {
  assert.deepEqual(render(errs), want);
}
