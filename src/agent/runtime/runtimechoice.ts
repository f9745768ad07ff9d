// Which OCI runtime binary the agent runs containers with (conmon's --runtime, the Runc
// wrapper's binary): crun where it works, runc otherwise, or the one --container-runtime names.
// As CRI-O's default_runtime / runtimes table, reduced to the two runtimes Bulkhead drives
// through the same runc-compatible command line; the Node reports the choice in
// status.nodeInfo.containerRuntimeVersion (`crun://1.8.1`, `runc://1.1.5+ds1`).
//
// crun 1.8 refuses a hybrid host whose cgroup2 tree has controllers ("cgroups in hybrid mode not
// supported, drop all controllers from cgroupv2", libcrun cgroup.c; shared/reference/linux-host.md
// §1.3) before it creates anything, so on such a host auto takes runc and a forced crun is an error.

import { spawnSync } from 'node:child_process';
import type { CgroupProbe } from './hostprobe.js';

export type OCIRuntimeName = 'runc' | 'crun';
export type OCIRuntimeChoice = OCIRuntimeName | 'auto';
export const ociRuntimeChoices: readonly OCIRuntimeChoice[] = ['auto', 'runc', 'crun'];

export interface OCIRuntime {
  name: OCIRuntimeName;
  /** Absolute path of the binary. */
  binary: string;
  /** As `<name> --version` prints it (`1.8.1`, `1.1.5+ds1`); 'unknown' when it printed none. */
  version: string;
}

/** Why crun cannot run containers on a host with these cgroups (pure); undefined when it can. */
export function crunRefusal(cgroups: CgroupProbe): string | undefined {
  if (cgroups.mode === 'hybrid' && cgroups.unifiedControllers.length > 0) {
    return `crun refuses this host's hybrid cgroups ("cgroups in hybrid mode not supported, drop all controllers from cgroupv2": ${cgroups.unified ?? 'the cgroup2 tree'} has ${cgroups.unifiedControllers.join(' ')})`;
  }
  return undefined;
}

/** The version in the first line of `runc --version` / `crun --version` output (pure). */
export function parseRuntimeVersion(name: OCIRuntimeName, text: string): string | undefined {
  const m = new RegExp(`^${name} version (\\S+)`, 'm').exec(text);
  return m?.[1];
}

export interface RuntimeCandidate {
  name: OCIRuntimeName;
  /** From PATH; undefined when not installed. */
  binary?: string;
  /** `--version` output; undefined when it did not run or exited non-zero. */
  versionText?: string;
}

/**
 * The runtime for `choice` (pure): auto takes crun when it is installed, answers --version and
 * the host's cgroups suit it, else runc. An Error names what is missing or refused.
 */
export function chooseOCIRuntime(choice: OCIRuntimeChoice, cgroups: CgroupProbe, candidates: Record<OCIRuntimeName, RuntimeCandidate>): OCIRuntime | Error {
  const problem = (c: RuntimeCandidate): string | undefined => {
    if (!c.binary) return `${c.name} is not installed (apt-get install ${c.name}; scripts/install-host-deps.sh does it)`;
    if (c.versionText === undefined) return `${c.binary} --version failed`;
    return c.name === 'crun' ? crunRefusal(cgroups) : undefined;
  };
  const pick = (c: RuntimeCandidate): OCIRuntime => ({ name: c.name, binary: c.binary!, version: parseRuntimeVersion(c.name, c.versionText!) ?? 'unknown' });
  if (choice !== 'auto') {
    const p = problem(candidates[choice]);
    return p ? new Error(`--container-runtime ${choice}: ${p}`) : pick(candidates[choice]);
  }
  if (!problem(candidates.crun)) return pick(candidates.crun);
  const p = problem(candidates.runc);
  return p ? new Error(`no usable OCI runtime: ${p}; crun: ${problem(candidates.crun)}`) : pick(candidates.runc);
}

/**
 * The runtime handlers of this host (pure), as a CRI runtime's configured runtimes: `runc` and
 * `crun` each where it is installed, answers --version and suits the host's cgroups (crun
 * refuses a hybrid host), with why each other one is not. A pod whose RuntimeClass names a
 * handler not among them fails its sandbox (lifecycle/wording.ts noRuntimeForHandler).
 */
export function runtimeHandlers(cgroups: CgroupProbe, candidates: Record<OCIRuntimeName, RuntimeCandidate>): { usable: OCIRuntime[]; refused: { name: OCIRuntimeName; reason: string }[] } {
  const usable: OCIRuntime[] = [];
  const refused: { name: OCIRuntimeName; reason: string }[] = [];
  for (const name of ['runc', 'crun'] as const) {
    const got = chooseOCIRuntime(name, cgroups, candidates);
    if (got instanceof Error) refused.push({ name, reason: got.message.replace(`--container-runtime ${name}: `, '') });
    else usable.push(got);
  }
  return { usable, refused };
}

/** The candidate as installed on this host (runs `<binary> --version`). */
export function probeRuntimeCandidate(name: OCIRuntimeName, which: (bin: string) => string | undefined): RuntimeCandidate {
  const binary = which(name);
  if (!binary) return { name };
  const r = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return r.status === 0 ? { name, binary, versionText: r.stdout } : { name, binary };
}
