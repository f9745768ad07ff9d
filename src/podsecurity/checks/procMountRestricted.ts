// Restricted `procMount_restricted` (v1.35+): keeps the strict procMount rule (unset or
// `Default`) regardless of hostUsers, replacing the relaxed baseline `procMount` at restricted.
// Upstream: policy/check_procMount_restricted.go.

import type { Check } from '../check.js';
import { v1 } from '../levels.js';
import { PROC_MOUNT_ID, procMount_1_0 } from './procMountBaseline.js';

export const procMountRestrictedCheck: Check = {
  id: 'procMount_restricted',
  level: 'restricted',
  versions: [{ minimumVersion: v1(35), checkPod: procMount_1_0, overrideCheckIDs: [PROC_MOUNT_ID] }],
};
