// `bulkhead up`: the API server of `bulkhead server` (server.ts) and a node agent on this host
// beside it, in one process, until interrupted.

import { Command } from 'commander';
import { featureGatesFlag } from './flags.js';
import { addAgentFlags, agentSettingsFromFlags, runAgent, type AgentFlags } from './agent.js';
import { addServerFlags, kubectlHint, runServer, type ServerFlags } from './server.js';

export function upCommand(): Command {
  return addAgentFlags(addServerFlags(new Command('up'), '.bulkhead'))
    .description('Start a single-node Bulkhead cluster on this machine: the API server with its controllers and scheduler, and a node agent that runs pods with runc (needs root). Prints how to point kubectl at it.')
    .addHelpText('after', `
Stopping: Ctrl-C stops the server and the agent, as a kubelet restart would: the containers
keep running and the next start adopts them. To stop them too, run \`bulkhead down\` after
Ctrl-C (the cluster's objects stay; the next start runs the pods again), or delete the pods
first (kubectl delete -f examples/, or kubectl delete namespace NS).

Examples:
  bulkhead up
  bulkhead up --data-dir /tmp/demo --listen 127.0.0.1:7443 --node-memory 2Gi --node-cpu 1`)
    .action(async (f: ServerFlags & AgentFlags) => {
      const gates = featureGatesFlag(f.featureGates);
      // The agent of `up` talks to its server over loopback unless told otherwise.
      const settings = agentSettingsFromFlags({ ...f, nodeIp: f.nodeIp ?? '127.0.0.1' }, gates, f.dataDir);
      const stop = 'Stop with Ctrl-C; data stays in the data directory and containers keep running\n(the next start adopts them): `bulkhead down` after Ctrl-C stops them.';
      await runServer(f, (s) => kubectlHint(s, stop), async (s) => {
        const nodeName = settings.nodeName ?? (await import('../agent/setup.js')).defaultNodeName();
        process.stderr.write(`bulkhead: starting the node agent for ${nodeName}…\n`);
        // The server issues the agent's serving certificate for the address the Node reports.
        const { defaultNodeIP } = await import('../agent/setup.js');
        const hosts = [settings.nodeIP ?? defaultNodeIP(), ...(settings.endpoint.host ? [settings.endpoint.host] : [])];
        const tls = await s.nodeServingCert(nodeName, hosts);
        return runAgent({ ...settings, nodeName, server: s.url, ca: s.caCert, token: s.nodeToken(nodeName), tls });
      });
    });
}
