// `bulkhead down`'s work: every pod an agent's data directory holds (the pod worker's records,
// its OCI runtime's containers, its log directories: knownPods) is stopped, each with its grace
// period (its own terminationGracePeriodSeconds, as recorded when it started, unless one is
// given; SIGTERM, SIGKILL once it is over), and removed — containers, overlay mounts, namespace
// pins, pod cgroups, records — as the agent stops a pod deleted while it was down; then the
// node cgroups go if nothing is left, as at an agent's clean shutdown with no pods. Nothing here
// talks to the API: the cluster's objects stay, and the next `bulkhead up` starts the pods again.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FeatureGates } from '../api/featuregates.js';
import { defaultTerminationGracePeriodSeconds } from '../api/defaults.js';
import type { Pod } from '../api/types.js';
import { cgroupManagerFor } from './cgroups/select.js';
import { ImageStore } from './images/store.js';
import { AgentMetrics } from './metrics.js';
import { NodeCgroups } from './nodecgroups.js';
import { PodRecords } from './podrecords.js';
import type { OCIRuntimeChoice } from './runtime/runtimechoice.js';
import { agentDirs, agentNodeConfig, probeContainerHost } from './setup.js';
import { createPodRuntime } from './wiring.js';

export interface StopAllOptions {
  dataDir: string;
  cgroupRoot: string;
  containerRuntime?: OCIRuntimeChoice;
  /** Every pod's grace period; absent: each pod's own terminationGracePeriodSeconds (its record's), else 30 s. */
  graceSeconds?: number;
  gates: FeatureGates;
  progress?: (msg: string) => void;
}

export interface StopAllResult {
  /** The pods stopped and removed. */
  stopped: { namespace: string; name: string; uid: string }[];
  /** Pods whose containers outlived SIGKILL (FailedKillPod), with why; they stay known. */
  failed: { namespace: string; name: string; uid: string; error: string }[];
  /** Node cgroups still in use, left in place. */
  cgroupsLeft: string[];
}

/** Stops and removes every pod of the agent data directory in `o.dataDir`, then the unused node cgroups. */
export async function stopAllPods(o: StopAllOptions): Promise<StopAllResult> {
  const progress = o.progress ?? (() => undefined);
  const dirs = agentDirs(o.dataDir);
  if (!existsSync(dirs.stateDir) && !existsSync(dirs.runDir)) return { stopped: [], failed: [], cgroupsLeft: [] };
  const { host, ociRuntime, handlers } = await probeContainerHost(o.containerRuntime, progress);
  const node = agentNodeConfig({ oomGroupEmulation: false }, host);
  const cgroups = cgroupManagerFor(host.cgroups);
  const root = o.cgroupRoot === '/' ? '' : o.cgroupRoot.replace(/\/+$/, '');
  const worker = createPodRuntime({
    node,
    host,
    gates: o.gates,
    images: new ImageStore(join(resolve(o.dataDir), 'images')),
    metrics: new AgentMetrics(),
    cgroupRoot: o.cgroupRoot,
    stateDir: dirs.stateDir,
    runDir: dirs.runDir,
    hostIPs: [],
    allocatable: {},
    ociRuntime,
    handlerRuntimes: handlers.usable,
    cgroups,
    // A stop reads no ConfigMap or Secret.
    objects: { configMap: () => Promise.resolve(null), secret: () => Promise.resolve(null) },
    containerStarted: () => undefined,
    containerRemoving: () => undefined,
    probeEvents: () => undefined,
    probeChanged: () => undefined,
  });
  const known = await worker.knownPods();
  const records = new PodRecords(dirs.runDir);
  progress(`stopping ${known.length} pod(s)${known.length ? `: ${known.map((k) => `${k.namespace}/${k.name}`).join(', ')}` : ''}…`);
  const result: StopAllResult = { stopped: [], failed: [], cgroupsLeft: [] };
  await Promise.all(
    known.map(async (k) => {
      // As the agent's orphans: only the pod's identity; its containers are what the runtime has.
      const grace = o.graceSeconds ?? records.readPod(k.uid)?.terminationGracePeriodSeconds ?? defaultTerminationGracePeriodSeconds;
      const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { uid: k.uid, namespace: k.namespace, name: k.name }, spec: { containers: [], terminationGracePeriodSeconds: grace } };
      const outcome = await worker.terminate(pod, grace, () => undefined);
      if (!outcome.done) {
        result.failed.push({ ...k, error: outcome.error });
        return;
      }
      await worker.remove(k.uid);
      result.stopped.push(k);
    }),
  );
  worker.stopProbes?.();
  if (result.failed.length === 0) {
    const nodeCgroups = new NodeCgroups(root, node, o.gates, { cgroups, hierarchies: cgroups.hierarchies(), createdFile: join(dirs.stateDir, 'node-cgroups-created.json') });
    // A cgroup whose last task has just exited can answer EBUSY for a moment: try again briefly.
    let left = nodeCgroups.removeUnused();
    for (let i = 0; i < 10 && left.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = nodeCgroups.removeUnused();
    }
    result.cgroupsLeft = left;
  }
  return result;
}
