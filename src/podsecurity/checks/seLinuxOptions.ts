// Baseline `seLinuxOptions`: pod and container seLinuxOptions.type must be empty or one of the
// container types (`container_engine_t` joins the list at v1.31); user and role must be empty.
// `level` is not checked. Upstream: policy/check_seLinuxOptions.go.

import { ALLOWED, forbidden, type Check, type CheckPodFn, type CheckResult } from '../check.js';
import { containerPhrase, joinQuote, pluralize, sortedSet } from '../format.js';
import { v1 } from '../levels.js';
import {
  containers, get, has, podSecurityContext, rec, text, type PodMetadataInput, type PodSpecInput,
} from '../podfields.js';

const allowedTypes_1_0: ReadonlySet<string> = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const allowedTypes_1_31: ReadonlySet<string> = new Set([...allowedTypes_1_0, 'container_engine_t']);

function seLinuxOptions(podSpec: PodSpecInput, allowedTypes: ReadonlySet<string>): CheckResult {
  const badSetters: string[] = [];
  const badTypes: string[] = [];
  let setUser = false;
  let setRole = false;

  // Returns whether the options are acceptable, recording what is wrong with them.
  const valid = (opts: unknown): boolean => {
    const o = rec(opts);
    let ok = true;
    const type = get(o, 'type');
    // An absent type is Go's "" (allowed); a non-string one is never an allowed type.
    if (has(type) && !(typeof type === 'string' && allowedTypes.has(type))) {
      ok = false;
      badTypes.push(text(type));
    }
    const user = get(o, 'user');
    if (has(user) && user !== '') {
      ok = false;
      setUser = true;
    }
    const role = get(o, 'role');
    if (has(role) && role !== '') {
      ok = false;
      setRole = true;
    }
    return ok;
  };

  const podOpts = get(podSecurityContext(podSpec), 'seLinuxOptions');
  if (has(podOpts) && !valid(podOpts)) badSetters.push('pod');

  const badContainers: string[] = [];
  for (const c of containers(podSpec)) {
    const opts = get(c.securityContext, 'seLinuxOptions');
    if (has(opts) && !valid(opts)) badContainers.push(c.name);
  }
  if (badContainers.length > 0) badSetters.push(containerPhrase(badContainers));

  if (badSetters.length === 0) return ALLOWED;
  const problems: string[] = [];
  const types = sortedSet(badTypes);
  if (types.length > 0) problems.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
  if (setUser) problems.push('user may not be set');
  if (setRole) problems.push('role may not be set');
  return forbidden(
    'seLinuxOptions',
    `${badSetters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${problems.join('; ')}`,
  );
}

export const seLinuxOptions_1_0: CheckPodFn = (_m: PodMetadataInput, s: PodSpecInput) => seLinuxOptions(s, allowedTypes_1_0);
export const seLinuxOptions_1_31: CheckPodFn = (_m: PodMetadataInput, s: PodSpecInput) => seLinuxOptions(s, allowedTypes_1_31);

export const seLinuxOptionsCheck: Check = {
  id: 'seLinuxOptions',
  level: 'baseline',
  versions: [
    { minimumVersion: v1(0), checkPod: seLinuxOptions_1_0 },
    { minimumVersion: v1(31), checkPod: seLinuxOptions_1_31 },
  ],
};
