#!/usr/bin/env bash
# The Ansible tier: lint, syntax, argument specs, preflight on good and wrong inventories,
# the roles' probe modules on sysfs fixtures, and the agent config each inventory renders.
# Offline and on the controller only: no test connects to a host. Every inventory host is
# pointed at 127.0.0.1 port 1 (nothing listens there), so a play that wrongly tried to
# connect would show UNREACHABLE at once, and the tests look for that.
# Prints one line per test and ends with "N passed, N failed[, N skipped]"; exit 1 on any failure.
# IBKIT_ANSIBLE_QUICK=1 skips the check-mode run of every role (ignored when CI is set).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root=$PWD

# --- tools ----------------------------------------------------------------------------------
missing=()
for tool in ansible-playbook ansible-lint yamllint timeout; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if ((${#missing[@]})); then
  echo "tests/ansible/run.sh: missing ${missing[*]}; install them with: apt-get install ansible ansible-lint yamllint" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
# The ipoib role's address checks use ansible.utils' ipaddr filters, which need netaddr in
# the Python that runs ansible-playbook (Debian's ansible package depends on python3-netaddr).
ansible_python=$(head -n1 "$(command -v ansible-playbook)" | sed -e 's/^#! *//' -e 's/ .*//')
if ! "$ansible_python" -c 'import netaddr' 2>/dev/null; then
  echo "tests/ansible/run.sh: $ansible_python cannot import netaddr; install python3-netaddr" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
# The check-mode test runs the apt module on this machine, which needs python3-apt there.
if [ -f /etc/debian_version ] && ! /usr/bin/python3 -c 'import apt' 2>/dev/null; then
  echo "tests/ansible/run.sh: /usr/bin/python3 cannot import apt; install python3-apt" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

export ANSIBLE_CONFIG=$root/ansible.cfg
export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 PY_COLORS=0 NO_COLOR=1
export ANSIBLE_DEPRECATION_WARNINGS=0

work=$(mktemp -d "${TMPDIR:-/tmp}/ibkit-ansible-tests.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Every inventory host goes to a closed loopback port; the agent binary is a stub file
# (preflight checks that it exists on the controller, nothing runs it).
touch "$work/ibkit-agent-stub"
offline=(-e ansible_host=127.0.0.1 -e ansible_port=1 -e "ibkit_agent_binary=$work/ibkit-agent-stub")
playbooks=(playbooks/*.yml)

# A lab inventory as the lab driver writes it (hosts.yml is generated there, never committed).
mkdir -p "$work/lab"
cp -r inventory/lab/group_vars "$work/lab/"
cat >"$work/lab/hosts.yml" <<'EOF'
all:
  children:
    ibkit_nodes:
      hosts:
        lab1: {ibkit_fabric_address: 192.168.77.11, ibkit_fabric_netdev: ens4}
        lab2: {ibkit_fabric_address: 192.168.77.12, ibkit_fabric_netdev: ens4}
EOF
# The Azure group_vars on static hosts with the sizes the inventory plugin would find
# (t_azure_inventory runs the plugin itself against a local stand-in for Azure).
mkdir -p "$work/azure"
cp -r inventory/azure/group_vars "$work/azure/"
cat >"$work/azure/hosts.yml" <<'EOF'
all:
  children:
    ibkit_nodes:
      hosts:
        hb-0: {ibkit_vm_size: Standard_HB120rs_v3}
        nd-0: {ibkit_vm_size: Standard_ND96isr_H100_v5}
EOF

passed=0
failed=0
skipped=0
failures=()

# run_test NAME SECONDS FUNCTION: runs FUNCTION under a time limit with its output in a log;
# on failure prints the log's tail.
run_test() {
  local name=$1 limit=$2 fn=$3 log="$work/$3.log" start status
  start=$(date +%s)
  timeout "$limit" bash -c "$(declare -f "$fn" expect_in expect_not_in expect_rc_not_zero played_only_preflight \
    preflight_and_render wrong_inventory); \
    root='$root' work='$work'; $(declare -p offline playbooks ansible_python); $fn" >"$log" 2>&1
  status=$?
  local seconds=$(($(date +%s) - start))
  if [ $status -eq 0 ]; then
    passed=$((passed + 1))
    echo "PASS  $name (${seconds}s)"
  elif [ $status -eq 77 ]; then
    skipped=$((skipped + 1))
    echo "SKIP  $name: $(tail -n1 "$log")"
  else
    failed=$((failed + 1))
    failures+=("$name")
    [ $status -eq 124 ] && echo "timed out after ${limit}s" >>"$log"
    echo "FAIL  $name (${seconds}s)"
    tail -n 25 "$log" | sed 's/^/      | /'
  fi
}

# Helpers used inside tests (exported into run_test's shell with declare -f).
expect_in() { # FILE TEXT...: every TEXT occurs in FILE
  local file=$1; shift
  for text in "$@"; do
    grep -qF -- "$text" "$file" || { echo "expected to find: $text"; return 1; }
  done
}
expect_not_in() { # FILE TEXT...: no TEXT occurs in FILE
  local file=$1; shift
  for text in "$@"; do
    if grep -qF -- "$text" "$file"; then echo "did not expect: $text"; return 1; fi
  done
}
expect_rc_not_zero() { # RC: a wrong inventory must fail the run
  [ "$1" -ne 0 ] || { echo "the run succeeded but should have failed"; return 1; }
}
played_only_preflight() { # FILE: the run stopped in preflight, before any play that changes hosts
  local plays
  plays=$(grep -c '^PLAY \[' "$1")
  [ "$plays" -eq 1 ] || { echo "expected only the preflight play, saw $plays plays"; return 1; }
  expect_in "$1" "PLAY [Preflight - check the inventory before any change]" || return 1
  expect_not_in "$1" "Gathering Facts" "UNREACHABLE" "changed: [" || return 1
}

# --- tests ----------------------------------------------------------------------------------
t_yamllint() {
  yamllint --strict -c .yamllint .yamllint .ansible-lint roles playbooks inventory tests/ansible
}

t_ansible_lint() {
  ansible-lint --nocolor >"$work/lint.out" 2>&1
  local rc=$?
  cat "$work/lint.out"
  [ $rc -eq 0 ] && expect_in "$work/lint.out" "Passed with production profile: 0 failure(s), 0 warning(s)"
}

t_variables_documented() { "$ansible_python" tests/ansible/check_variables.py; }
# docs/variables.md is generated from the argument specs and defaults (scripts/variables-doc.py).
t_variables_doc() { "$ansible_python" scripts/variables-doc.py --check; }

# inventory/azure with the real azure_rm plugin and Debian's Azure SDK against a local HTTPS
# stand-in for Azure Resource Manager, in a network namespace of its own: only loopback exists
# there, so nothing the SDK tries can leave the machine.
t_azure_inventory() {
  if ! unshare -n true 2>/dev/null; then
    echo "cannot create a network namespace (unshare -n needs root): the test would reach beyond loopback"
    return 77
  fi
  "$ansible_python" -c 'import msrestazure, azure.mgmt.compute, azure.cli.core' ||
    { echo "install python3-azure python3-msrestazure python3-azure-cli-core (scripts/install-deps.sh ansible)"; return 1; }
  unshare -n -- "$ansible_python" tests/ansible/check_azure_inventory.py
}

# Every play of every playbook names groups the example inventories have (empty where unused):
# otherwise each run warns "Could not match supplied host pattern" (homelab and slurm_nodes did).
# The lab's inventory is the one labctl writes (tests/lab/lablib/inventory.py).
t_host_patterns() {
  local inv out status=0
  PYTHONPATH=tests/lab "$ansible_python" -c '
import sys
from types import SimpleNamespace as Node
from lablib import inventory
sys.stdout.write(inventory.render([Node(name="lab1", ssh_port=2201, fabric_address="192.168.77.11")]))
' >"$work/lab-written.yml" || return 1
  for inv in inventory/homelab "$work/lab-written.yml"; do
    out=$(ansible-playbook --list-hosts -i "$inv" "${playbooks[@]}" 2>&1) || { echo "$out" | tail -5; return 1; }
    if grep -i "could not match supplied host pattern" <<<"$out"; then echo "  in $inv"; status=1; fi
  done
  return $status
}
t_syntax_homelab() { ansible-playbook --syntax-check -i inventory/homelab "${playbooks[@]}"; }
t_syntax_lab() { ansible-playbook --syntax-check -i "$work/lab" "${playbooks[@]}"; }
t_syntax_azure() { ansible-playbook --syntax-check -i "$work/azure" "${playbooks[@]}"; }

t_argument_specs() {
  local out="$work/argspec.out" cases
  ansible-playbook --check tests/ansible/argument_specs.yml >"$out" 2>&1
  local rc=$?
  grep -o 'ARGSPEC [A-Z]* [^|]*' "$out"
  cases=$(grep -c '^      - {role:' tests/ansible/argument_specs.yml)
  [ $rc -eq 0 ] || { tail -n 20 "$out"; return 1; }
  [ "$(grep -o 'ARGSPEC OK' "$out" | wc -l)" -eq "$cases" ] || { echo "expected $cases rejections"; return 1; }
  expect_in "$out" "rescued=$cases"
}

# preflight.yml on a good inventory, then the agent config of every node rendered offline
# into $work/toml-NAME/ (tests/ansible/preflight_and_render.yml); t_agent_config reads those.
preflight_and_render() { # NAME INVENTORY HOST...
  local name=$1 inventory=$2 out="$work/pf-$1.out"
  shift 2
  mkdir -p "$work/toml-$name"
  ansible-playbook -i "$inventory" tests/ansible/preflight_and_render.yml -e "ibkit_test_out=$work/toml-$name" \
    "${offline[@]}" >"$out" 2>&1 || { cat "$out"; return 1; }
  sed -n '/^PLAY RECAP/,$p' "$out"
  for host in "$@"; do expect_in "$out" "$host " || return 1; done
  expect_in "$out" "PLAY [Preflight - check the inventory before any change]" &&
    expect_not_in "$out" "UNREACHABLE" "failed=1" "fatal:"
}
t_preflight_homelab() { preflight_and_render homelab inventory/homelab viper columbia prometheus; }
t_preflight_lab() { preflight_and_render lab "$work/lab" lab1 lab2; }
t_preflight_azure() { preflight_and_render azure "$work/azure" hb-0 nd-0; }

# One node per VM size of the Azure SKU table and one size it does not know: each ibkit.toml must
# hold what Azure publishes for the size (tests/ansible/check_azure_skus.py, which also fails
# when the table and its own list of sizes differ). t_agent_parses_config parses them too.
t_azure_skus() {
  "$ansible_python" tests/ansible/check_azure_skus.py inventory "$work/azure-skus" || return 1
  preflight_and_render azure-skus "$work/azure-skus" standard-hb120rs-v3 standard-nd96isr-mi300x-v5 || return 1
  expect_in "$work/pf-azure-skus.out" "standard-d4s-v5: Standard_D4s_v5 is not in the Azure SKU table" || return 1
  expect_not_in "$work/pf-azure-skus.out" "standard-hb120rs-v3: Standard_HB120rs_v3 is not" || return 1
  "$ansible_python" tests/ansible/check_azure_skus.py check "$work/toml-azure-skus" || return 1
  # Seed 004's HBv3 (the fixture) meets its own size's ibkit.toml and fails HBv4's (NDR 400).
  local agent=${IBKIT_AGENT:-$root/${BUILD_DIR:-build}/agent/ibkit} fixture=tests/fixtures/sysfs/azure-hbv3-cx6vf
  if [ ! -x "$agent" ]; then echo "no agent at $agent: the fixture cross-check needs it (make build)"; return 1; fi
  "$agent" check --root "$fixture" --config "$work/toml-azure-skus/standard-hb120rs-v3.toml" || return 1
  # docs/azure.md shows that check as its sample (scripts/doc-samples.py; the unit tier checks
  # the samples that need no rendered file).
  HBV3_TOML=$work/toml-azure-skus/standard-hb120rs-v3.toml python3 scripts/doc-samples.py "$agent" --check docs/azure.md || return 1
  if "$agent" check --root "$fixture" --config "$work/toml-azure-skus/standard-hb176rs-v4.toml" >"$work/hbv4-on-hbv3.out"; then
    echo "the HBv3 fixture passed HBv4's expectations"
    return 1
  fi
  grep -E '^fail +port\.rate +mlx5_ib0/1 .*>= 400 Gb/s data' "$work/hbv4-on-hbv3.out"
}

# validate.yml's fabric address: on Azure the node's IPoIB address, read on the node (never eth0).
t_validate_address() { ansible-playbook tests/ansible/validate_address.yml; }

# Azure: the ipoib role lets the VM agent address ib0 (OS.EnableRDMA=y in /etc/waagent.conf), in
# check mode on this machine against copies of that file (ibkit_test_sysfs_root): set where the
# image has it commented out, unchanged where it is set, left alone (and said) without waagent.
t_waagent_rdma() {
  local inv="$work/waagent" out="$work/waagent.out" host
  mkdir -p "$inv" "$work/waagent-commented/etc" "$work/waagent-set/etc" "$work/waagent-none"
  cp -r inventory/azure/group_vars "$inv/"
  printf '%s\n' '# Enable RDMA management and set up, should only be used with HPC images' '# OS.EnableRDMA=y' \
    'OS.EnableSwap=n' >"$work/waagent-commented/etc/waagent.conf"
  printf '%s\n' 'OS.EnableRDMA=y' 'OS.EnableSwap=n' >"$work/waagent-set/etc/waagent.conf"
  cat >"$inv/hosts.yml" <<EOF2
all:
  vars:
    ansible_connection: local
    ibkit_vm_size: Standard_HB120rs_v3
  children:
    ibkit_nodes:
      hosts:
        azure-commented: {ibkit_test_sysfs_root: $work/waagent-commented}
        azure-set: {ibkit_test_sysfs_root: $work/waagent-set}
        azure-none: {ibkit_test_sysfs_root: $work/waagent-none}
EOF2
  ansible-playbook -i "$inv" --check --diff -e ansible_become=false playbooks/ipoib.yml >"$out" 2>&1
  local rc=$?
  sed -n '/^PLAY RECAP/,$p' "$out"
  [ $rc -eq 0 ] || { cat "$out"; return 1; }
  expect_in "$out" "-# OS.EnableRDMA=y" "+OS.EnableRDMA=y" "azure-none has no $work/waagent-none/etc/waagent.conf" \
    "ipoib skipped on azure-set: waagent gives ib0 its address on Azure" || return 1
  grep -qE '^azure-commented +: .*changed=1 ' "$out" || { echo "azure-commented should change once"; return 1; }
  for host in azure-set azure-none; do
    grep -qE "^$host +: .*changed=0 " "$out" || { echo "$host should not change"; return 1; }
  done
  if grep -q '^OS.EnableRDMA=y' "$work/waagent-commented/etc/waagent.conf"; then
    echo "check mode wrote waagent.conf"
    return 1
  fi
}

# A wrong inventory runs the whole site.yml: it must stop in preflight, naming the variable.
# wrong_inventory NAME OVERLAY EXPECTED...: the homelab inventory with OVERLAY on top.
wrong_inventory() {
  local out="$work/wrong-$1.out" overlay=$2
  shift 2
  ansible-playbook -i inventory/homelab -i "tests/ansible/inventories/$overlay" playbooks/site.yml \
    "${offline[@]}" >"$out" 2>&1
  local rc=$?
  cat "$out"
  expect_rc_not_zero $rc && played_only_preflight "$out" && expect_in "$out" "$@"
}
t_wrong_two_masters() {
  wrong_inventory sm two_masters.yml "Two master subnet managers" "subnet_manager" "viper and prometheus" "opensm_fabric"
}
t_wrong_ipoib_subnet() {
  wrong_inventory ipoib ipoib_outside_subnet.yml \
    "ipoib_address 172.16.51.12/24 of columbia is outside its ipoib_subnet 172.16.50.0/24"
}
# Four mistakes in three roles on three hosts: one run names them all, each with its host and role.
t_wrong_many() {
  wrong_inventory many many_problems.yml \
    "viper: memlock_limt is no variable of the memlock role; did you mean memlock_limit?" \
    "prometheus: cpu_governor: Validation of arguments failed: value of cpu_governor_name must be one of" \
    "columbia: ipoib: ipoib_address 172.16.51.12/24 of columbia is outside its ipoib_subnet" \
    "columbia: ibkit_agent: ibkit_agent_thresholds.fleet_min_bandwidth_ratio must be a fraction"
}
t_wrong_platform() {
  wrong_inventory platform unknown_platform.yml "ibkit_platform of prometheus is 'onprem'" "homelab, azure or lab"
}

# validate.yml's sweep must read the node's ibkit.toml, or its [thresholds] never judge a pair.
t_sweep_argv() { ansible-playbook -i localhost, -c local tests/ansible/sweep_argv.yml; }

# validate.yml's server failing to start: the play says why, in the server's words.
t_serve_failure() {
  local bin="$work/serve-failure-bin"
  mkdir -p "$bin"
  printf '#!/bin/sh\necho "Job for ibkit-validate-serve.service failed because the control process exited with error code." >&2\nexit 1\n' >"$bin/systemd-run"
  printf '#!/bin/sh\necho "ibkit serve: --key-file /run/ibkit-validate/serve-failure-test/key: cannot read (No such file or directory)"\n' >"$bin/journalctl"
  chmod +x "$bin/systemd-run" "$bin/journalctl"
  PATH="$bin:$PATH" ansible-playbook -i localhost, -c local tests/ansible/serve_failure.yml
}

t_wrong_fleet_ratio() {
  wrong_inventory fleet fleet_ratio_out_of_range.yml "ibkit_agent_thresholds.fleet must be true or false" \
    "ibkit_agent_thresholds.fleet_min_bandwidth_ratio must be a fraction above 0 and at most 1"
}

t_probe_modules() {
  ANSIBLE_LIBRARY=$(printf '%s:' "$root"/roles/*/library) ansible-playbook tests/ansible/probes.yml
}

# The agent config each inventory rendered (in the preflight tests): the expected values.
t_agent_config() {
  ls "$work"/toml-*/*.toml || return 1
  expect_in "$work/toml-homelab/viper.toml" 'link_layer = "InfiniBand"' 'min_rate_gbps = 32.0' \
    'modules = ["ib_ipoib", "ib_umad", "ib_uverbs"]' 'memlock = "unlimited"' 'cpu_governor = "performance"' \
    'ipoib = true' '[thresholds]' 'max_latency_us = 5.0' 'min_bandwidth_fraction = 0.8' 'platform = "homelab"' \
    'ipoib_mode = "auto"' 'loopback = false' || return 1
  expect_in "$work/toml-lab/lab2.toml" 'link_layer = "Ethernet"' \
    'modules = ["ib_ipoib", "ib_umad", "ib_uverbs", "rdma_rxe"]' 'gpu_direct = "off"' 'ipoib = false' 'pcie = false' \
    'loopback = true' || return 1
  expect_not_in "$work/toml-lab/lab2.toml" 'min_rate_gbps' '[thresholds]' || return 1
  expect_in "$work/toml-azure/nd-0.toml" 'min_rate_gbps = 400.0' 'port_count = 8' 'gpu_direct = "required"' \
    'cpu_governor = "any"' 'ipoib = true' 'ipoib_mode = "any"' 'platform = "azure"' || return 1
  expect_in "$work/toml-azure/hb-0.toml" 'min_rate_gbps = 200.0' 'port_count = 1' 'gpu_direct = "off"' 'min_bandwidth_gbps = 160.0'
}

# The roles' main paths, end to end, in check mode on this machine: three nodes that all
# connect locally. lab-node has the lab's variables (Soft-RoCE on the loopback interface, which
# holds its fabric address); mthca-node and cx4-node have the homelab's variables, and their
# probes read sysfs trees copied from real machines (ibkit_test_sysfs_root): a dual-port
# InfiniHost that runs the SM (connected IPoIB, MTU 65520) and a ConnectX-4 with an NVIDIA GPU
# (datagram IPoIB). Every task must template and run; nothing may change on disk.
t_site_check_mode_localhost() {
  if [ -n "${IBKIT_ANSIBLE_QUICK:-}" ] && [ -z "${CI:-}" ]; then
    echo "IBKIT_ANSIBLE_QUICK is set (never in CI): the slowest test, ~2 min on 2 cores"
    return 77
  fi
  local inv="$work/localhost" out="$work/check-localhost.out" paths before after fixtures="$root/tests/fixtures/sysfs"
  local site_playbooks
  mkdir -p "$inv/host_vars"
  cp inventory/lab/group_vars/all.yml "$inv/host_vars/lab-node.yml"
  cp inventory/homelab/group_vars/all.yml "$inv/host_vars/mthca-node.yml"
  cp inventory/homelab/group_vars/all.yml "$inv/host_vars/cx4-node.yml"
  # rdma_core would only repeat lab-node's package run (apt simulation costs ~6 s a node).
  sed -i '/^rdma_core_enabled:/d' "$inv/host_vars/mthca-node.yml" "$inv/host_vars/cx4-node.yml"
  printf '%s\n' "ibkit_test_sysfs_root: $fixtures/mthca-ddr-2port" "ipoib_host_index: 10" \
    "ipoib_network_stack: networkd" "rdma_core_enabled: false" >>"$inv/host_vars/mthca-node.yml"
  printf '%s\n' "ibkit_test_sysfs_root: $fixtures/cx4-qdr-gpu" "ipoib_host_index: 11" \
    "ipoib_network_stack: networkmanager" "rdma_core_enabled: false" \
    "ibkit_agent_metrics_dir: /var/lib/prometheus/node-exporter" \
    "ibkit_agent_package: $work/ibkit_0.1.0_amd64.deb" >>"$inv/host_vars/cx4-node.yml"
  # cx4-node installs the agent from a package (make package's .deb; any file will do in check mode).
  echo "not a package" >"$work/ibkit_0.1.0_amd64.deb"
  cat >"$inv/hosts.yml" <<EOF2
all:
  vars:
    ansible_connection: local
  children:
    ibkit_nodes:
      hosts:
        lab-node:
          ibkit_fabric_address: 127.0.0.1
        mthca-node:
        cx4-node:
    subnet_manager:
      hosts:
        mthca-node:
EOF2
  paths=(/etc/ibkit /etc/modules-load.d/ibkit.conf /etc/security/limits.d/99-ibkit-memlock.conf
    /etc/systemd/system.conf.d /etc/systemd/system/ibkit-rxe.service /etc/systemd/system/ibkit-opensm.service
    /etc/systemd/system/ibkit-cpu-governor.service /etc/systemd/system/ibkit-check.service
    /etc/systemd/network /etc/NetworkManager /etc/default/opensm /usr/local/bin/ibkit)
  before=$(ls -la "${paths[@]}" 2>&1)
  # site.yml's playbooks after its preflight (the preflight tests cover that part).
  mapfile -t site_playbooks < <(sed -n 's/^ *ansible.builtin.import_playbook: *//p' playbooks/site.yml |
    grep -v '^preflight' | sed 's|^|playbooks/|')
  ansible-playbook -i "$inv" --check --diff -e ansible_become=false -e "ibkit_agent_binary=$work/ibkit-agent-stub" \
    "${site_playbooks[@]}" >"$out" 2>&1
  local rc=$?
  after=$(ls -la "${paths[@]}" 2>&1)
  grep -E '^fatal|"msg": "(rxe0|opensm|ipoib|cpu_governor|[a-z0-9-]+ has NVIDIA)' "$out"
  sed -n '/^PLAY RECAP/,$p' "$out"
  [ $rc -eq 0 ] || { grep -B5 -A15 '^fatal' "$out" | head -60; return 1; }
  expect_in "$out" \
    "rxe0 is missing; ibkit-rxe.service will recreate it on lo" \
    "+ExecStart=rdma link add rxe0 type rxe netdev lo" \
    "ipoib skipped on lab-node: an Ethernet (RoCE) link layer has no IPoIB" \
    "cpu_governor skipped on lab-node" \
    "+ExecStart=/usr/sbin/opensm --guid 0x0002c90200298e01 --priority 15" \
    "+Default=0x7fff, ipoib, mtu=5 : ALL=full;" \
    "+Address=172.16.50.10/24" "+Mode=connected" "+MTUBytes=65520" \
    "+address1=172.16.50.11/24" "+transport-mode=datagram" \
    "cx4-node has NVIDIA GPUs (0000:03:00.0): GPUDirect RDMA through nvidia_peermem" "+nvidia_peermem" \
    "+ExecStart=/bin/sh -c 'for governor in /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor; do echo performance" \
    '+link_layer = "InfiniBand"' '+link_layer = "Ethernet"' \
    "--output /var/lib/ibkit/check.json --state /var/lib/ibkit/counters.json --metrics /var/lib/prometheus/node-exporter/ibkit.prom" \
    "+ReadWritePaths=/var/lib/prometheus/node-exporter" \
    "TASK [ibkit_agent : Copy the agent package]" "+ExecStart=/usr/bin/ibkit check --config /etc/ibkit/ibkit.toml" \
    "+ExecStart=/usr/local/bin/ibkit check --config /etc/ibkit/ibkit.toml" || return 1
  expect_not_in "$out" "fatal:" "failed=1" "UNREACHABLE" "+mtu=" || return 1
  [ "$before" = "$after" ] || { echo "check mode changed files:"; diff <(echo "$before") <(echo "$after"); return 1; }
}

t_agent_parses_config() {
  local agent=${IBKIT_AGENT:-$root/${BUILD_DIR:-build}/agent/ibkit} file
  if [ ! -x "$agent" ]; then echo "no agent binary at $agent (build it first: make build)"; return 77; fi
  for file in "$work"/toml-*/*.toml; do
    "$agent" check --config-only --config "$file" || return 1
  done
}
# The units that run the agent, as each inventory rendered them: systemd-analyze rates each
# one's exposure offline; above 3.0 ("OK" ends there) fails. The timer and the sandbox render.
t_units_exposure() {
  local unit out rated=0
  command -v systemd-analyze >/dev/null || { echo "no systemd-analyze (apt-get install systemd)"; return 1; }
  for unit in "$work"/toml-*/*.service; do
    out=$(systemd-analyze security --offline=true --threshold=30 "$unit" 2>&1) ||
      { echo "$unit:"; echo "$out" | grep -E '✗|exposure'; return 1; }
    echo "$(basename "$unit"): $(echo "$out" | grep -o 'exposure level for .*' | sed 's/.*: //')"
    rated=$((rated + 1))
  done
  [ "$rated" -ge 4 ] || { echo "only $rated unit(s) rendered"; return 1; }
  expect_in "$work/toml-lab/lab1-ibkit-check.timer" "OnUnitActiveSec=1h" || return 1
  expect_in "$work/toml-lab/lab1-ibkit-check.service" "CapabilityBoundingSet=" "DevicePolicy=closed" \
    "DeviceAllow=char-infiniband_verbs rw" "IPAddressDeny=any" || return 1
  expect_not_in "$work/toml-lab/lab1-ibkit-check.service" "RemainAfterExit=" "OnFailure="
}
# playbooks/slurm_health.yml on this machine, for real, with every path in $work: the wrapper
# calls the agent with the role's options, slurm.conf gets each HealthCheck key once (a site's
# NHC line replaced, the rest kept), the handler's scontrol reconfigure runs once, and a second
# run changes nothing.
t_slurm_health_role() {
  local inv="$work/slurm" out="$work/slurm.out" files="$work/slurm-files"
  local conf="$files/slurm.conf" wrapper="$files/ibkit-health"
  mkdir -p "$inv" "$files"
  printf '%s\n' 'ClusterName=hpc' 'HealthCheckProgram=/usr/sbin/nhc' 'HealthCheckInterval=60' \
    'NodeName=c[01-04] CPUs=8 State=UNKNOWN' >"$conf"
  printf '%s\n' '#!/bin/sh' "echo \"\$*\" >>$files/scontrol.log" >"$files/scontrol"
  chmod +x "$files/scontrol"
  cat >"$inv/hosts.yml" <<EOF2
all:
  vars:
    ansible_connection: local
    ansible_become: false
    ibkit_slurm_health_conf: $conf
    ibkit_slurm_health_wrapper: $wrapper
    ibkit_slurm_health_scontrol: $files/scontrol
    ibkit_slurm_health_state: $files/state/health-counters.json
    ibkit_slurm_health_node_state: idle,cycle
  children:
    slurm_nodes:
      hosts:
        c01:
        c02:
EOF2
  ansible-playbook -i "$inv" playbooks/slurm_health.yml >"$out" 2>&1 || { cat "$out"; return 1; }
  sed -n '/^PLAY RECAP/,$p' "$out"
  cat "$conf" "$wrapper"
  expect_in "$conf" "ClusterName=hpc" "HealthCheckProgram=$wrapper" "HealthCheckInterval=300" \
    "HealthCheckNodeState=IDLE,CYCLE" "NodeName=c[01-04] CPUs=8 State=UNKNOWN" || return 1
  expect_not_in "$conf" "nhc" "HealthCheckInterval=60" || return 1
  [ "$(grep -c '^HealthCheck' "$conf")" -eq 3 ] || { echo "expected each HealthCheck key once"; return 1; }
  expect_in "$wrapper" "exec /usr/local/bin/ibkit health --scheduler slurm --scontrol $files/scontrol --scontrol-timeout 10 --state $files/state/health-counters.json" || return 1
  [ -d "$files/state" ] || { echo "the role did not create the state file's directory"; return 1; }
  if [ ! -x "$wrapper" ] || ! sh -n "$wrapper"; then echo "the wrapper is not an executable shell script"; return 1; fi
  [ "$(cat "$files/scontrol.log")" = "reconfigure" ] || { echo "expected one scontrol reconfigure, got:"; cat "$files/scontrol.log"; return 1; }
  ansible-playbook -i "$inv" playbooks/slurm_health.yml >"$out" 2>&1 || { cat "$out"; return 1; }
  for host in c01 c02; do
    grep -qE "^$host +: .*changed=0 " "$out" || { echo "$host changed on the second run"; sed -n '/^PLAY RECAP/,$p' "$out"; return 1; }
  done
  [ "$(wc -l <"$files/scontrol.log")" -eq 1 ] || { echo "the second run reconfigured Slurm again"; return 1; }
}
t_agent_keys() { "$ansible_python" tests/ansible/check_agent_keys.py; }  # needs the built agent; fails without it

# --- run ------------------------------------------------------------------------------------
start=$(date +%s)
run_test "yamllint (strict) over the Ansible tree" 120 t_yamllint
run_test "ansible-lint, production profile" 600 t_ansible_lint
run_test "every role default is commented, in argument_specs and in docs/variables.md" 30 t_variables_documented
run_test "docs/variables.md is what the argument specs and defaults give (scripts/variables-doc.py --check)" 30 t_variables_doc
run_test "inventory/azure against a local Azure: Uniform and Flexible sets, scoped, groups per SKU family" 600 t_azure_inventory
run_test "every playbook's host patterns match groups of the homelab and lab inventories" 120 t_host_patterns
run_test "syntax-check every playbook, homelab inventory" 120 t_syntax_homelab
run_test "syntax-check every playbook, lab inventory" 120 t_syntax_lab
run_test "syntax-check every playbook, azure group_vars" 120 t_syntax_azure
run_test "argument_specs reject bad variables, naming them" 180 t_argument_specs
run_test "preflight passes the homelab inventory offline" 240 t_preflight_homelab
run_test "preflight passes the lab inventory offline" 240 t_preflight_lab
run_test "preflight passes the azure group_vars offline" 240 t_preflight_azure
run_test "the Azure SKU table drives ibkit.toml: every size as Azure publishes it" 300 t_azure_skus
run_test "validate.yml reaches Azure nodes on their IPoIB address, read on the node" 60 t_validate_address
run_test "Azure: the ipoib role sets OS.EnableRDMA=y for waagent, in check mode, only where needed" 180 t_waagent_rdma
run_test "wrong inventory: two masters in one fabric stops before any change" 180 t_wrong_two_masters
run_test "wrong inventory: IPoIB address outside its subnet stops before any change" 180 t_wrong_ipoib_subnet
run_test "wrong inventory: unknown platform stops before any change" 180 t_wrong_platform
run_test "wrong inventory: a misspelt variable and three wrong values in one run, each named" 180 t_wrong_many
run_test "wrong inventory: a fleet-rule factor out of range stops before any change" 180 t_wrong_fleet_ratio
run_test "validate.yml: a server that does not start is named with its journal's words" 120 t_serve_failure
run_test "probe modules read the sysfs and limits fixtures" 180 t_probe_modules
run_test "ibkit.toml rendered from each inventory holds its expected state" 30 t_agent_config
run_test "the agent parses every rendered ibkit.toml (check --config-only)" 60 t_agent_parses_config
run_test "the agent's units: systemd-analyze security exposure <= 3.0 each, the timer rendered" 60 t_units_exposure
run_test "slurm_health: the wrapper, slurm.conf's HealthCheck lines, one reconfigure, idempotent" 120 t_slurm_health_role
run_test "validate.yml's sweep reads the ibkit.toml the agent role installs" 60 t_sweep_argv
run_test "ibkit.toml with every name the role knows: the agent accepts it and knows no other" 300 t_agent_keys
run_test "site.yml's playbooks --check --diff on three simulated nodes template every path, change nothing" 400 t_site_check_mode_localhost

echo
echo "ansible tier: $(($(date +%s) - start))s"
((${#failures[@]})) && printf 'failed: %s\n' "${failures[@]}"
if ((skipped)); then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
