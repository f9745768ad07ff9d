#!/usr/bin/env bash
# Host packages the node-agent runtime tests need (test/agent/runtime/): the runc OCI runtime
# and a static busybox used to build the test containers' rootfs.
# Idempotent: installs only what is missing, and says what it does. Needs root and apt-get;
# without them it prints why and exits 0, and the runtime tests skip with that reason.
set -euo pipefail
pkgs=(runc busybox-static conmon)
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
