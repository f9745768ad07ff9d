#!/usr/bin/env bash
# Runs a command as root in a pure cgroup-v2 Linux guest under QEMU (TCG), with the host's files.
# Why: CI hosts of this kind are cgroup v1/hybrid (no v2 memory controller), so cgroup v2
# behaviour (memory.oom.group, memory.events, negative oom_score_adj) is tested in a guest kernel.
# The recipe and its measurements: ../shared/reference/linux-host.md, "Pure cgroup v2 guest under QEMU".
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/vm.sh [--timeout SECONDS] [--memory MiB] [--env NAME=VALUE]… -- CMD [ARGS…]
       scripts/vm.sh --setup     install QEMU and fetch the kernel only (what a first run does)
       scripts/vm.sh --help

Runs CMD as root inside a pure cgroup-v2 Linux guest (QEMU, TCG: no KVM needed) and exits
with CMD's exit code. CMD's stdout and stderr stream to this script's stdout and stderr;
its stdin is /dev/null.

The guest:
  - a Debian kernel (linux-image-*-amd64 of this host's release, unpacked, never installed)
    booted with cgroup_no_v1=all; cgroup2 at /sys/fs/cgroup with every controller it offers
    (memory included) enabled in the root's cgroup.subtree_control.
  - the host's / read-only over virtio-9p (cache=loose) under a tmpfs overlay, so the host's
    node, runc, crun, conmon, busybox and kubectl run unchanged and every path is writable in
    the guest (writes stay in the guest and vanish at power-off); /tmp, /run (and so
    /var/run), /dev/shm are fresh tmpfs.
  - this checkout writable at its own path (written through to the host) and the cwd of CMD.
    The guest caches what it reads: host-side changes made while it runs may not be seen.
  - 2 vCPUs (multi-threaded TCG), 2560 MiB memory, no network device: only loopback, up.
  - root with every capability (CAP_SYS_RESOURCE: negative oom_score_adj works).
  - PID 1 is a shell that reaps orphans; the guest powers off when CMD exits. As under systemd,
    it (and so CMD) sits in the cgroup /init.scope, not in the root cgroup, which lacks the
    controller files of other cgroups (memory.swap.max: a process there sees no swap control).

Options:
  --timeout SECONDS   stop the guest after this long, whole run included (default 600)
  --memory MiB        guest memory (default 2560)
  --env NAME=VALUE    set a variable for CMD (repeatable); CMD otherwise gets PATH, HOME=/root,
                      TERM=dumb and BULKHEAD_IN_VM=1 only (tests use it to know they are inside)
  --setup             only install and fetch (idempotent), then exit 0

First use (as root, with apt-get) installs qemu-system-x86 (--no-install-recommends), cpio and
busybox-static when missing, and downloads the kernel package into .cache/vm/ in this checkout
(downloads: QEMU about 17 MB in 30 packages, the kernel package 70 MB; about 20 s in all here).
A lock makes concurrent first uses safe. Each run then costs about 5 s of boot and power-off.
See the README, "cgroup v2 in a VM: scripts/vm.sh".

Exit status: CMD's; 124 when --timeout expired; 125 when the guest did not report an exit
status (boot failure, kernel panic): both print the guest console's last lines on stderr.
The whole console log of a run is kept in .cache/vm/last-console.log.
EOF
}

timeout_s=600
memory_mib=2560
setup_only=0
envs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --help|-h) usage; exit 0 ;;
    --timeout) timeout_s="${2:?--timeout needs seconds}"; shift 2 ;;
    --timeout=*) timeout_s="${1#--timeout=}"; shift ;;
    --memory) memory_mib="${2:?--memory needs MiB}"; shift 2 ;;
    --memory=*) memory_mib="${1#--memory=}"; shift ;;
    --env) envs+=("${2:?--env needs NAME=VALUE}"); shift 2 ;;
    --env=*) envs+=("${1#--env=}"); shift ;;
    --setup) setup_only=1; shift ;;
    --) shift; break ;;
    *) echo "vm.sh: unknown argument '$1' (the command goes after --; see --help)" >&2; exit 2 ;;
  esac
done
if [ "$setup_only" = 0 ] && [ $# -eq 0 ]; then
  echo "vm.sh: no command given; usage: scripts/vm.sh [OPTIONS] -- CMD [ARGS…] (see --help)" >&2
  exit 2
fi
case "$timeout_s$memory_mib" in *[!0-9]*) echo "vm.sh: --timeout and --memory take whole numbers" >&2; exit 2 ;; esac
for e in "${envs[@]}"; do
  case "$e" in [A-Za-z_]*=*) ;; *) echo "vm.sh: --env wants NAME=VALUE, got '$e'" >&2; exit 2 ;; esac
done

# Inside the guest QEMU is visible (the host's /) but a TCG guest within a TCG guest is useless.
if [ -n "${BULKHEAD_IN_VM:-}" ]; then
  echo "vm.sh: already inside a scripts/vm.sh guest (BULKHEAD_IN_VM is set); not nesting another" >&2
  exit 2
fi
checkout="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cache="$checkout/.cache/vm"
# The checkout's path goes on the kernel command line, which splits at spaces.
case "$checkout" in *[[:space:]]*) echo "vm.sh: the checkout's path '$checkout' contains a space; the guest cannot be given it" >&2; exit 2 ;; esac

say() { echo "vm.sh: $*" >&2; }

# Modules the guest loads from the initramfs, in dependency order (Debian ships them as plain
# .ko files, so busybox insmod needs no depmod). Those built into the kernel are simply absent.
modules=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p overlay)

# --- first use: packages and the kernel, under a lock -------------------------------------------
install_packages() {
  local missing=()
  command -v qemu-system-x86_64 >/dev/null 2>&1 || missing+=(qemu-system-x86)
  command -v cpio >/dev/null 2>&1 || missing+=(cpio)
  # The initramfs has no libc: its busybox must be the static build (Debian's busybox-static).
  local bb
  bb="$(command -v busybox 2>/dev/null || true)"
  if [ -z "$bb" ] || LC_ALL=C grep -qa '/ld-linux' "$bb"; then missing+=(busybox-static); fi
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then say "not root; cannot install ${missing[*]}"; return 1; fi
  if ! command -v apt-get >/dev/null 2>&1; then say "apt-get not found; install ${missing[*]} by hand"; return 1; fi
  say "first use: installing ${missing[*]} with apt-get (--no-install-recommends; QEMU is 30 packages, about 17 MB)…"
  # apt's output goes to a log, shown only when it fails.
  local log="$cache/apt.log"
  if ! { apt-get -o DPkg::Lock::Timeout=300 update && DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=300 --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    tail -n 30 "$log" | sed 's/^/  | /' >&2
    say "apt-get failed (whole log: $log)"
    return 1
  fi
  say "installed ${missing[*]}"
}

fetch_kernel() {
  [ -s "$cache/kernel/ready" ] && return 0
  command -v apt-get >/dev/null 2>&1 || { say "apt-get not found; cannot fetch a Debian kernel"; return 1; }
  local pkg
  # The metapackage names the current kernel of this release (e.g. linux-image-6.1.0-56-amd64).
  pkg="$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -1)"
  if [ -z "$pkg" ]; then
    say "apt-get update (the package lists do not name a kernel yet)…"
    apt-get update -qq >&2
    pkg="$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -1)"
  fi
  [ -n "$pkg" ] || { say "apt-cache names no linux-image-*-amd64 package"; return 1; }
  say "first use: downloading the guest kernel $pkg (apt-get download; unpacked into $cache/kernel, not installed)…"
  local tmp="$cache/kernel.tmp"
  rm -rf "$tmp" && mkdir -p "$tmp/deb"
  # apt-get download drops privileges to _apt, which must be able to write here.
  chmod 0777 "$tmp/deb"
  (cd "$tmp/deb" && apt-get download -qq "$pkg" >&2)
  dpkg-deb -x "$tmp/deb"/*.deb "$tmp/x"
  local vmlinuz
  vmlinuz="$(ls "$tmp"/x/boot/vmlinuz-* | head -1)"
  local kver="${vmlinuz##*/vmlinuz-}"
  mkdir -p "$tmp/out/modules"
  cp "$vmlinuz" "$tmp/out/vmlinuz"
  local m f
  for m in "${modules[@]}"; do
    f="$(find "$tmp/x/lib/modules/$kver" -name "$m.ko" | head -1)"
    [ -n "$f" ] && cp "$f" "$tmp/out/modules/"
  done
  # The uncompressed ELF kernel boots through its PVH entry 2-3 s faster than the bzImage (the
  # decompression under TCG is what it saves). Use it only when it carries the PVH note.
  local off
  off="$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$tmp/out/vmlinuz" | head -1 | cut -d: -f1 || true)"
  # (xz stops at the end of its stream, so tail may die of SIGPIPE: its status is ignored.)
  if [ -n "$off" ] && { tail -c +"$((off + 1))" "$tmp/out/vmlinuz" || true; } | xz -dc --single-stream > "$tmp/out/vmlinux" 2>/dev/null \
     && [ "$(head -c 4 "$tmp/out/vmlinux" | od -An -c | tr -d ' ')" = '177ELF' ] \
     && { ! command -v readelf >/dev/null 2>&1 || readelf -n "$tmp/out/vmlinux" 2>/dev/null | grep -q 'Xen.*0x00000012\|PHYS32_ENTRY'; }; then
    :
  else
    rm -f "$tmp/out/vmlinux"
  fi
  echo "$pkg $kver" > "$tmp/out/ready"
  rm -rf "$cache/kernel"
  mv "$tmp/out" "$cache/kernel"
  rm -rf "$tmp"
  say "kernel $kver ready ($( [ -f "$cache/kernel/vmlinux" ] && echo "uncompressed vmlinux, PVH boot" || echo bzImage)), modules: $(ls "$cache/kernel/modules" | tr '\n' ' ')"
}

mkdir -p "$cache"

exec 9>"$cache/.lock"
flock 9
install_packages || exit 125
fetch_kernel || exit 125
flock -u 9
exec 9>&-
[ "$setup_only" = 1 ] && { say "ready: $(cat "$cache/kernel/ready")"; exit 0; }

# --- this run: an initramfs, the command script, fifos for stdout/stderr -------------------------
run="$(mktemp -d "$cache/run.XXXXXX")"
qemu_pid=
readers=()
cleanup() {
  [ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null || true
  for p in "${readers[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Single-quote a word for the guest's shell.
q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
{
  echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb BULKHEAD_IN_VM=1"
  for e in "${envs[@]}"; do echo "export ${e%%=*}=$(q "${e#*=}")"; done
  printf 'exec'
  for a in "$@"; do printf ' %s' "$(q "$a")"; done
  echo
} > "$run/cmd.sh"

mkdir -p "$run/initrd/bin" "$run/initrd/modules"
for d in dev proc sys lower upper newroot; do mkdir -p "$run/initrd/$d"; done
cp "$(command -v busybox)" "$run/initrd/bin/busybox"
ln -s busybox "$run/initrd/bin/sh"
cp "$cache"/kernel/modules/*.ko "$run/initrd/modules/" 2>/dev/null || true
printf '%s\n' "${modules[@]}" > "$run/initrd/modules/order"
cat > "$run/initrd/init" <<'INIT'
#!/bin/sh
# Stage 1 (initramfs): mount the host's / read-only under a tmpfs overlay, the checkout writable,
# a pure cgroup2, then switch_root into it with stage 2 as PID 1.
export PATH=/bin
B=/bin/busybox
fail() { echo "vm-init: $*"; $B sync; $B reboot -f; }
$B mount -t proc proc /proc
$B mount -t sysfs sysfs /sys
$B mount -t devtmpfs devtmpfs /dev
for m in $($B cat /modules/order); do
  [ -f /modules/$m.ko ] && { $B insmod /modules/$m.ko || fail "insmod $m failed"; }
done
checkout= run=
for w in $($B cat /proc/cmdline); do
  case "$w" in bulkhead_vm_checkout=*) checkout=${w#*=} ;; bulkhead_vm_run=*) run=${w#*=} ;; esac
done
[ -n "$checkout" ] && [ -n "$run" ] || fail "kernel command line lacks bulkhead_vm_checkout/bulkhead_vm_run"
# cache=loose: without it every page fault of an mmapped binary goes to the host (node 3.6-4.8 s a run).
o=trans=virtio,version=9p2000.L,cache=loose,msize=512000
$B mount -t 9p -o ro,$o hostroot /lower || fail "mounting the host's / over 9p failed"
$B mount -t tmpfs -o mode=0755 tmpfs /upper
$B mkdir -p /upper/u /upper/w
$B mount -t overlay -o lowerdir=/lower,upperdir=/upper/u,workdir=/upper/w overlay /newroot || fail "overlay root failed"
$B mount -t proc proc /newroot/proc
$B mount -t sysfs sysfs /newroot/sys
$B mount -t devtmpfs devtmpfs /newroot/dev
$B mkdir -p /newroot/dev/pts /newroot/dev/shm
$B mount -t devpts -o newinstance,ptmxmode=0666 devpts /newroot/dev/pts
$B mount -t tmpfs -o mode=1777 tmpfs /newroot/dev/shm
$B mount -t tmpfs -o mode=1777 tmpfs /newroot/tmp
$B mount -t tmpfs -o mode=0755 tmpfs /newroot/run
# After the fresh /tmp and /run: a checkout below them (CI may clone into /tmp) stays visible.
$B mkdir -p /newroot$checkout
$B mount -t 9p -o rw,$o checkout /newroot$checkout || fail "mounting the checkout over 9p failed"
$B mount -t cgroup2 -o nsdelegate cgroup2 /newroot/sys/fs/cgroup || fail "mounting cgroup2 failed"
# Enable every controller the kernel offers for the children of the root (memory among them).
for c in $($B cat /newroot/sys/fs/cgroup/cgroup.controllers); do
  echo "+$c" > /newroot/sys/fs/cgroup/cgroup.subtree_control || echo "vm-init: could not enable $c"
done
$B mkdir -p /newroot/run/bulkhead-vm
$B cp /bin/busybox /newroot/run/bulkhead-vm/busybox
$B cat > /newroot/run/bulkhead-vm/stage2 <<'STAGE2'
# Stage 2, PID 1 in the guest's root: run the command, reap orphans while waiting, report, power off.
B=/run/bulkhead-vm/busybox
checkout=$1 run=$2
$B hostname bulkhead-vm
# Out of the root cgroup, as systemd puts PID 1: the agent finds its swap controller by
# memory.swap.max in its own cgroup, as the kubelet does, and the root has none.
$B mkdir -p /sys/fs/cgroup/init.scope
echo $$ > /sys/fs/cgroup/init.scope/cgroup.procs || echo "vm-init: could not move PID 1 into /init.scope"
$B ip link set lo up || $B ifconfig lo 127.0.0.1 up
# ttyS1/ttyS2 carry the command's stdout/stderr to the host byte for byte (no \r added).
$B stty -F /dev/ttyS1 raw -echo
$B stty -F /dev/ttyS2 raw -echo
cd "$checkout"
echo "vm-init: running the command ($($B cut -d' ' -f1 /proc/uptime) s after boot)"
# The host's /bin/sh, not busybox's: busybox ash would run its own applets (stat, sh…) in place
# of the host's commands of the same name. env -i drops what the kernel put in PID 1's environment.
$B env -i /bin/sh "$run/cmd.sh" </dev/null >/dev/ttyS1 2>/dev/ttyS2 &
pid=$!
# wait returns for this child only, but ash reaps any other dead child (an orphaned container
# init, reparented to PID 1) while it waits.
wait $pid
rc=$?
echo "$rc" > "$run/rc"
$B sync
echo "vm-init: command exited $rc ($($B cut -d' ' -f1 /proc/uptime) s after boot)"
$B reboot -f
STAGE2
exec $B switch_root /newroot /run/bulkhead-vm/busybox sh /run/bulkhead-vm/stage2 "$checkout" "$run"
INIT
chmod +x "$run/initrd/init"
(cd "$run/initrd" && find . | cpio -o -H newc --quiet) > "$run/initrd.cpio"

kernel="$cache/kernel/vmlinux"
[ -f "$kernel" ] || kernel="$cache/kernel/vmlinuz"
mkfifo "$run/out.in" "$run/out.out" "$run/err.in" "$run/err.out"
# QEMU opens both fifos read-write, so the readers see EOF only when QEMU exits.
cat "$run/out.out" & readers+=($!)
cat "$run/err.out" >&2 & readers+=($!)

console="$cache/last-console.log"
: > "$run/console.log"
start=$(date +%s)
# timeout(1) bounds the whole run: it is a safety net for a guest that hangs, not a measurement.
timeout -k 10 "$timeout_s" qemu-system-x86_64 -accel tcg,thread=multi -smp 2 -m "$memory_mib" \
  -display none -monitor none -no-reboot -nic none \
  -chardev file,id=con,path="$run/console.log" -serial chardev:con \
  -chardev pipe,id=out,path="$run/out" -serial chardev:out \
  -chardev pipe,id=err,path="$run/err" -serial chardev:err \
  -kernel "$kernel" -initrd "$run/initrd.cpio" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs local,path="$checkout",mount_tag=checkout,security_model=none,multidevs=remap \
  -append "console=ttyS0 quiet panic=-1 systemd.unified_cgroup_hierarchy=1 cgroup_no_v1=all bulkhead_vm_checkout=$checkout bulkhead_vm_run=$run" \
  </dev/null >>"$run/console.log" 2>&1 &
qemu_pid=$!
qemu_rc=0
wait "$qemu_pid" || qemu_rc=$?
qemu_pid=
# A reader still blocked in open() (QEMU failed before opening its fifos) is released by an
# open read-write, which counts as a writer; one that is reading gets EOF as QEMU is gone.
: <>"$run/out.out"
: <>"$run/err.out"
# Let the readers drain what QEMU wrote before it exited.
for p in "${readers[@]}"; do wait "$p" 2>/dev/null || true; done
readers=()
cp "$run/console.log" "$console" 2>/dev/null || true
if [ -s "$run/rc" ]; then
  exit "$(cat "$run/rc")"
fi
if [ "$qemu_rc" = 124 ]; then
  say "the guest did not finish within --timeout $timeout_s s; the console's last lines:"
  code=124
else
  say "the guest stopped without reporting an exit status (QEMU exited $qemu_rc after $(( $(date +%s) - start )) s); the console's last lines:"
  code=125
fi
if [ -s "$run/console.log" ]; then tail -n 40 "$run/console.log" | sed 's/^/  | /' >&2; else echo "  | (the console is empty)" >&2; fi
exit "$code"
