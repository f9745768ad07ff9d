#!/usr/bin/env python3
# Writes src/apiserver/patch/zeroobjects.ts: the zero object of each kind Bulkhead serves, as
# structured-merge-diff reads an empty Go struct by reflection (FromStructured): a struct-valued
# field is always there (omitempty never omits a struct), a non-omitempty pointer, slice or map
# is null, a non-omitempty scalar its zero value; metav1.Time and RawExtension are null.
#   scripts/zero-objects.py <k8s.io/api git checkout> [tag] > src/apiserver/patch/zeroobjects.ts
# Reads only the Go type definitions (field types and json tags) of the tag's types.go files.
import json, re, subprocess, sys

REPO = sys.argv[1]
TAG = sys.argv[2] if len(sys.argv) > 2 else 'v0.33.9'
PACKAGES = ['core/v1', 'apps/v1', 'batch/v1', 'policy/v1', 'coordination/v1', 'certificates/v1', 'scheduling/v1', 'node/v1', 'autoscaling/v2', 'discovery/v1', 'rbac/v1']
IMPORTS = {'v1': 'core/v1', 'corev1': 'core/v1'}
# Types of other modules on the zero paths, by what they serialize to.
STRUCTS = {'metav1.Time': None, 'metav1.MicroTime': None, 'metav1.ObjectMeta': {'creationTimestamp': None}, 'metav1.TypeMeta': {},
           'metav1.ListMeta': {}, 'resource.Quantity': '0', 'intstr.IntOrString': 0, 'runtime.RawExtension': None, 'metav1.Duration': '0s'}
SCALARS = {'types.UID': ''}
KINDS = [('v1', 'core/v1', 'Pod'), ('v1', 'core/v1', 'Namespace'), ('v1', 'core/v1', 'Node'), ('v1', 'core/v1', 'ResourceQuota'),
         ('v1', 'core/v1', 'LimitRange'), ('v1', 'core/v1', 'ConfigMap'), ('v1', 'core/v1', 'Secret'), ('v1', 'core/v1', 'Service'),
         ('v1', 'core/v1', 'ServiceAccount'), ('v1', 'core/v1', 'Event'), ('batch/v1', 'batch/v1', 'Job'), ('batch/v1', 'batch/v1', 'CronJob'),
         ('apps/v1', 'apps/v1', 'Deployment'), ('apps/v1', 'apps/v1', 'ReplicaSet'), ('apps/v1', 'apps/v1', 'StatefulSet'),
         ('apps/v1', 'apps/v1', 'DaemonSet'), ('apps/v1', 'apps/v1', 'ControllerRevision'), ('coordination.k8s.io/v1', 'coordination/v1', 'Lease'),
         ('certificates.k8s.io/v1', 'certificates/v1', 'CertificateSigningRequest'), ('scheduling.k8s.io/v1', 'scheduling/v1', 'PriorityClass'),
         ('node.k8s.io/v1', 'node/v1', 'RuntimeClass'), ('policy/v1', 'policy/v1', 'PodDisruptionBudget'),
         ('autoscaling/v2', 'autoscaling/v2', 'HorizontalPodAutoscaler'), ('v1', 'core/v1', 'Endpoints'),
         ('discovery.k8s.io/v1', 'discovery/v1', 'EndpointSlice'), ('rbac.authorization.k8s.io/v1', 'rbac/v1', 'Role'),
         ('rbac.authorization.k8s.io/v1', 'rbac/v1', 'ClusterRole'), ('rbac.authorization.k8s.io/v1', 'rbac/v1', 'RoleBinding'),
         ('rbac.authorization.k8s.io/v1', 'rbac/v1', 'ClusterRoleBinding')]

def git(*args):
    return subprocess.run(['git', *args], capture_output=True, text=True, cwd=REPO, check=True).stdout

structs, named = {}, {}
for pkg in PACKAGES:
    for f in git('ls-tree', '--name-only', TAG, pkg + '/').split():
        if not f.endswith('types.go'):
            continue
        src = git('show', f'{TAG}:{f}')
        for m in re.finditer(r'^type (\w+) struct \{(.*?)^\}', src, re.S | re.M):
            fields = []
            for line in m.group(2).split('\n'):
                # `Name Type `json:"..."`` or an embedded `pkg.Type `json:"..."``.
                mm = re.match(r'\t(?:\w+\s+)?([\w\.\*\[\]]+)\s+`json:"([^"]*)"', line)
                if mm:
                    parts = mm.group(2).split(',')
                    fields.append((parts[0], mm.group(1), 'omitempty' in parts[1:], 'inline' in parts[1:]))
            structs[(pkg, m.group(1))] = fields
        for m in re.finditer(r'^type (\w+) (string|bool|int32|int64|int|float64|map\[|\[\])', src, re.M):
            named[(pkg, m.group(1))] = m.group(2) if m.group(2) in ('string', 'bool', 'int32', 'int64', 'int', 'float64') else '[]'

def resolve(pkg, typ):
    if '.' in typ:
        q, n = typ.split('.', 1)
        return (IMPORTS.get(q, q), n)
    return (pkg, typ)

def zero(pkg, typ):
    """('absent-if-omitempty', value) for pointers and scalars; ('struct', value) for structs."""
    if typ.startswith(('*', '[]', 'map[')):
        return ('scalar', None)
    if typ in STRUCTS:
        return ('struct', STRUCTS[typ])
    if typ in SCALARS:
        return ('scalar', SCALARS[typ])
    if typ == 'string':
        return ('scalar', '')
    if typ == 'bool':
        return ('scalar', False)
    if typ in ('int32', 'int64', 'int', 'float64'):
        return ('scalar', 0)
    key = resolve(pkg, typ)
    if key in named:
        return zero(pkg, named[key])
    if key not in structs:
        raise SystemExit(f'unknown type {typ} in {pkg}')
    obj = {}
    for name, ftyp, omitempty, inline in structs[key]:
        kind, v = zero(key[0], ftyp)
        if inline:
            obj.update(v or {})
        elif kind == 'struct' or not omitempty:
            obj[name] = v
    return ('struct', obj)

def ts(v):
    if v is None:
        return 'null'
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return "'" + v.replace("'", "\\'") + "'"
    items = [(k if re.match(r'^[A-Za-z_]\w*$', k) else ts(k)) + ': ' + ts(x) for k, x in v.items()]
    return '{ ' + ', '.join(items) + ' }' if items else '{}'

print(f'''// The zero object of each kind Bulkhead serves: what the field manager compares a create with
// (kube-apiserver's FieldManager.Update against `scope.Creater.New(kind)`, an empty Go struct
// that structured-merge-diff reads by reflection). A path already in the zero object gets no "."
// of its own in the creator's managedFields: a Deployment's `f:spec` and `f:template` have none,
// its `f:rollingUpdate` (a pointer) has one.
// Generated from k8s.io/api {TAG}'s Go types by scripts/zero-objects.py: regenerate, do not edit.

import type {{ JSONObject }} from './json.js';

/** By `<apiVersion>/<kind>`, e.g. `apps/v1/Deployment`, `v1/Pod`. */
export const zeroObjects: Readonly<Record<string, JSONObject>> = {{''')
for api_version, pkg, kind in KINDS:
    print(f"  '{api_version}/{kind}': {ts(zero(pkg, kind)[1])},")
print('};')
