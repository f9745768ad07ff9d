// Several nodes on one machine, end to end: `bulkhead server` and two `bulkhead agent`s, each
// agent in a network namespace of its own (made here: `ip netns add`, a veth pair with unique
// names, an address on each end, the host end's address routed to), with its own node name,
// --cgroup-root, --node-ip and data directory, joined with tokens from `bulkhead token create
// --print-join-command`. The scheduler spreads a Deployment's pods over both nodes (kubectl get
// pods -o wide); each node is system:node:<name> by the certificate it obtained, and
// NodeRestriction keeps one from writing the other's status. Then one agent is killed (its PID
// only): the node lifecycle controller marks it unreachable and taints it, its pods are evicted
// after their toleration, and the Deployment recreates them on the surviving node.
//
// The agents join the network namespace with `nsenter --net`, not `ip netns exec`: the latter
// also remounts /sys for the namespace, which hides the cgroup hierarchies mounted below it.
// Needs root, ip, nsenter, runc, conmon, busybox-static and kubectl; anywhere else it skips.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { realKernelSkipReason, removeTestCgroups } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { mainJS, type PodJSON } from './upcluster.js';
import { pollUntil } from './poll.js';
import { runProcess } from './runprocess.js';

const execFileP = promisify(execFile);

const reason = realKernelSkipReason(['runc', 'conmon', 'ip', 'nsenter']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/multinode.test: SKIPPING multi-node end-to-end tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

/** What the build's commands offer: the node lifecycle flags come with the lifecycle controller. */
function helpOf(cmd: string): string {
  const r = spawnSync(process.execPath, [mainJS, cmd, '--help'], { encoding: 'utf8' });
  return r.stdout ?? '';
}
const lifecycleReason = reason ? undefined : helpOf('server').includes('--node-monitor-grace-period') ? undefined : 'needs the node lifecycle controller (branch h/lifecycle: bulkhead server --node-monitor-grace-period, --default-unreachable-toleration-seconds)';

/** Short periods, so a dead node's pods move within seconds (upstream's flags, upstream's defaults are 50 s and 300 s). */
const gracePeriodSeconds = 8;
const unreachableTolerationSeconds = 5;

const run = runProcess;

async function must(cmd: string, args: string[]): Promise<void> {
  const r = await run(cmd, args);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr.trim()}`);
}

/** A long-running child whose output is kept; resolves once `ready` appears in it. */
interface Daemon {
  child: ChildProcess;
  output(): string;
  exited: Promise<number>;
}

async function daemon(cmd: string, args: string[], ready: RegExp, timeoutMs = 90_000): Promise<Daemon> {
  let out = '';
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number>((r) => child.on('exit', (code, signal) => r(code ?? (signal ? 128 : -1))));
  const t0 = Date.now();
  while (!ready.test(out)) {
    if (child.exitCode !== null) throw new Error(`${args.slice(0, 3).join(' ')} exited with ${child.exitCode}:\n${out}`);
    if (Date.now() - t0 > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${args.slice(0, 3).join(' ')} did not start in time:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => out, exited };
}

/** A network namespace for one node: a veth pair, 10.X.I.1 on the host end, 10.X.I.2 inside. */
interface NodeNet {
  netns: string;
  hostIf: string;
  hostIP: string;
  nodeIP: string;
}

/** A 10.X/16 that no address or route of this host uses. */
function freeSubnet(): number {
  const used = spawnSync('ip', ['-4', 'route', 'show', 'table', 'all'], { encoding: 'utf8' }).stdout + spawnSync('ip', ['-4', 'addr'], { encoding: 'utf8' }).stdout;
  for (let tries = 0; tries < 100; tries++) {
    const x = 100 + Math.floor(Math.random() * 150);
    if (!used.includes(`10.${x}.`)) return x;
  }
  throw new Error('no free 10.X.0.0/16 for the test networks');
}

async function makeNet(tag: string, subnet: number, i: number): Promise<NodeNet> {
  const net: NodeNet = { netns: `bhmn-${tag}-${i}`, hostIf: `bh${tag}${i}h`, hostIP: `10.${subnet}.${i}.1`, nodeIP: `10.${subnet}.${i}.2` };
  const inner = `bh${tag}${i}n`;
  await must('ip', ['netns', 'add', net.netns]);
  await must('ip', ['link', 'add', net.hostIf, 'type', 'veth', 'peer', 'name', inner]);
  await must('ip', ['link', 'set', inner, 'netns', net.netns]);
  await must('ip', ['addr', 'add', `${net.hostIP}/24`, 'dev', net.hostIf]);
  await must('ip', ['link', 'set', net.hostIf, 'up']);
  await must('ip', ['-n', net.netns, 'link', 'set', 'lo', 'up']);
  await must('ip', ['-n', net.netns, 'addr', 'add', `${net.nodeIP}/24`, 'dev', inner]);
  await must('ip', ['-n', net.netns, 'link', 'set', inner, 'up']);
  // The server listens on the first network's host address; every node reaches it through its host end.
  await must('ip', ['-n', net.netns, 'route', 'add', 'default', 'via', net.hostIP]);
  return net;
}

async function removeNet(net: NodeNet): Promise<void> {
  // Deleting the namespace deletes the inner end, and with it the pair; the host end is removed too in case.
  await run('ip', ['netns', 'del', net.netns]);
  await run('ip', ['link', 'del', net.hostIf]);
}

interface AgentNode {
  name: string;
  net: NodeNet;
  dataDir: string;
  cgroupRoot: string;
  daemon?: Daemon;
}

describe('several nodes on one machine (bulkhead server, two agents in their own network namespaces)', skip, () => {
  const tag = randomBytes(2).toString('hex');
  let dir: string;
  let server: Daemon;
  let serverURL: string;
  let kubeconfig: string;
  const nodes: AgentNode[] = [];
  const nets: NodeNet[] = [];
  let kenv: NodeJS.ProcessEnv;

  const kubectl = (args: string[], input?: string, config = kubeconfig) =>
    run('kubectl', ['--kubeconfig', config, '--cache-dir', join(dir, `kube-cache-${config === kubeconfig ? 'admin' : 'node'}`), '--request-timeout', '30s', ...args], kenv, input);
  const ok = async (args: string[], input?: string) => {
    const r = await kubectl(args, input);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };
  const logs = () => [`--- server ---\n${server?.output().slice(-3000)}`, ...nodes.map((n) => `--- agent ${n.name} ---\n${n.daemon?.output().slice(-3000)}`)].join('\n');
  const until = <T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> => pollUntil(what, check, { timeoutMs, intervalMs: 250, context: logs });
  const webPods = async () =>
    (JSON.parse(await ok(['get', 'pods', '-l', 'app=web', '-o', 'json'])) as { items: (PodJSON & { metadata: { deletionTimestamp?: string } })[] }).items;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-multinode-'));
    kenv = { ...process.env, HOME: dir };
    const subnet = freeSubnet();
    for (const i of [1, 2]) nets.push(await makeNet(tag, subnet, i));
    const lifecycle = lifecycleReason
      ? []
      : ['--node-monitor-grace-period', `${gracePeriodSeconds}s`, '--node-monitor-period', '1s', '--default-unreachable-toleration-seconds', String(unreachableTolerationSeconds)];
    server = await daemon(process.execPath, [mainJS, 'server', '--data-dir', join(dir, 'server'), '--listen', `${nets[0]!.hostIP}:0`, ...lifecycle], /Bulkhead API server is running at (\S+)/);
    serverURL = /Bulkhead API server is running at (\S+)/.exec(server.output())![1]!;
    kubeconfig = join(dir, 'server', 'kubeconfig');
    const agentFlags = helpOf('agent').includes('--node-status-update-frequency') ? ['--node-status-update-frequency', '1s'] : [];
    for (const [i, net] of nets.entries()) {
      const name = `mn-${tag}-${'ab'[i]}`;
      const node: AgentNode = { name, net, dataDir: join(dir, name), cgroupRoot: `/bulkhead-test-${tag}-${'ab'[i]}` };
      nodes.push(node);
      // One token per node, as a person joining two machines would make them.
      const join1 = await run(process.execPath, [mainJS, 'token', 'create', '--data-dir', join(dir, 'server'), '--print-join-command', '--ttl', '1h']);
      assert.equal(join1.code, 0, join1.stderr);
      const m = /^bulkhead agent --server (\S+) --token (\S+) --discovery-token-ca-cert-hash (\S+)\n$/.exec(join1.stdout);
      assert.ok(m, join1.stdout);
      assert.equal(m[1], serverURL);
      node.daemon = await daemon(
        'nsenter',
        [
          `--net=/run/netns/${net.netns}`, '--', process.execPath, mainJS, 'agent',
          '--server', m[1]!, '--token', m[2]!, '--discovery-token-ca-cert-hash', m[3]!,
          '--node-name', name, '--node-ip', net.nodeIP, '--cgroup-root', node.cgroupRoot, '--data-dir', node.dataDir,
          '--node-memory', '2Gi', '--node-cpu', '2', ...agentFlags,
        ],
        /Bulkhead agent is running as node/,
      );
    }
  });

  after(async () => {
    if (!dir) return;
    // The survivors stop their containers when their pods go; then the agents and the server stop.
    if (nodes.some((n) => n.daemon?.child.exitCode === null)) await kubectl(['delete', 'deployment', 'web', '--wait=false']).catch(() => undefined);
    if (nodes.some((n) => n.daemon?.child.exitCode === null)) await kubectl(['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']).catch(() => undefined);
    for (const n of nodes) {
      if (n.daemon && n.daemon.child.exitCode === null) {
        n.daemon.child.kill('SIGTERM');
        const t = setTimeout(() => n.daemon!.child.kill('SIGKILL'), 15_000);
        await n.daemon.exited;
        clearTimeout(t);
      }
    }
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    // What the killed agent left running: its containers (its own runtime state only), rootfs mounts, cgroups.
    for (const n of nodes) {
      for (const rt of ['runc', 'crun']) {
        const root = join(n.dataDir, 'agent', 'state', rt);
        if (!existsSync(root)) continue;
        const ids = (await execFileP(rt, ['--root', root, 'list', '-q']).catch(() => ({ stdout: '' }))).stdout.split('\n').filter(Boolean);
        for (const id of ids) await execFileP(rt, ['--root', root, 'delete', '--force', id]).catch(() => undefined);
      }
    }
    const mounts = readFileSync('/proc/mounts', 'utf8').split('\n').map((l) => l.split(' ')[1] ?? '').filter((m) => m.startsWith(dir + '/'));
    for (const m of mounts.sort().reverse()) await execFileP('umount', ['-l', m]).catch(() => undefined);
    const left = nodes.flatMap((n) => removeTestCgroups(n.cgroupRoot.slice(1)));
    for (const net of nets) await removeNet(net);
    rmSync(dir, { recursive: true, force: true });
    const netsLeft = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout.split('\n').filter((l) => l.startsWith(`bhmn-${tag}-`));
    assert.deepEqual([...left, ...netsLeft], [], 'cgroups or network namespaces left behind');
  });

  it('both agents join with their tokens and become Ready nodes, each with its own certificate', async () => {
    await until('both nodes Ready', async () => {
      const got = JSON.parse(await ok(['get', 'nodes', '-o', 'json'])) as { items: { metadata: { name: string }; status: { conditions?: { type: string; status: string }[]; addresses?: { type: string; address: string }[] } }[] };
      const ready = got.items.filter((n) => n.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
      return ready.length === 2 ? ready : undefined;
    });
    const csrs = await ok(['get', 'csr', '--no-headers']);
    for (const n of nodes) {
      const kc = join(n.dataDir, 'kubelet.kubeconfig');
      assert.ok(existsSync(kc), `${kc} written`);
      const who = await kubectl(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'], undefined, kc);
      assert.equal(who.stdout, `system:node:${n.name}`, who.stderr);
      assert.match(csrs, new RegExp(`kubernetes\\.io/kubelet-serving\\s+system:node:${n.name}\\s+<none>\\s+Approved,Issued`));
      const addr = await ok(['get', 'node', n.name, '-o', 'jsonpath={.status.addresses[?(@.type=="InternalIP")].address}']);
      assert.equal(addr, n.net.nodeIP);
    }
    assert.equal(csrs.split('\n').filter((l) => /kube-apiserver-client-kubelet\s+system:bootstrap:[a-z0-9]{6}\s+<none>\s+Approved,Issued/.test(l)).length, 2);
  });

  it('NodeRestriction holds per node: a node cannot update another node\'s status', async () => {
    const [a, b] = nodes as [AgentNode, AgentNode];
    const patch = JSON.stringify({ status: { conditions: [{ type: 'Ready', status: 'False', reason: 'Forged', message: 'forged by another node' }] } });
    const asA = join(a.dataDir, 'kubelet.kubeconfig');
    // kubectl patch reads the status first, which the node authorizer already refuses.
    const r = await kubectl(['patch', 'node', b.name, '--subresource=status', '--type=merge', '-p', patch], undefined, asA);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, new RegExp(`nodes "${b.name}" is forbidden: User "system:node:${a.name}" cannot get resource "nodes/status"`));
    // A write of the status itself passes the authorizer and is refused by NodeRestriction.
    const current = JSON.parse(await ok(['get', 'node', b.name, '-o', 'json'])) as { status: Record<string, unknown> };
    current.status.conditions = JSON.parse(patch).status.conditions;
    const file = join(dir, 'forged-status.json');
    writeFileSync(file, JSON.stringify(current));
    const put = await kubectl(['replace', '--raw', `/api/v1/nodes/${b.name}/status`, '-f', file], undefined, asA);
    assert.notEqual(put.code, 0);
    assert.match(put.stderr, new RegExp(`nodes "${b.name}" is forbidden: node "${a.name}" is not allowed to modify node "${b.name}"`));
    // The node's own status it may write (its agent does every few seconds).
    const mine = JSON.parse(await ok(['get', 'node', a.name, '-o', 'json'])) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify(mine));
    const own0 = await kubectl(['replace', '--raw', `/api/v1/nodes/${a.name}/status`, '-f', file], undefined, asA);
    assert.ok(own0.code === 0 || /the object has been modified/.test(own0.stderr), own0.stderr);
    const own = await kubectl(['label', 'node', a.name, 'example.com/own=yes'], undefined, asA);
    assert.equal(own.code, 0, own.stderr);
    const other = await kubectl(['label', 'node', b.name, 'example.com/own=yes'], undefined, asA);
    assert.notEqual(other.code, 0);
    assert.match(other.stderr, /forbidden/);
  });

  it('the scheduler spreads a Deployment\'s pods over both nodes (kubectl get pods -o wide)', async () => {
    await ok(['create', 'deployment', 'web', '--image=busybox', '--replicas=4', '--', 'sleep', '3600']);
    await until('4 running pods', async () => {
      const ps = (await webPods()).filter((p) => !p.metadata.deletionTimestamp);
      return ps.length === 4 && ps.every((p) => p.status.phase === 'Running') ? ps : undefined;
    }, 180_000);
    const wide = await ok(['get', 'pods', '-l', 'app=web', '-o', 'wide', '--no-headers']);
    const perNode = new Map<string, number>();
    for (const line of wide.trim().split('\n')) {
      const node = line.split(/\s+/)[6]!;
      perNode.set(node, (perNode.get(node) ?? 0) + 1);
    }
    // LeastAllocated on two equal nodes alternates: two pods each.
    assert.deepEqual([...perNode.entries()].sort(), nodes.map((n) => [n.name, 2]), wide);
  });

  it('a killed agent\'s pods are recreated on the surviving node', lifecycleReason ? { skip: lifecycleReason } : {}, async () => {
    const [dead, alive] = nodes as [AgentNode, AgentNode];
    const killedAt = Date.now();
    // Its PID only: containers and the other agent keep running.
    dead.daemon!.child.kill('SIGKILL');
    await dead.daemon!.exited;
    await until(`${dead.name} Ready=Unknown and tainted unreachable`, async () => {
      const n = JSON.parse(await ok(['get', 'node', dead.name, '-o', 'json'])) as { spec: { taints?: { key: string; effect: string }[] }; status: { conditions: { type: string; status: string }[] } };
      const unknown = n.status.conditions.some((c) => c.type === 'Ready' && c.status === 'Unknown');
      const tainted = n.spec.taints?.some((t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute');
      return unknown && tainted ? true : undefined;
    }, (gracePeriodSeconds + 60) * 1000);
    // The bound is the grace period, the toleration and generous slack for a loaded machine; the figure is printed.
    await until(`4 running pods on ${alive.name}`, async () => {
      const ps = (await webPods()).filter((p) => !p.metadata.deletionTimestamp);
      return ps.length === 4 && ps.every((p) => p.spec.nodeName === alive.name && p.status.phase === 'Running') ? ps : undefined;
    }, (gracePeriodSeconds + unreachableTolerationSeconds + 90) * 1000);
    console.error(`test/e2e/multinode.test: pods of the killed node running on ${alive.name} after ${((Date.now() - killedAt) / 1000).toFixed(1)}s (grace ${gracePeriodSeconds}s + toleration ${unreachableTolerationSeconds}s)`);
    assert.equal(server.child.exitCode, null, 'the server still runs');
    assert.equal(alive.daemon!.child.exitCode, null, 'the surviving agent still runs');
  });
});
