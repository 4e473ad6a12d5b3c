#!/bin/bash
# Install the host packages the virtual lab needs, and only those that are missing.
# Idempotent: a second run installs nothing and prints one line.
set -euo pipefail

# qemu + image tools, Debian's kernel (its modules have rdma_rxe), the fabric switch,
# a small initrd, ssh into the guests. python3 runs labctl.
packages=(
  qemu-system-x86 qemu-utils linux-image-amd64 debootstrap e2fsprogs vde2
  openssh-client initramfs-tools zstd python3
)

if [[ $(id -u) -ne 0 ]]; then
  echo "install-deps.sh: must run as root (apt-get install)" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "lab deps: all present"
  exit 0
fi

echo "lab deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# Recommends would pull in firmware, apparmor and GUI bits the lab never uses.
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "lab deps: done"
