// The check lists: upstream's nineteen checks, and Bulkhead's default list (upstream plus the
// `ulimits` check of the ulimits design). Order here does not matter; the registry orders checks
// by level and ID.

import type { Check } from '../check.js';
import { allowPrivilegeEscalationCheck } from './allowPrivilegeEscalation.js';
import { appArmorProfileCheck } from './appArmorProfile.js';
import { capabilitiesBaselineCheck } from './capabilitiesBaseline.js';
import { capabilitiesRestrictedCheck } from './capabilitiesRestricted.js';
import { hostNamespacesCheck } from './hostNamespaces.js';
import { hostPathVolumesCheck } from './hostPathVolumes.js';
import { hostPortsCheck } from './hostPorts.js';
import { hostProbesAndHostLifecycleCheck } from './hostProbesAndHostLifecycle.js';
import { privilegedCheck } from './privileged.js';
import { procMountBaselineCheck } from './procMountBaseline.js';
import { procMountRestrictedCheck } from './procMountRestricted.js';
import { restrictedVolumesCheck } from './restrictedVolumes.js';
import { runAsNonRootCheck } from './runAsNonRoot.js';
import { runAsUserCheck } from './runAsUser.js';
import { seccompProfileBaselineCheck } from './seccompProfileBaseline.js';
import { seccompProfileRestrictedCheck } from './seccompProfileRestricted.js';
import { seLinuxOptionsCheck } from './seLinuxOptions.js';
import { sysctlsCheck } from './sysctls.js';
import { ulimitsCheck } from './ulimits.js';
import { windowsHostProcessCheck } from './windowsHostProcess.js';

/** The checks of upstream pod-security-admission at master 8f84a87c7f61 (2026-07-01). */
export const UPSTREAM_CHECKS: readonly Check[] = Object.freeze([
  appArmorProfileCheck,
  capabilitiesBaselineCheck,
  hostNamespacesCheck,
  hostPathVolumesCheck,
  hostPortsCheck,
  hostProbesAndHostLifecycleCheck,
  privilegedCheck,
  procMountBaselineCheck,
  seLinuxOptionsCheck,
  seccompProfileBaselineCheck,
  sysctlsCheck,
  windowsHostProcessCheck,
  allowPrivilegeEscalationCheck,
  capabilitiesRestrictedCheck,
  procMountRestrictedCheck,
  restrictedVolumesCheck,
  runAsNonRootCheck,
  runAsUserCheck,
  seccompProfileRestrictedCheck,
]);

/** Bulkhead's checks: upstream's plus `ulimits`. */
export const DEFAULT_CHECKS: readonly Check[] = Object.freeze([...UPSTREAM_CHECKS, ulimitsCheck]);

export {
  allowPrivilegeEscalationCheck, appArmorProfileCheck, capabilitiesBaselineCheck, capabilitiesRestrictedCheck,
  hostNamespacesCheck, hostPathVolumesCheck, hostPortsCheck, hostProbesAndHostLifecycleCheck, privilegedCheck,
  procMountBaselineCheck, procMountRestrictedCheck, restrictedVolumesCheck, runAsNonRootCheck, runAsUserCheck,
  seccompProfileBaselineCheck, seccompProfileRestrictedCheck, seLinuxOptionsCheck, sysctlsCheck, ulimitsCheck,
  windowsHostProcessCheck,
};
