#!/usr/bin/env bash
# Captures the parts of sysfs and procfs that `ibkit check` and `ibkit devices` read into a
# fixture tree (the layout of tests/fixtures/sysfs/<name>) and packs it as a tarball, so a
# node's view can be attached to a bug report or added as a test fixture.
#
# Usage: scripts/capture-fixture.sh [-o DIR] [-n NAME] [--root DIR] [--keep-tree]
#   -o, --output DIR  where to put NAME.tar.gz (and NAME/ with --keep-tree);
#                     default ./ibkit-fixture-NAME. Nothing is written anywhere else.
#   -n, --name NAME   name of the tree; default: the short host name
#   --root DIR        read DIR instead of / (a fixture tree, an extracted capture)
#   --keep-tree       keep the unpacked tree next to the tarball
#
# What it copies (paths relative to the root):
#   sys/class/infiniband/*  the links, each device directory, its ports (attributes,
#                           counters, hw_counters, gids, pkeys, gid_attrs) and `device`
#   sys/class/net/*         the links and each interface's attributes, `device`, master/upper/lower
#   sys/bus/pci/devices/*   every PCI function's identity, NUMA node, PCIe link, `driver`
#   sys/module/*            every module directory; initstate, refcnt, version
#   sys/kernel/mm/memory_peers/*   registered peer-memory clients (GPUDirect RDMA)
#   sys/devices/system/cpu, .../node   CPU list, topology, cpufreq policies, NUMA nodes
#   proc/self/limits, proc/sys/kernel/hostname, and `ip -o addr show` as ip-addr.txt
#   `ibv_devinfo` as ibv_devinfo.txt (the ports' active MTU is in no sysfs file)
# Symlinks are recreated with the same relative text sysfs gives them. Files that cannot
# be read (write-only attributes, empty GID entries) are skipped and counted.
# The capture holds host names, addresses, MACs and GUIDs: look at it before sharing it.
set -euo pipefail
shopt -s nullglob

prog=${0##*/}
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 2; }
note() { printf '%s: %s\n' "$prog" "$*" >&2; }

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }

src=/
out=""
name=""
keep_tree=0
while [ $# -gt 0 ]; do
  case "$1" in
    -o|--output) [ $# -ge 2 ] || die "$1 needs a directory"; out=$2; shift 2 ;;
    -n|--name) [ $# -ge 2 ] || die "$1 needs a name"; name=$2; shift 2 ;;
    --root) [ $# -ge 2 ] || die "$1 needs a directory"; src=$2; shift 2 ;;
    --keep-tree) keep_tree=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done

for tool in realpath head tar mkdir ln readlink; do
  command -v "$tool" >/dev/null || die "needs '$tool'"
done
[ -d "$src" ] || die "--root $src: not a directory"
src=$(cd "$src" && pwd -P)
if [ "$src" = / ]; then srcp=""; else srcp=$src; fi

if [ -z "$name" ]; then
  name=$(head -n1 "$srcp/proc/sys/kernel/hostname" 2>/dev/null || true)
  name=${name%%.*}
  [ -n "$name" ] || name=node
fi
case "$name" in
  *[!A-Za-z0-9._-]*|.*|"") die "--name '$name': use letters, digits, '.', '_' and '-'" ;;
esac
[ -n "$out" ] || out="./ibkit-fixture-$name"
mkdir -p -- "$out"
out=$(cd "$out" && pwd -P)
tree=$out/$name
[ ! -e "$tree" ] || die "$tree already exists; remove it or pick another --name/--output"
[ ! -e "$tree.tar.gz" ] || die "$tree.tar.gz already exists"
mkdir -- "$tree"

if command -v timeout >/dev/null; then read_cmd=(timeout 5 head -c 65536 --); else read_cmd=(head -c 65536 --); fi

copied=0
unreadable=0
declare -A seen=()

# dest REL: sets DEST to the tree path for REL, or fails when REL could land outside the tree
# (absolute, "..", or a parent directory that is a symlink leading out). The last
# component is not resolved: it is the file or link about to be (re)written. Creates the
# parent directory; parents already checked are remembered.
declare -A parent_ok=()
DEST=""
dest() {
  local rel=$1 dir parent
  case "$rel" in ""|/*) return 1 ;; esac
  case "/$rel/" in */../*|*/./*|*//*) return 1 ;; esac
  case "$rel" in */*) dir=${rel%/*} ;; *) dir=. ;; esac
  parent=${parent_ok[$dir]:-}
  if [ -z "$parent" ]; then
    parent=$(realpath -m -- "$tree/$dir") || return 1
    case "$parent/" in "$tree"/*) ;; *) return 1 ;; esac
    [ -d "$parent" ] || mkdir -p -- "$parent"
    parent_ok[$dir]=$parent
  fi
  DEST=$parent/${rel##*/}
}

# attr REL: copies one attribute file when the source has it and it can be read.
attr() {
  local rel=$1 file
  [ -f "$srcp/$rel" ] || return 0
  dest "$rel" || return 0
  file=$DEST
  if "${read_cmd[@]}" "$srcp/$rel" >"$file" 2>/dev/null; then
    copied=$((copied + 1))
  else
    rm -f -- "$file"
    unreadable=$((unreadable + 1))
  fi
}

attrs() { local dir=$1 a; shift; for a in "$@"; do attr "$dir/$a"; done; }

# all_attrs DIR: every regular file directly in DIR (not uevent, not symlinks).
all_attrs() {
  local dir=$1 f base
  for f in "$srcp/$dir"/*; do
    base=${f##*/}
    [ -f "$f" ] && [ ! -L "$f" ] && [ "$base" != uevent ] && attr "$dir/$base"
  done
  return 0
}

# link REL: recreates the symlink REL with the same (relative) text.
link() {
  local rel=$1 target file
  [ -L "$srcp/$rel" ] || return 0
  target=$(readlink -- "$srcp/$rel")
  case "$target" in /*) note "skipping absolute link $rel -> $target"; return 0 ;; esac
  dest "$rel" || return 0
  file=$DEST
  ln -sfn -- "$target" "$file"
}

# resolve REL: the canonical path REL leads to, relative to the root; fails outside it.
resolve() {
  local abs
  abs=$(realpath -e -- "$srcp/$1" 2>/dev/null) || return 1
  if [ -z "$srcp" ]; then
    printf '%s\n' "${abs#/}"
  else
    case "$abs" in "$srcp"/*) printf '%s\n' "${abs#"$srcp"/}" ;; *) return 1 ;; esac
  fi
}

# driver_of REL: the `driver` link of a device and, in the driver's directory, its
# link back to the device and its `module` link.
driver_of() {
  local rel=$1 drv
  [ -L "$srcp/$rel/driver" ] || return 0
  link "$rel/driver"
  drv=$(resolve "$rel/driver") || return 0
  link "$drv/${rel##*/}"
  link "$drv/module"
}

pci_attrs=(vendor device subsystem_vendor subsystem_device class revision numa_node
           local_cpulist enable current_link_speed current_link_width max_link_speed
           max_link_width secondary_bus_number subordinate_bus_number)
net_attrs=(type dev_port dev_id operstate carrier mtu mode pkey umcast address broadcast
           addr_len addr_assign_type ifindex iflink flags tx_queue_len link_mode speed duplex)
cpufreq_attrs=(scaling_governor scaling_available_governors scaling_driver affected_cpus
               related_cpus cpuinfo_min_freq cpuinfo_max_freq scaling_min_freq
               scaling_max_freq scaling_cur_freq)

# ------------------------------------------------------------------ PCI functions
for entry in "$srcp"/sys/bus/pci/devices/*; do
  bdf=${entry##*/}
  link "sys/bus/pci/devices/$bdf"
  dev=$(resolve "sys/bus/pci/devices/$bdf") || continue
  attrs "$dev" "${pci_attrs[@]}"
  driver_of "$dev"
done

# ------------------------------------------------------------------ RDMA devices
rdma_count=0
if [ ! -d "$srcp/sys/class/infiniband" ]; then
  note "no $srcp/sys/class/infiniband: this node has no RDMA device (driver not loaded," \
       "or no rxe/siw link added); capturing the rest"
else
  for entry in "$srcp"/sys/class/infiniband/*; do
    ibdev=${entry##*/}
    link "sys/class/infiniband/$ibdev"
    dev=$(resolve "sys/class/infiniband/$ibdev") || { note "$ibdev: link does not resolve"; continue; }
    rdma_count=$((rdma_count + 1))
    all_attrs "$dev"
    all_attrs "$dev/hw_counters"
    link "$dev/device"
    for port_dir in "$srcp/$dev"/ports/*; do
      port="$dev/ports/${port_dir##*/}"
      all_attrs "$port"
      for sub in counters hw_counters gids pkeys gid_attrs/types gid_attrs/ndevs; do
        all_attrs "$port/$sub"
      done
    done
  done
  [ "$rdma_count" -gt 0 ] || note "$srcp/sys/class/infiniband is empty: no RDMA device"
fi

# ------------------------------------------------------------------ network interfaces
for entry in "$srcp"/sys/class/net/*; do
  ifname=${entry##*/}
  link "sys/class/net/$ifname"
  dev=$(resolve "sys/class/net/$ifname") || continue
  attrs "$dev" "${net_attrs[@]}"
  for l in "$srcp/$dev"/device "$srcp/$dev"/master "$srcp/$dev"/upper_* "$srcp/$dev"/lower_*; do
    link "$dev/${l##*/}"
  done
  # A parent that is not a PCI function (virtio, vmbus): its attributes and driver too.
  if parent=$(resolve "$dev/device") && [ -z "${seen[$parent]:-}" ]; then
    seen[$parent]=1
    case "${parent##*/}" in
      [0-9a-f][0-9a-f][0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f].[0-7]) ;;
      *) all_attrs "$parent"; driver_of "$parent" ;;
    esac
  fi
done

# ------------------------------------------------------------------ modules, peer memory
for entry in "$srcp"/sys/module/*; do
  [ -d "$entry" ] || continue
  mod=${entry##*/}
  dest "sys/module/$mod/initstate" || continue   # makes the directory:
  attrs "sys/module/$mod" initstate refcnt version       # built-ins have no initstate
done
for entry in "$srcp"/sys/kernel/mm/memory_peers/*; do
  all_attrs "sys/kernel/mm/memory_peers/${entry##*/}"
done

# ------------------------------------------------------------------ CPUs and NUMA
cpu=sys/devices/system/cpu
attrs "$cpu" online possible present offline
for entry in "$srcp/$cpu"/cpu[0-9]*; do
  c="$cpu/${entry##*/}"
  attrs "$c" online
  attrs "$c/topology" core_id physical_package_id
  if [ -L "$srcp/$c/cpufreq" ]; then
    link "$c/cpufreq"
    if policy=$(resolve "$c/cpufreq"); then attrs "$policy" "${cpufreq_attrs[@]}"; fi
  elif [ -d "$srcp/$c/cpufreq" ]; then
    attrs "$c/cpufreq" "${cpufreq_attrs[@]}"
  fi
done
node=sys/devices/system/node
attrs "$node" online possible
for entry in "$srcp/$node"/node[0-9]*; do
  attrs "$node/${entry##*/}" cpulist
done

# ------------------------------------------------------------------ procfs, addresses
attr proc/self/limits        # the limits this shell passes on, as ibkit would see them
attr proc/sys/kernel/hostname
if [ -z "$srcp" ]; then
  if command -v ip >/dev/null; then
    ip -o addr show >"$tree/ip-addr.txt" || note "'ip -o addr show' failed"
  else
    note "no 'ip' command: ip-addr.txt not captured"
  fi
elif [ -f "$srcp/ip-addr.txt" ]; then
  attr ip-addr.txt
fi
# The ports' active MTU is in no sysfs file; ibv_devinfo asks the port attributes.
if [ -z "$srcp" ]; then
  if command -v ibv_devinfo >/dev/null; then
    timeout 10 ibv_devinfo >"$tree/ibv_devinfo.txt" 2>/dev/null || note "'ibv_devinfo' failed"
  else
    note "no 'ibv_devinfo' command (ibverbs-utils): ibv_devinfo.txt not captured"
  fi
elif [ -f "$srcp/ibv_devinfo.txt" ]; then
  attr ibv_devinfo.txt
fi

# ------------------------------------------------------------------ links that lead nowhere
dropped=0
while IFS= read -r -d '' l; do
  real=$(realpath -e -- "$l" 2>/dev/null || true)
  case "$real" in
    "$tree"/*) ;;
    *) rm -f -- "$l"; dropped=$((dropped + 1)) ;;
  esac
done < <(find "$tree" -type l -print0)

tar -C "$out" -czf "$tree.tar.gz" -- "$name"
[ "$keep_tree" = 1 ] || rm -rf -- "$tree"

note "$copied files copied, $unreadable unreadable (write-only or empty entries) skipped," \
     "$dropped links outside the capture dropped, $rdma_count RDMA device(s)"
printf '%s\n' "$tree.tar.gz"
