// The shape of a Pod Security check, as upstream `policy/checks.go` defines it: an ID, the level it
// belongs to, and versioned variants, each a pure function of the pod's metadata and spec.

import type { Level, Version } from './levels.js';
import type { PodMetadataInput, PodSpecInput } from './podfields.js';

export type CheckID = string;

export interface CheckResult {
  readonly allowed: boolean;
  /** Short reason, e.g. `runAsNonRoot != true`; empty when allowed. */
  readonly forbiddenReason: string;
  /** Detail, e.g. `pod or container "a" must set securityContext.runAsNonRoot=true`. */
  readonly forbiddenDetail: string;
}

export type CheckPodFn = (podMetadata: PodMetadataInput, podSpec: PodSpecInput) => CheckResult;

export interface VersionedCheck {
  /** The first policy version this variant applies to (a pinned version, never `latest`). */
  readonly minimumVersion: Version;
  readonly checkPod: CheckPodFn;
  /** Baseline check IDs this (restricted) variant replaces while it is active. */
  readonly overrideCheckIDs?: readonly CheckID[];
}

export interface Check {
  readonly id: CheckID;
  /** `baseline` or `restricted` (a registry rejects anything else). */
  readonly level: Level;
  /** Variants in strictly increasing minimumVersion order. */
  readonly versions: readonly VersionedCheck[];
}

export const ALLOWED: CheckResult = Object.freeze({ allowed: true, forbiddenReason: '', forbiddenDetail: '' });

export function forbidden(reason: string, detail: string): CheckResult {
  return { allowed: false, forbiddenReason: reason, forbiddenDetail: detail };
}
