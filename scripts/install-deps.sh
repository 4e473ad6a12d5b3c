#!/usr/bin/env bash
# Installs the Debian packages a part of ibkit needs, only those missing, so a second run is
# quick and silent. Usage: scripts/install-deps.sh GROUP...   (build, ansible, host, lab, fuzz, subnet)
set -euo pipefail

packages_for() {
  case "$1" in
    # help2man, dpkg-dev (dpkg-shlibdeps), rpm (rpmbuild), python3-jinja2 and python3-yaml: make
    # package (packaging/). ccache: every compile of either compiler goes through it (CMakeLists.txt).
    build) echo cmake ninja-build ccache g++ pkg-config libibverbs-dev librdmacm-dev libcli11-dev \
                libtomlplusplus-dev catch2 nlohmann-json3-dev libssl-dev clang-format shellcheck \
                python3-prometheus-client help2man dpkg-dev rpm python3-jinja2 python3-yaml \
                libibnetdisc-dev libibmad-dev libibumad-dev ;;
    # python3-azure and friends: Debian's Azure SDK, which azure.azcollection's inventory plugin
    # (inventory/azure) imports; openssl, iproute2 and util-linux (unshare) for its local test.
    ansible) echo ansible ansible-lint yamllint python3-apt python3-azure python3-msrest python3-msrestazure \
                  python3-adal python3-azure-cli-core openssl iproute2 util-linux ;;
    # lintian, man-db and systemd: tests/package/check_package.sh inspects the .deb of make package;
    # rpmlint and cpio: tests/package/check_rpm.sh, the .rpm.
    host) echo iproute2 procps chromium openssl lintian man-db groff-base systemd rpmlint cpio ;;
    # ansible-mitogen: the lab's plays with one Python per VM instead of one per task (tests/lab/lib.sh).
    lab) echo python3 ansible-mitogen qemu-system-x86 qemu-utils linux-image-amd64 debootstrap e2fsprogs vde2 \
              openssh-client initramfs-tools zstd ;;
    # The fuzz tier: clang with its sanitizer runtimes and libFuzzer (fuzz/run.sh).
    fuzz) echo clang-14 libclang-rt-14-dev libfuzzer-14-dev ;;
    # The subnet tier (tests/subnet/run.sh): the simulated fabric, the real SM and diagnostics, and
    # Debian's python3 with what renders the opensm role (jinja2, yaml, ansible's module_utils).
    # opensm's libraries only: the tier unpacks opensm itself, so this machine gets no SM service.
    subnet) echo ibsim-utils libumad2sim0 libopensm9 libosmcomp5 libosmvendor5 libwrap0 infiniband-diags \
                 iproute2 procps python3 python3-jinja2 python3-yaml ansible-core ;;
    *) echo "install-deps.sh: unknown group '$1'; use build, ansible, host, lab, fuzz or subnet" >&2; return 2 ;;
  esac
}

wanted=()
for group in "$@"; do
  list=$(packages_for "$group") || exit 2
  for package in $list; do wanted+=("$package"); done
done
[ ${#wanted[@]} -gt 0 ] || { echo "usage: $0 build|ansible|host|lab|fuzz|subnet ..." >&2; exit 2; }

missing=()
for package in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
  [ "$status" = installed ] || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: missing ${missing[*]}; run as root (or: sudo apt-get install ${missing[*]})" >&2
  exit 3
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# The lab wants linux-image-amd64 for its vmlinuz and modules and makes its own small initrd
# (tests/lab/lablib/image.py); an initramfs for this machine to boot it cost 155 s of a cold run.
export INITRD=No
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
