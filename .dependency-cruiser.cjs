// The layers of ../shared/DESIGN.md ("Layers in the code") as import rules, checked by
// dependency-cruiser over the TypeScript sources (parsed with swc: TypeScript 7 has no compiler
// API for it, and the compiled JS would hide `import type`). docs/architecture.md explains them.
//   node scripts/check-layers.mjs          (./run-tests runs it; test/layers proves it bites)

/** Pure, deterministic rules: no I/O, nothing from the layers that do I/O or compose. */
const pure = '^src/(api|policy|quota|podsecurity|scheduler|admission)/';
/** Everything above the pure rules. */
const io = 'src/(storage|apiserver|client|controllers|server|agent|cli)/';

// Node's modules a pure layer may use: node:crypto, for createHash (derived pod uids, ETags).
// The check cannot tell createHash from randomUUID; a random uid stays in the API server by
// review. Anything else (fs, child_process, net, http, https, os, perf_hooks, …) is I/O or a clock.
const coreAllowedInPure = '^(crypto|node:crypto)$';

/** Rule: `from` (a path regex) may not import `to`; `pathNot` lists the known exceptions. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

module.exports = {
  forbidden: [
    forbid('pure-no-io', 'pure rules import no I/O module of Node.js', { path: pure }, { dependencyTypes: ['core'], pathNot: coreAllowedInPure }),
    // js-yaml is a pure parser (text in, values out): src/api/boundedyaml.ts bounds it for every body and manifest.
    forbid('pure-no-packages', 'pure rules import no npm package but the pure YAML parser (better-sqlite3, tar, prom-client, … are I/O)', { path: pure }, { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: '^node_modules/js-yaml/' }),
    forbid('pure-not-above', 'pure rules import nothing from plan or the I/O layers', { path: pure }, { path: `^(src/plan/|${io})` }),
    forbid('api-is-the-bottom', 'src/api holds the object types and their rules; every other layer builds on it', { path: '^src/api/' }, { path: '^src/', pathNot: '^src/api/' }),
    forbid('policy-on-api', 'node semantics build on the API types only', { path: '^src/policy/' }, { path: '^src/', pathNot: '^src/(api|policy)/' }),
    forbid('podsecurity-on-api', 'Pod Security checks read the API types only', { path: '^src/podsecurity/' }, { path: '^src/', pathNot: '^src/(api|podsecurity)/' }),
    forbid('quota-on-api-policy', 'quota builds on the API types and node semantics (QoS for scopes)', { path: '^src/quota/' }, { path: '^src/', pathNot: '^src/(api|policy|quota)/' }),
    forbid('scheduler-on-api-policy', 'scheduling rules build on the API types and node semantics', { path: '^src/scheduler/' }, { path: '^src/', pathNot: '^src/(api|policy|scheduler)/' }),
    forbid('admission-on-rules', 'the admission chain composes the rule layers only', { path: '^src/admission/' }, { path: '^src/', pathNot: '^src/(api|policy|quota|podsecurity|admission)/' }),
    forbid('plan-on-pure', 'plan is built from the pure layers only, so it needs no server and no host', { path: '^src/plan/' }, { path: `^${io}` }),
    forbid('plan-no-io', 'plan does no I/O (cli reads the files)', { path: '^src/plan/' }, { dependencyTypes: ['core'], pathNot: coreAllowedInPure }),
    forbid('storage-below-server', 'the store knows nothing of its users', { path: '^src/storage/' }, { path: '^src/(apiserver|client|controllers|server|agent|cli|plan|admission)/' }),
    forbid(
      'apiserver-no-agent-cli',
      'the API server knows no node agent and no command',
      { path: '^src/apiserver/' },
      { path: '^src/(agent|cli)/' },
    ),
    forbid(
      'apiserver-no-controllers',
      'controllers and the client are clients of the API server, not parts of it; src/server composes them',
      { path: '^src/apiserver/' },
      { path: '^src/(client|controllers|server)/' },
    ),
    forbid('client-below-controllers', 'the client knows no controller, agent, composition or command', { path: '^src/client/' }, { path: '^src/(controllers|server|agent|cli|storage)/' }),
    forbid(
      'client-loopback-only',
      'only the loopback client reaches into the API server (the rest of src/client works over any KubeClient)',
      { path: '^src/client/', pathNot: '^src/client/loopback\\.ts$' },
      { path: '^src/apiserver/' },
    ),
    forbid(
      'controllers-through-client',
      'controllers see the API only through src/client (never the API server, its store, or the loopback client directly)',
      // No exceptions: the scheduler, the last controller on the API server's caches, moved too.
      { path: '^src/controllers/' },
      { path: '^(src/apiserver/|src/storage/|src/client/loopback\\.ts$)' },
    ),
    forbid('controllers-no-agent-cli', 'controllers see the cluster through the API only', { path: '^src/controllers/' }, { path: '^src/(agent|cli)/' }),
    forbid('agent-is-a-client', 'the node agent talks to the API server over HTTP through src/client (KubeClient, informers, recorder) like a controller; it imports no server or controller code, no store and not the loopback client', { path: '^src/agent/' }, { path: '^(src/(apiserver|controllers|server|storage|cli)/|src/client/loopback\\.ts$)' }),
    forbid('server-composes', 'src/server composes the API server and the controllers; only the command imports it', { path: '^src/', pathNot: '^src/(cli|server)/' }, { path: '^src/server/' }),
    forbid('nothing-imports-cli', 'src/cli is the top: it composes the rest and nothing imports it', { path: '^src/', pathNot: '^src/cli/' }, { path: '^src/cli/' }),
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
  },
};
