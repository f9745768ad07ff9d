#!/usr/bin/env bash
# Host packages the node agent and its real-kernel tests need: the runc and crun OCI runtimes
# (the agent takes crun where the host's cgroups suit it, runc otherwise), conmon, a
# static busybox (the busybox image and the test containers' rootfs), and util-linux's unshare
# and mount's mount/umount (pod namespaces pinned to files, overlay roots; both come with Debian).
# This is the one list: `./bulkhead up|agent` and `./run-tests` both come here.
#
# A package counts as present when the command it provides is on PATH (so a runc installed by
# hand counts too, as it does for the agent, which looks runc and conmon up on PATH).
#
#   install-host-deps.sh          installs what is missing, saying what it does. Idempotent.
#                                 Without root or apt-get it prints why and exits 0 (the runtime
#                                 tests then skip with that reason).
#   install-host-deps.sh --check  prints the missing packages on one line, space-separated, and
#                                 exits 1 when some are missing; prints nothing and exits 0 otherwise.
#   --tests (before either)       adds what only the test suite needs: the official Python client
#                                 for /usr/bin/python3 (test/e2e/pythonclient.test.ts drives it),
#                                 etcd-server (/usr/bin/etcd: the storage and API server suites also
#                                 run on an etcd they start, test/storage/etcdserver.ts), and
#                                 iproute2's ip (test/e2e/multinode.test.ts makes network
#                                 namespaces and veth pairs; nsenter comes with util-linux).
set -euo pipefail
# package:command that proves it is installed (a path: a file that proves it)
pkgs=(runc:runc crun:crun busybox-static:busybox conmon:conmon util-linux:unshare mount:mount)
if [ "${1:-}" = --tests ]; then
  pkgs+=(python3-kubernetes:/usr/lib/python3/dist-packages/kubernetes/__init__.py etcd-server:/usr/bin/etcd iproute2:ip)
  shift
fi
missing=()
for entry in "${pkgs[@]}"; do
  p="${entry%%:*}" cmd="${entry#*:}"
  if { [ "${cmd#/}" != "$cmd" ] && [ -e "$cmd" ]; } || { [ "${cmd#/}" = "$cmd" ] && command -v "$cmd" >/dev/null 2>&1; }; then
    [ "${1:-}" = --check ] || echo "install-host-deps: $p is already installed ($([ "${cmd#/}" != "$cmd" ] && echo "$cmd" || command -v "$cmd"))"
  else
    missing+=("$p")
  fi
done
if [ "${1:-}" = --check ]; then
  [ "${#missing[@]}" -eq 0 ] && exit 0
  echo "${missing[*]}"
  exit 1
fi
if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-host-deps: nothing to do"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-host-deps: not root; cannot install ${missing[*]} (the runtime tests will skip)" >&2
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-host-deps: apt-get not found; install ${missing[*]} by hand (the runtime tests will skip)" >&2
  exit 0
fi
echo "install-host-deps: apt-get update"
apt-get update
echo "install-host-deps: apt-get install -y ${missing[*]}"
DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
echo "install-host-deps: done"
