#!/usr/bin/env bash
# Host packages the node agent and its real-kernel tests need: the runc OCI runtime, conmon, a
# static busybox (the busybox image and the test containers' rootfs), and util-linux's unshare
# and mount's mount/umount (pod namespaces pinned to files, overlay roots; both come with Debian),
# and the official Python client for /usr/bin/python3 (test/e2e/pythonclient.test.ts drives it).
# Idempotent: installs only what is missing, and says what it does. Needs root and apt-get;
# without them it prints why and exits 0, and the runtime tests skip with that reason.
set -euo pipefail
pkgs=(runc busybox-static conmon util-linux mount python3-kubernetes)
missing=()
for p in "${pkgs[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    echo "install-host-deps: $p is already installed ($(dpkg-query -W -f='${Version}' "$p"))"
  else
    missing+=("$p")
  fi
done
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
