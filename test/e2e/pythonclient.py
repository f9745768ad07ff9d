# Drives a Bulkhead API server with the official Python client (python3-kubernetes): a watch that
# must stream ADDED and MODIFIED events (the client sends watch=True), and server-side apply that
# must conflict without force and take the field over with force=True. Prints one JSON line.
# Usage: python3 pythonclient.py KUBECONFIG NAMESPACE
import json
import sys
import threading

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException
from kubernetes.dynamic import DynamicClient

config.load_kube_config(config_file=sys.argv[1])
ns = sys.argv[2]
api = client.ApiClient()
v1 = client.CoreV1Api(api)
events = []
watch_error = []
modified = threading.Event()


def watcher():
    try:
        w = watch.Watch()
        for ev in w.stream(v1.list_namespaced_pod, namespace=ns, timeout_seconds=60):
            events.append([ev['type'], ev['object'].metadata.name])
            if ev['type'] == 'MODIFIED' and ev['object'].metadata.name == 'py':
                w.stop()
    except Exception as e:  # reported in the result line
        watch_error.append('%s: %s' % (type(e).__name__, e))
    finally:
        modified.set()


t = threading.Thread(target=watcher, daemon=True)
t.start()
pod = {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': 'py'}, 'spec': {'containers': [{'name': 'c', 'image': 'busybox'}]}}
v1.create_namespaced_pod(ns, pod)
# The watch may start after the first change; keep changing the pod until it sees one.
for i in range(100):
    if modified.wait(0.2):
        break
    v1.patch_namespaced_pod('py', ns, {'metadata': {'labels': {'round': str(i)}}})

dyn = DynamicClient(api)
pods = dyn.resources.get(api_version='v1', kind='Pod')


# This client's REST layer sends an apply-patch+yaml body only when it is already a string.
def applied(owner):
    return json.dumps({'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': 'ssa', 'namespace': ns, 'labels': {'owner': owner}},
                       'spec': {'containers': [{'name': 'c', 'image': 'busybox'}]}})


def apply(owner, **kwargs):
    return dyn.server_side_apply(pods, body=applied(owner), name='ssa', namespace=ns, field_manager=owner, **kwargs)


apply('first')
conflict = None
try:
    apply('second')
except ApiException as e:
    conflict = {'status': e.status, 'reason': json.loads(e.body).get('reason')}
forced = apply('second', force_conflicts=True)
owners = sorted(m['manager'] for m in forced.to_dict()['metadata']['managedFields']
                if 'f:owner' in json.dumps(m.get('fieldsV1', {})))
print(json.dumps({'events': events, 'watchError': watch_error, 'conflict': conflict,
                  'label': forced.metadata.labels['owner'], 'labelOwners': owners}))
