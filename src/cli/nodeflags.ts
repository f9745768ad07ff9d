// V8 settings the `bulkhead` process runs with. Every API request allocates many short-lived
// objects (decoded bodies, defaulted copies, field sets); a 32 MiB young generation makes
// scavenges rarer, which bench:api measured as ~10% more creates/s. ./bulkhead and the
// shebang of main.js pass the same flags; keep the three in step.
export const nodeFlags = ['--max-semi-space-size=32'];
