// `bulkhead down`: stops every container `bulkhead up` (or `bulkhead agent`) started from a data
// directory, as k3s-killall.sh does for k3s: Ctrl-C on `up` stops only the server and the agent,
// as a kubelet restart would, and leaves the pods running for the next start to adopt. The
// cluster's objects stay in the data directory; the next `bulkhead up` starts the pods again.
// Refused while a server holds the data directory's store (its agent would start them again).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { UsageError } from './errors.js';
import { featureGatesFlag } from './flags.js';
import { ociRuntimeChoices, type OCIRuntimeChoice } from '../agent/runtime/runtimechoice.js';

interface DownFlags {
  dataDir: string;
  cgroupRoot: string;
  containerRuntime: string;
  gracePeriod?: string;
  featureGates?: string;
}

export function downCommand(): Command {
  return new Command('down')
    .description('Stop every pod container that `bulkhead up` or `bulkhead agent` started from a data directory, each with its grace period (SIGTERM, then SIGKILL), and remove their mounts and cgroups and the node cgroups. The cluster\'s objects stay in the data directory: the next `bulkhead up` starts the pods again. Stop `bulkhead up` (Ctrl-C) or the agent first. Needs root.')
    .option('--data-dir <dir>', 'the data directory of `bulkhead up` or `bulkhead agent`', '.bulkhead')
    .option('--cgroup-root <path>', 'the --cgroup-root the agent ran with', '/bulkhead')
    .option('--container-runtime <runtime>', 'the --container-runtime the agent ran with: auto, runc or crun', 'auto')
    .option('--grace-period <seconds>', 'how long every pod\'s containers get between SIGTERM and SIGKILL (default: each pod\'s terminationGracePeriodSeconds)')
    .option('--feature-gates <gates>', 'the --feature-gates the agent ran with')
    .addHelpText('after', `
Examples:
  bulkhead down
  bulkhead down --data-dir /tmp/demo --grace-period 0`)
    .action(async (f: DownFlags) => {
      const grace = f.gracePeriod === undefined ? undefined : Number(f.gracePeriod);
      if (f.gracePeriod !== undefined && (!/^\d+$/.test(f.gracePeriod) || !Number.isSafeInteger(grace))) throw new UsageError(`invalid value "${f.gracePeriod}" for --grace-period: a whole number of seconds`);
      const containerRuntime = ociRuntimeChoices.find((c) => c === f.containerRuntime) as OCIRuntimeChoice | undefined;
      if (!containerRuntime) throw new UsageError(`invalid value "${f.containerRuntime}" for --container-runtime: one of ${ociRuntimeChoices.join(', ')}`);
      const gates = featureGatesFlag(f.featureGates);
      const { cgroupRootProblem } = await import('../agent/nodecgroups.js');
      const rootProblem = cgroupRootProblem(f.cgroupRoot);
      if (rootProblem) throw new UsageError(`invalid value "${f.cgroupRoot}" for --cgroup-root: ${rootProblem}`);
      // A server on this data directory (`up`, `server`) would have its agent start the pods
      // again, and a running agent would race the stop: each holds its lock while it runs.
      const { takeOwnerLockNow } = await import('../storage/sqlite.js');
      const { agentLockPath } = await import('./agent.js');
      const locks: { release(): void }[] = [];
      const release = () => locks.forEach((l) => l.release());
      const store = join(f.dataDir, 'bulkhead.db');
      for (const [path, holder] of [[store, 'a server'], [agentLockPath(f.dataDir), 'a node agent']] as const) {
        if (!existsSync(path) && !existsSync(`${path}-lock`)) continue;
        try {
          locks.push(takeOwnerLockNow(path));
        } catch (e) {
          release();
          if ((e as { code?: string }).code === 'SQLITE_BUSY') throw new UsageError(`${holder} is running with ${f.dataDir} (${path}-lock is held): stop \`bulkhead up\` or the agent first (Ctrl-C), or delete the pods with kubectl`);
          throw e;
        }
      }
      try {
        const { stopAllPods } = await import('../agent/stopall.js');
        const { AgentSetupError } = await import('../agent/setup.js');
        const progress = (msg: string) => process.stderr.write(`bulkhead: ${msg}\n`);
        let r;
        try {
          r = await stopAllPods({ dataDir: f.dataDir, cgroupRoot: f.cgroupRoot, containerRuntime, ...(grace !== undefined ? { graceSeconds: grace } : {}), gates, progress });
        } catch (e) {
          if (e instanceof AgentSetupError) throw new UsageError(e.message);
          throw e;
        }
        for (const p of r.failed) process.stderr.write(`bulkhead: ${p.namespace}/${p.name}: not stopped: ${p.error}\n`);
        if (r.cgroupsLeft.length) process.stderr.write(`bulkhead: node cgroups still in use, left in place: ${r.cgroupsLeft.join(', ')}\n`);
        process.stdout.write(`${r.stopped.length} pod(s) stopped${r.failed.length ? `, ${r.failed.length} not` : ''}; the cluster's objects are kept in ${f.dataDir} (\`bulkhead up\` starts the pods again)\n`);
        if (r.failed.length) process.exitCode = 1;
      } finally {
        release();
      }
    });
}
