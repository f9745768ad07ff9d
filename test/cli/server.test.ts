import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bulkhead } from './run.js';

describe('bulkhead up / server: bad flags are one line and exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-cli-server-'));
  const invalidConfig = join(dir, 'psa-invalid.yaml');
  writeFileSync(invalidConfig, [
    'apiVersion: apiserver.config.k8s.io/v1', 'kind: AdmissionConfiguration', 'plugins:', '- name: PodSecurity', '  configuration:',
    '    apiVersion: pod-security.admission.config.k8s.io/v1', '    kind: PodSecurityConfiguration', '    defaults: {enforce: strict}', '    exemptions: {namespaces: [Kube-System]}', '',
  ].join('\n'));
  const cases = [
    { name: 'a listen address without a port', args: ['up', '--listen', 'localhost'], stderr: /^error: invalid value "localhost" for --listen: expected HOST:PORT, e.g. 127.0.0.1:6443\n$/ },
    { name: 'a port above 65535', args: ['server', '--listen', '127.0.0.1:70000'], stderr: /^error: invalid value "127.0.0.1:70000" for --listen: port must be at most 65535\n$/ },
    { name: 'an unsupported store engine', args: ['up', '--store', 'postgres://db/bulkhead'], stderr: /^error: invalid value "postgres:\/\/db\/bulkhead" for --store: supported engines are sqlite:PATH, memory: and etcd:\/\/HOST:PORT\[,HOST:PORT…\]\n$/ },
    { name: 'an etcd spec with a URL inside', args: ['up', '--store', 'etcd:http://127.0.0.1:2379'], stderr: /^error: invalid value "etcd:http:\/\/127.0.0.1:2379" for --store: names no etcd member; use etcd:\/\/HOST:PORT\[,HOST:PORT…\]\n$/ },
    { name: 'an etcd member without a port', args: ['server', '--store', 'etcd://127.0.0.1:2379,10.0.0.2'], stderr: /^error: invalid value "etcd:\/\/127.0.0.1:2379,10.0.0.2" for --store: "10.0.0.2" is not HOST:PORT\n$/ },
    { name: 'etcd TLS flags without an etcd store', args: ['server', '--etcd-cafile', '/etc/ca.crt'], stderr: /^error: --etcd-cafile applies only with --store etcd:\/\/HOST:PORT\n$/ },
    { name: 'an etcd client certificate without its key', args: ['server', '--store', 'etcd://127.0.0.1:2379', '--etcd-certfile', '/etc/c.crt'], stderr: /^error: --etcd-certfile and --etcd-keyfile go together\n$/ },
    { name: 'an unreadable etcd CA file', args: ['server', '--store', 'etcd://127.0.0.1:2379', '--etcd-cafile', '/nonexistent/ca.crt'], stderr: /^error: cannot read --etcd-cafile \/nonexistent\/ca.crt: ENOENT\n$/ },
    { name: 'a relative etcd prefix', args: ['server', '--store', 'etcd://127.0.0.1:2379', '--etcd-prefix', 'cluster-a'], stderr: /^error: invalid value "cluster-a" for --etcd-prefix: must start with \/\n$/ },
    { name: 'an unknown feature gate', args: ['server', '--feature-gates', 'Nope=true'], stderr: /^error: invalid value "Nope=true" for --feature-gates: unrecognized feature gate: Nope\n$/ },
    { name: 'a bad pod security level', args: ['up', '--pod-security', 'strict'], stderr: /^error: invalid value "strict" for --pod-security: must be one of privileged, baseline, restricted\n$/ },
    { name: 'an admission control config file that is not there', args: ['server', '--admission-control-config-file', '/nonexistent/admission.yaml'],
      stderr: /^error: --admission-control-config-file \/nonexistent\/admission.yaml: unable to read admission control configuration from "\/nonexistent\/admission.yaml" \[ENOENT: no such file or directory, open '\/nonexistent\/admission.yaml'\]\n$/ },
    { name: 'an admission control config file with an invalid PodSecurity configuration', args: ['up', '--admission-control-config-file', invalidConfig],
      stderr: /^error: --admission-control-config-file \S+\/psa-invalid.yaml: PodSecurity invalid: \[defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted, exemptions.namespaces\[0\]: Invalid value: "Kube-System": a lowercase RFC 1123 label must consist of/ },
    { name: '--pod-security with an admission control config file', args: ['server', '--pod-security', 'baseline', '--admission-control-config-file', 'examples/admission/pod-security.yaml'],
      stderr: /^error: --pod-security and --admission-control-config-file cannot be used together: set defaults.enforce \(and enforce-version\) in the PodSecurity configuration instead\n$/ },
    { name: 'a relative cgroup root', args: ['up', '--cgroup-root', 'relative'], stderr: /^error: invalid value "relative" for --cgroup-root: an absolute cgroup path like \/bulkhead\n$/ },
    { name: 'a cgroup root that climbs out', args: ['up', '--cgroup-root', '/a/../b'], stderr: /^error: invalid value "\/a\/..\/b" for --cgroup-root: an absolute cgroup path like \/bulkhead\n$/ },
    { name: 'a compaction interval without a unit', args: ['server', '--etcd-compaction-interval', '5'], stderr: /^error: invalid value "5" for --etcd-compaction-interval: time: missing unit in duration "5"\n$/ },
    { name: 'a negative compaction interval', args: ['up', '--etcd-compaction-interval', '-1m'], stderr: /^error: invalid value "-1m" for --etcd-compaction-interval: must not be negative\n$/ },
    { name: 'a negative request timeout (kube-apiserver\'s words)', args: ['server', '--request-timeout', '-1s'], stderr: /^error: --request-timeout can not be negative value\n$/ },
    { name: 'a request timeout without a unit', args: ['up', '--request-timeout', '60'], stderr: /^error: invalid value "60" for --request-timeout: time: missing unit in duration "60"\n$/ },
    { name: 'an IPv6 service range (single-stack IPv4 only)', args: ['server', '--service-cluster-ip-range', 'fd00::/108'], stderr: /^error: invalid value "fd00::\/108" for --service-cluster-ip-range: is not an IPv4 CIDR \(e\.g\. 10\.96\.0\.0\/12\); Bulkhead serves single-stack IPv4 services\n$/ },
    { name: 'a service range without usable addresses', args: ['up', '--service-cluster-ip-range', '10.96.0.0/31'], stderr: /^error: invalid value "10\.96\.0\.0\/31" for --service-cluster-ip-range: holds no usable service IP: the prefix must be at most \/30\n$/ },
    { name: 'a node port range beyond 65535', args: ['server', '--service-node-port-range', '30000-70000'], stderr: /^error: invalid value "30000-70000" for --service-node-port-range: is not a port range within 1-65535\n$/ },
    { name: 'a node memory that is not a quantity', args: ['up', '--node-memory', 'lots'], stderr: /^error: invalid value "lots" for --node-memory: quantities must match the regular expression/ },
    { name: 'a node CPU of zero', args: ['up', '--node-cpu', '0'], stderr: /^error: invalid value "0" for --node-cpu: must be positive\n$/ },
    { name: 'a bad eviction threshold', args: ['up', '--eviction-hard', 'memory.free<1Gi'], stderr: /^error: invalid value "memory.free<1Gi" for --eviction-hard: unsupported eviction signal memory.free\n$/ },
    { name: 'a non-boolean single-process-oom-kill', args: ['up', '--single-process-oom-kill', 'maybe'], stderr: /^error: invalid value "maybe" for --single-process-oom-kill: must be true or false\n$/ },
    { name: 'a node monitor grace period without a unit', args: ['server', '--node-monitor-grace-period', '40'], stderr: /^error: invalid value "40" for --node-monitor-grace-period: time: missing unit in duration "40"\n$/ },
    { name: 'toleration seconds that are not a number', args: ['up', '--default-unreachable-toleration-seconds', '5m'], stderr: /^error: invalid value "5m" for --default-unreachable-toleration-seconds: expected a whole number of seconds\n$/ },
    { name: 'an unhealthy zone threshold above 1', args: ['server', '--unhealthy-zone-threshold', '1.5'], stderr: /^error: invalid value "1.5" for --unhealthy-zone-threshold: expected a number from 0 to 1\n$/ },
    { name: 'a non-boolean leader-elect', args: ['server', '--leader-elect', 'maybe'], stderr: /^error: invalid value "maybe" for --leader-elect: must be true or false\n$/ },
    { name: 'a lease no longer than the renew deadline', args: ['server', '--leader-elect-lease-duration', '10s'], stderr: /^error: leaseDuration must be greater than renewDeadline \(--leader-elect-lease-duration, --leader-elect-renew-deadline\)\n$/ },
    { name: 'max pods of zero', args: ['up', '--max-pods', '0'], stderr: /^error: invalid value "0" for --max-pods: a positive integer\n$/ },
    { name: 'an agent without a kubeconfig or a token', args: ['agent'], stderr: /^error: --kubeconfig, or --server with --token, is required: the agent is a client of an API server/ },
    { name: 'an agent with a token but no server', args: ['agent', '--token', 'abcdef.0123456789abcdef'], stderr: /^error: --server and --token go together/ },
    { name: 'an agent with a malformed token', args: ['agent', '--server', 'https://127.0.0.1:1', '--token', 'secret'], stderr: /^error: invalid value for --token: a bootstrap token has the form \[a-z0-9\]\{6\}\.\[a-z0-9\]\{16\}/ },
    { name: 'an agent with a malformed CA hash', args: ['agent', '--server', 'https://127.0.0.1:1', '--token', 'abcdef.0123456789abcdef', '--discovery-token-ca-cert-hash', 'md5:1'], stderr: /^error: invalid value "md5:1" for --discovery-token-ca-cert-hash: sha256: and 64 hex digits\n$/ },
    { name: 'an agent joining without a CA pin', args: ['agent', '--server', 'https://127.0.0.1:1', '--token', 'abcdef.0123456789abcdef', '--node-name', 'x'], stderr: /^error: the server's CA must be pinned: pass --discovery-token-ca-cert-hash/ },
    { name: 'a token with a bad group', args: ['token', 'create', '--groups', 'system:masters'], stderr: /^error: invalid value for --groups: bootstrap group "system:masters" is invalid/ },
    { name: 'a token create without a server', args: ['token', 'create'], stderr: /^error: cannot read kubeconfig .*kubeconfig: ENOENT \(the admin kubeconfig bulkhead server writes into its --data-dir\)\n$/ },
    { name: 'an agent with a missing kubeconfig', args: ['agent', '--kubeconfig', '/nonexistent/kubeconfig'], stderr: /^error: cannot read kubeconfig \/nonexistent\/kubeconfig: ENOENT\n$/ },
    { name: 'down with a grace period that is not whole seconds', args: ['down', '--grace-period', '1.5'], stderr: /^error: invalid value "1.5" for --grace-period: a whole number of seconds\n$/ },
    { name: 'down with an unknown runtime', args: ['down', '--container-runtime', 'kata'], stderr: /^error: invalid value "kata" for --container-runtime: one of auto, runc, crun\n$/ },
    { name: 'down with a relative cgroup root', args: ['down', '--cgroup-root', 'relative'], stderr: /^error: invalid value "relative" for --cgroup-root: an absolute cgroup path like \/bulkhead\n$/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = bulkhead([...c.args, '--data-dir', join(dir, 'd')]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, c.stderr);
    });
  }
  it('cleans up', () => rmSync(dir, { recursive: true, force: true }));
});

describe('bulkhead up / server --help', () => {
  it('bulkhead agent --help describes the flags and exits 0', () => {
    const r = bulkhead(['agent', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Usage: bulkhead agent \[options\]/);
    for (const flag of ['--kubeconfig <file>', '--node-memory <quantity>', '--oom-group-emulation', '--single-process-oom-kill', '--eviction-hard <thresholds>']) assert.ok(r.stdout.includes(flag), flag);
  });
  for (const cmd of ['up', 'server']) {
    it(`bulkhead ${cmd} --help describes the flags and exits 0`, () => {
      const r = bulkhead([cmd, '--help']);
      assert.equal(r.code, 0);
      assert.match(r.stdout, new RegExp(`Usage: bulkhead ${cmd} \\[options\\]`));
      assert.match(r.stdout, /--data-dir <dir>/);
      assert.match(r.stdout, /--listen <host:port>/);
      assert.match(r.stdout, /--etcd-compaction-interval <duration>/);
      assert.match(r.stdout, /--admission-control-config-file <file>\s+an AdmissionConfiguration \(apiserver\.config\.k8s\.io\/v1\)/);
      assert.match(r.stdout, /--request-timeout <duration>\s+An optional field indicating the duration a handler must keep a request open before timing it out\./);
      assert.match(r.stdout, /\(default: "1m0s"\)/);
    });
  }
});
