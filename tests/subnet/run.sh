#!/usr/bin/env bash
# Subnet tier: the real opensm and infiniband-diags on simulated InfiniBand fabrics (ibsim),
# opensm started as roles/opensm starts it, and `ibkit check --root` on snapshots of the
# simulated sysfs those processes leave. One fabric per network namespace (ibsim's socket
# names are fixed); every process is bounded by `timeout -k` and stopped by its pid; the
# namespaces and the work directory are removed whatever happens (EXIT, INT, TERM).
# Needs root; installs its packages with scripts/install-deps.sh subnet. Nothing leaves this machine.
#   BUILD_DIR=build          where agent/ibkit was built
#   SUBNET_CASES="case_..."  only these cases (default: all; a fabric's cases build on each other)
#   SUBNET_FIXTURES=1        also write the snapshots to tests/fixtures/sysfs/ibsim-* and the fat tree's
#                            topology to tests/fixtures/topology/ (regenerates them)
#   SUBNET_TOPOLOGIES=DIR    keep the fat trees' saved topologies in DIR (bench/fleet-sim.sh reads them;
#                            case_fat_tree_4096, not run by default, saves the 4,096-host one)
#   SUBNET_KEEP=1            keep the work directory (/tmp/ibkit-subnet.*: logs, netfiles, snapshots, reports)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
subnet_who="subnet tier"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source tests/subnet/lib.sh
started=$(date +%s)

# The snapshots SUBNET_FIXTURES=1 keeps as tests/fixtures/sysfs/ibsim-NAME (agent/tests/checks_subnet_test.cpp).
fixture_names="no-sm active cable-pulled after-failover"

# snapshot FABRIC NODE NAME: the node's simulated sysfs as a plain --root tree $work/snap/NAME.
# umad2sim's snapshot has no link_layer (every kernel's port has one): it is added as InfiniBand,
# and proc/sys/kernel/hostname as the node's name; nothing else is added.
snapshot() {
  local fabric=$1 node=$2 dest="$work/snap/$3" port
  rm -rf "$dest"
  mkdir -p "$dest/proc/sys/kernel"
  sim "$fabric" "$node" 10 "$py" "$PWD/tests/subnet/snapshot.py" "$dest" || return 1
  for port in "$dest"/sys/class/infiniband/*/ports/*; do echo InfiniBand >"$port/link_layer"; done
  echo "$node" >"$dest/proc/sys/kernel/hostname"
  if [ "${SUBNET_FIXTURES:-0}" = 1 ] && [[ " $fixture_names " == *" $3 "* ]]; then
    rm -rf "tests/fixtures/sysfs/ibsim-$3"
    cp -r "$dest" "tests/fixtures/sysfs/ibsim-$3"
  fi
}

# What ibkit check expects of a simulated node: its one port, InfiniBand, at least MIN Gb/s.
expect_config() {
  printf '[expect]\nlink_layer = "InfiniBand"\nports = ["ibsim0/1"]\nmin_rate_gbps = %s\n' "$1" >"$work/expect-$1.toml"
  echo "$work/expect-$1.toml"
}

# judge NAME MIN_GBPS: ibkit check --root on snapshot NAME, as JSON in $work/snap/NAME.json.
judge() {
  timeout -k 1 20 "$ibkit" check --root "$work/snap/$1" --config "$(expect_config "$2")" --format json \
    >"$work/snap/$1.json" 2>"$work/snap/$1.err"
  [ -s "$work/snap/$1.json" ]
}

# snap_judge FABRIC NODE NAME MIN_GBPS: snapshot, then judge.
snap_judge() {
  snapshot "$1" "$2" "$3" || return 1
  judge "$3" "$4"
}

# result NAME ID FIELD: FIELD (status, observed, expected, hint) of result ID for ibsim0/1 in NAME's report.
result() {
  "$py" -c 'import json, sys
doc = json.load(open(sys.argv[1]))
rows = [r for r in doc["results"] if r["id"] == sys.argv[2] and r["subject"].startswith("ibsim0/1")]
print(rows[0][sys.argv[3]] if rows else "(no %s result)" % sys.argv[2])' "$work/snap/$1.json" "$2" "$3"
}

# expect_result NAME ID STATUS [TEXT_IN_OBSERVED [TEXT_IN_HINT]]: prints the row; false on a mismatch.
expect_result() {
  local status observed hint
  status=$(result "$1" "$2" status)
  observed=$(result "$1" "$2" observed)
  hint=$(result "$1" "$2" hint)
  echo "      $2 $status: $observed${hint:+ -- $hint}"
  [ "$status" = "$3" ] || { why="$2 is $status, not $3"; return 1; }
  [[ "$observed" == *"${4:-}"* ]] || { why="$2 observed '$observed' lacks '$4'"; return 1; }
  [[ "$hint" == *"${5:-}"* ]] || { why="$2 hint lacks '$5'"; return 1; }
}


# fabric_run FABRIC NODE NAME [OPTIONS...]: ibkit fabric from simulated NODE, its JSON report in
# $work/fabric/NAME.json, its text in NAME.txt; sets fabric_status (its exit code).
fabric_run() {
  local fabric=$1 node=$2 name=$3
  shift 3
  mkdir -p "$work/fabric"
  sim "$fabric" "$node" 40 "$ibkit" fabric --deadline 30 --format json --output "$work/fabric/$name.json" "$@" \
    >"$work/fabric/$name.txt" 2>"$work/fabric/$name.err"
  fabric_status=$?
  fabric_reap "$fabric"
  [ -s "$work/fabric/$name.json" ] || { why="no report (exit $fabric_status): $(head -c 300 "$work/fabric/$name.err")"; return 1; }
}

# expect_fabric NAME ID STATUS TEXT [COUNT]: NAME's report has COUNT (default: at least one) ID
# rows of STATUS whose observed holds TEXT; prints them. The subject, or the hint, is matched
# instead when TEXT starts with "subject:", or "hint:".
expect_fabric() {
  why=$("$py" - "$work/fabric/$1.json" "$2" "$3" "$4" "${5:-}" <<'PY'
import json, sys
path, wanted_id, status, text, count = sys.argv[1:6]
rows = [r for r in json.load(open(path))["results"] if r["id"] == wanted_id]
field = next((f for f in ("subject", "hint") if text.startswith(f + ":")), "observed")
text = text[len(field) + 1:] if field != "observed" else text
match = [r for r in rows if r["status"] == status and text in r[field]]
for r in match[:4]:
    print("      %s %s %s: %s%s" % (r["id"], r["status"], r["subject"], r["observed"],
                                     " -- " + r["hint"] if r["hint"] else ""), file=sys.stderr)
if not match or (count and len(match) != int(count)):
    seen = "; ".join("%s %s: %s" % (r["status"], r["subject"], r["observed"]) for r in rows[:4])
    print("%s: %d %s rows with '%s' (want %s); seen: %s" % (wanted_id, len(match), status, text,
                                                          count or "some", seen or "none"))
    sys.exit(1)
PY
)
}

# The fabrics. Cases of one fabric build on each other, in the order of all_cases below; each
# starts what it needs when an earlier case did not (SUBNET_CASES may name any of them).
b2b_net() {
  # Seed 000: two hosts cabled back to back at 4X DDR. viper's HCA has two ports, port 2 without a
  # cable; umad2sim gives a client only port 1, so port 2 is seen through the fabric (smpquery).
  printf 'speed=2\nwidth=2\n\nHca 2 "viper"\n[1] "prometheus"[1]\n\nHca 1 "prometheus"\n[1] "viper"[1]\n'
}
switch_net() {
  # Seed 002: three hosts on one 8-port QDR switch, 4X.
  printf 'speed=4\nwidth=2\n\nSwitch 8 "sw1"\n[1] "viper"[1]\n[2] "prometheus"[1]\n[3] "columbia"[1]\n\n'
  printf 'Hca 1 "viper"\n[1] "sw1"[1]\n\nHca 1 "prometheus"\n[1] "sw1"[2]\n\nHca 1 "columbia"\n[1] "sw1"[3]\n'
}
declare -A master_pid standby_pid
# up FABRIC: starts the fabric unless it runs.
up() {
  [ -n "${simulator[$1]:-}" ] && return 0
  "$1_net" >"$work/$1.net"
  fabric_start "$1" "$work/$1.net"
}

# master_up FABRIC [OBSERVER]: opensm as the role runs it on viper (group subnet_manager), until
# sminfo from OBSERVER (prometheus) reports it MASTER with the inventory's priority (20 s).
master_up() {
  local fabric=$1 observer=${2:-prometheus} rendered
  [ -n "${master_pid[$fabric]:-}" ] && return 0
  up "$fabric" || return 1
  snapshot "$fabric" viper "$fabric-viper-boot" || return 1
  rendered=$(render_opensm "$fabric" viper "$work/snap/$fabric-viper-boot") || { echo "      $rendered"; return 1; }
  echo "      role for viper: guid, priority, role = $rendered"
  opensm_start "$fabric" viper
  master_pid[$fabric]=$opensm_pid
  until_true 20 sm_is "$fabric" "$observer" "" "SMINFO_MASTER" "priority $(rendered_priority "$rendered")" || {
    echo "      opensm did not become master:"; indent 8 <"$work/$fabric/opensm-viper/opensm.out"; return 1; }
}
rendered_priority() { local words; read -ra words <<<"$1"; echo "${words[1]}"; }

# sm_is FABRIC NODE LID TEXT...: sminfo from NODE (about the SM at LID, or the port's SM) holds every TEXT.
sm_is() {
  local fabric=$1 node=$2 lid=$3 out text
  shift 3
  out=$(sim "$fabric" "$node" 5 sminfo -t 300 ${lid:+"$lid"} 2>&1) || return 1
  for text in "$@"; do [[ "$out" == *"$text"* ]] || return 1; done
}

# ports_are FABRIC STATE SM_LID NODE...: ibstat on each NODE shows State STATE and SM lid SM_LID.
ports_are() {
  local fabric=$1 state=$2 sm=$3 node seen
  shift 3
  for node in "$@"; do
    seen="$(port_field "$fabric" "$node" State)/$(port_field "$fabric" "$node" "SM lid")"
    [ "$seen" = "$state/$sm" ] || { why="$node: ibstat State/SM lid $seen, not $state/$sm"; return 1; }
  done
}

# state_is FABRIC NODE STATE: ibstat on NODE shows State STATE.
state_is() { [ "$(port_field "$1" "$2" State)" = "$3" ]; }

case_b2b_before_sm() {
  local name="seed 000 back to back, before any SM: Initializing/LinkUp, LID 0, SM lid 0; ibkit check fails naming INIT/LinkUp and the missing subnet manager, ibkit fabric names no SM and the link up but INIT"
  local node seen
  up b2b || { fail "$name" "the fabric did not start"; return; }
  for node in viper prometheus; do
    seen="$(port_field b2b $node State)/$(port_field b2b $node "Physical state")/$(port_field b2b $node "Base lid")/$(port_field b2b $node "SM lid")"
    echo "      $node ibstat: $seen"
    [ "$seen" = "Initializing/LinkUp/0/0" ] || { fail "$name" "$node: $seen"; return; }
  done
  snap_judge b2b prometheus no-sm 16 || { fail "$name" "no snapshot or report"; return; }
  expect_result no-sm port.state fail "INIT/LinkUp" "no subnet manager" || { fail "$name" "$why"; return; }
  expect_result no-sm port.lid fail "LID 0, SM LID 0" "opensm" || { fail "$name" "$why"; return; }
  fabric_run b2b prometheus fabric-no-sm || { fail "$name" "ibkit fabric: $why"; return; }
  [ "$fabric_status" = 1 ] || { fail "$name" "ibkit fabric exited $fabric_status, not 1"; return; }
  expect_fabric fabric-no-sm fabric.sm fail "no subnet manager answered" || { fail "$name" "$why"; return; }
  expect_fabric fabric-no-sm fabric.link fail "LinkUp but INIT / INIT" 1 || { fail "$name" "$why"; return; }
  pass "$name"
}

case_b2b_role_guid() {
  local name="the opensm role's GUID picking (opensm_ports.py + its set_fact) on viper's simulated sysfs picks ibstat's port GUID"
  local raw="$work/snap/viper-raw" out guid
  up b2b || { fail "$name" "the fabric did not start"; return; }
  rm -rf "$raw"
  sim b2b viper 10 "$py" "$PWD/tests/subnet/snapshot.py" "$raw" || { fail "$name" "no snapshot"; return; }
  # umad2sim's own tree has no link_layer: the role finds no InfiniBand port and says so.
  out=$(render_opensm b2b viper "$raw")
  echo "      on umad2sim's tree as it is: $out"
  [[ "$out" == *"has no InfiniBand port"* ]] || { fail "$name" "the role did not refuse a port without link_layer"; return; }
  snapshot b2b viper b2b-viper-boot || { fail "$name" "no snapshot"; return; }
  out=$(render_opensm b2b viper "$work/snap/b2b-viper-boot") || { fail "$name" "$out"; return; }
  guid=$(port_field b2b viper "Port GUID")
  echo "      with link_layer InfiniBand: guid, priority, role = $out; ibstat's port GUID $guid"
  [ "$out" = "$guid 15 master" ] || { fail "$name" "rendered '$out', ibstat $guid"; return; }
  grep -q -- "--guid $guid --priority 15 --Pconfig" "$work/b2b/opensm-viper/ibkit-opensm.service" ||
    { fail "$name" "the unit's ExecStart does not bind $guid"; return; }
  pass "$name"
}

case_b2b_master() {
  local name="seed 000: opensm as the role starts it on viper: MASTER priority 15, both ports Active with viper's LID as SM lid; ibkit check passes with LID and SM LID; port 2 without cable Down/Polling; ibkit fabric passes, naming the MASTER"
  local sm_lid port2
  master_up b2b || { fail "$name" "no master"; return; }
  sm_lid=$(port_field b2b viper "Base lid")
  until_true 10 ports_are b2b Active "$sm_lid" viper prometheus || { fail "$name" "$why"; return; }
  echo "      $(sim b2b prometheus 5 sminfo)"
  port2=$(sim b2b prometheus 5 smpquery portinfo "$sm_lid" 2 | grep -E '^(LinkState|PhysLinkState):' | tr -s '.' ' ' | paste -sd ' ')
  echo "      viper port 2 (smpquery): $port2"
  [[ "$port2" == *"LinkState: Down"*"PhysLinkState: Polling"* ]] || { fail "$name" "port 2: $port2"; return; }
  snap_judge b2b prometheus active 16 || { fail "$name" "no snapshot or report"; return; }
  expect_result active port.state pass "ACTIVE/LinkUp" || { fail "$name" "$why"; return; }
  expect_result active port.lid pass "SM LID $sm_lid" || { fail "$name" "$why"; return; }
  expect_result active port.rate pass "4X DDR" || { fail "$name" "$why"; return; }
  fabric_run b2b prometheus fabric-b2b || { fail "$name" "ibkit fabric: $why"; return; }
  [ "$fabric_status" = 0 ] || { fail "$name" "ibkit fabric exited $fabric_status: $(cat "$work/fabric/fabric-b2b.txt")"; return; }
  expect_fabric fabric-b2b fabric.sm pass "MASTER viper" || { fail "$name" "$why"; return; }
  expect_fabric fabric-b2b fabric.link pass "1 link ACTIVE" || { fail "$name" "$why"; return; }
  pass "$name"
}

case_b2b_cable_pulled() {
  local name="seed 000: cable pulled (ibsim Unlink): prometheus Down/Polling; ibkit check fails naming DOWN/Polling with the no-cable hint"
  master_up b2b || { fail "$name" "no master"; return; }
  fabric_console b2b 'Unlink "viper"[1]'
  until_true 5 state_is b2b prometheus Down || { fail "$name" "prometheus is still $(port_field b2b prometheus State)"; return; }
  echo "      prometheus ibstat: $(port_field b2b prometheus State)/$(port_field b2b prometheus "Physical state")"
  snap_judge b2b prometheus cable-pulled 16 || { fail "$name" "no snapshot or report"; return; }
  expect_result cable-pulled port.state fail "DOWN/Polling" "no cable" || { fail "$name" "$why"; return; }
  stop_pid "${master_pid[b2b]}"
  forget_runner "${master_pid[b2b]}"
  fabric_stop b2b
  pass "$name"
}

case_switch_master_standby() {
  local name="seed 002 on one QDR switch: viper MASTER (15), columbia in subnet_manager_standby STANDBY (10); ibkit check passes at 4X QDR; ibkit fabric lists the STANDBY"
  local out viper_lid columbia_lid
  master_up switch || { fail "$name" "no master"; return; }
  snapshot switch columbia switch-columbia-boot || { fail "$name" "no snapshot"; return; }
  # The inventory's subnet_manager_standby is empty: the tier adds columbia, as its comment suggests.
  out=$(render_opensm switch columbia "$work/snap/switch-columbia-boot" --standby columbia) || { fail "$name" "$out"; return; }
  echo "      role for columbia: guid, priority, role = $out"
  [[ "$out" == *" 10 standby" ]] || { fail "$name" "columbia rendered as '$out'"; return; }
  # Not from the role: a quick failover (the defaults take about a minute to notice a dead master).
  printf 'sminfo_polling_timeout 1000\npolling_retry_number 2\n' >"$work/switch/standby.conf"
  opensm_start switch columbia --config "$work/switch/standby.conf"
  standby_pid[switch]=$opensm_pid
  viper_lid=$(port_field switch viper "Base lid")
  until_true 10 ports_are switch Active "$viper_lid" viper prometheus columbia || { fail "$name" "$why"; return; }
  columbia_lid=$(port_field switch columbia "Base lid")
  until_true 20 sm_is switch prometheus "$columbia_lid" SMINFO_STANDBY "priority 10" ||
    { fail "$name" "columbia is not STANDBY: $(sim switch prometheus 5 sminfo -t 300 "$columbia_lid" 2>&1)"; return; }
  echo "      master: $(sim switch prometheus 5 sminfo)"
  echo "      standby: $(sim switch prometheus 5 sminfo "$columbia_lid")"
  snap_judge switch prometheus qdr-active 32 || { fail "$name" "no snapshot or report"; return; }
  expect_result qdr-active port.state pass "ACTIVE/LinkUp" || { fail "$name" "$why"; return; }
  expect_result qdr-active port.rate pass "4X QDR" || { fail "$name" "$why"; return; }
  fabric_run switch prometheus fabric-standby || { fail "$name" "ibkit fabric: $why"; return; }
  expect_fabric fabric-standby fabric.sm pass "STANDBY columbia" || { fail "$name" "$why"; return; }
  pass "$name"
}

case_switch_failover() {
  local name="seed 002: the master opensm killed, columbia's standby takes the subnet: sminfo MASTER, every port's SM lid is columbia's; ibkit check passes"
  local columbia_lid columbia_guid begin
  [ -n "${standby_pid[switch]:-}" ] || case_switch_master_standby >/dev/null
  [ -n "${standby_pid[switch]:-}" ] || { fail "$name" "no standby"; return; }
  columbia_lid=$(port_field switch columbia "Base lid")
  columbia_guid=$(port_field switch columbia "Port GUID")
  begin=$(now)
  opensm_kill "${master_pid[switch]}"
  until_true 30 sm_is switch prometheus "$columbia_lid" SMINFO_MASTER "priority 10" ||
    { fail "$name" "columbia did not become master: $(sim switch prometheus 5 sminfo -t 300 "$columbia_lid" 2>&1)"; return; }
  echo "      columbia MASTER $(elapsed "$begin") s after the kill: $(sim switch prometheus 5 sminfo "$columbia_lid")"
  until_true 20 ports_are switch Active "$columbia_lid" viper prometheus columbia || { fail "$name" "$why"; return; }
  echo "      every port's SM lid is now $columbia_lid (columbia, $columbia_guid), $(elapsed "$begin") s after the kill"
  snap_judge switch prometheus after-failover 32 || { fail "$name" "no snapshot or report"; return; }
  expect_result after-failover port.state pass "ACTIVE/LinkUp" || { fail "$name" "$why"; return; }
  expect_result after-failover port.lid pass "SM LID $columbia_lid" || { fail "$name" "$why"; return; }
  stop_pid "${standby_pid[switch]}"
  forget_runner "${standby_pid[switch]}"
  fabric_stop switch
  pass "$name"
}

degraded_net() {
  # Two leaves joined by three cables, one held at SDR by an end's enabled speeds. (ibsim trains
  # every link to the best both ends enable: a lane that fails cannot be simulated, and
  # agent/tests/fabric_checks_test.cpp covers that rule.)
  printf 'speed=5\nwidth=3\n\nSwitch 8 "leaf1"\n[1] "viper"[1]\n[2] "prometheus"[1]\n'
  printf '[6] "leaf2"[6] s=1\n[7] "leaf2"[7]\n[8] "leaf2"[8]\n\n'
  printf 'Switch 8 "leaf2"\n[1] "columbia"[1]\n[6] "leaf1"[6]\n[7] "leaf1"[7]\n[8] "leaf1"[8]\n\n'
  printf 'Hca 1 "viper"\n[1] "leaf1"[1]\n\nHca 1 "prometheus"\n[1] "leaf1"[2]\n\nHca 1 "columbia"\n[1] "leaf2"[1]\n'
}

case_fabric_faults() {
  local name="two leaves, three cables, one at SDR: ibkit fabric warns on it naming the end whose enabled speeds hold it back (and exits 0), fails it under --link-speed QDR naming that end, fails a switch port and a host port over [limits] naming both ends (ibkit report merges that with checks and a sweep, and fails), with --state judges what rose since the run before, names a pulled and a moved cable against the saved topology, and fails a LID and a node GUID given twice"
  local viper_lid status
  master_up degraded || { fail "$name" "no master"; return; }
  until_true 10 ports_are degraded Active "$(port_field degraded viper "Base lid")" viper prometheus columbia || { fail "$name" "$why"; return; }
  fabric_run degraded prometheus fabric-degraded --save-topology "$work/fabric/topology" || { fail "$name" "ibkit fabric: $why"; return; }
  [ "$fabric_status" = 0 ] || { fail "$name" "ibkit fabric exited $fabric_status, not 0"; return; }
  expect_fabric fabric-degraded fabric.link pass "5 links ACTIVE" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-degraded fabric.link warn "4X SDR (both ends support 4X QDR)" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-degraded fabric.link warn "hint:leaf1 (0x0000000000200000) port 6 enables speeds up to SDR of the QDR it supports" 1 || { fail "$name" "$why"; return; }
  # A topology that cannot be saved is exit 2, with the report delivered all the same.
  fabric_run degraded prometheus fabric-unsaved --save-topology "$work/fabric/no-such-dir/topology" || { fail "$name" "ibkit fabric: $why"; return; }
  [ "$fabric_status" = 2 ] || { fail "$name" "--save-topology into a missing directory exited $fabric_status, not 2"; return; }
  grep -q 'no-such-dir/topology' "$work/fabric/fabric-unsaved.err" || { fail "$name" "--save-topology's error does not name the file"; return; }
  # Every linked port's counters, switch ports included: 3 HCA ports, 5 on leaf1, 4 on leaf2.
  expect_fabric fabric-degraded fabric.counters pass "12 ports within [limits]" 1 || { fail "$name" "$why"; return; }
  # --state: this run keeps the counters as read, for the runs after the faults below.
  fabric_run degraded prometheus fabric-state-first --state "$work/fabric/counters.state" || { fail "$name" "ibkit fabric --state: $why"; return; }
  [ "$fabric_status" = 0 ] || { fail "$name" "the first ibkit fabric --state exited $fabric_status, not 0"; return; }
  # A switch-to-switch port counting symbol errors, and a host's link_downed stuck at its 8-bit
  # maximum: both fail, named with the far end; a --config that allows 2,000 symbol errors
  # passes the switch port.
  fabric_console degraded 'PerformanceSet "leaf2"[7] PortCounters.SymbolErrorCounter=1200'
  fabric_console degraded 'PerformanceSet "columbia"[1] PortCounters.LinkDownedCounter=255'
  fabric_run degraded prometheus fabric-errors || { fail "$name" "ibkit fabric: $why"; return; }
  [ "$fabric_status" = 1 ] || { fail "$name" "ibkit fabric with port errors exited $fabric_status, not 1"; return; }
  expect_fabric fabric-errors fabric.counters fail "subject:leaf2 (0x0000000000200001) port 7 (link to leaf1 (0x0000000000200000) port 7)" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-errors fabric.counters fail "symbol_error 1200 > 10" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-errors fabric.counters fail "link_downed 255 > 10 (stopped counting at its maximum)" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-errors fabric.counters pass "10 ports within [limits]" 1 || { fail "$name" "$why"; return; }
  # Judged on what rose since the first run: the switch port fails on its rise; a run after that,
  # with nothing new, passes it although it still holds 1,200. The counter stuck at its maximum
  # stays failed, as read: how much it rose is not known.
  fabric_run degraded prometheus fabric-state-rose --state "$work/fabric/counters.state" || { fail "$name" "ibkit fabric --state: $why"; return; }
  [ "$fabric_status" = 1 ] || { fail "$name" "ibkit fabric --state after the errors exited $fabric_status, not 1"; return; }
  expect_fabric fabric-state-rose fabric.counters fail "symbol_error +1200 > 10" 1 || { fail "$name" "$why"; return; }
  fabric_run degraded prometheus fabric-state-again --state "$work/fabric/counters.state" || { fail "$name" "ibkit fabric --state: $why"; return; }
  expect_fabric fabric-state-again fabric.counters fail "subject:columbia" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-state-again fabric.counters pass "11 ports within [limits]" 1 || { fail "$name" "$why"; return; }
  # ibkit report merges it with a node's checks and a sweep: the fabric's failure fails the
  # verdict, and the discovering node is not counted as one more node.
  "$ibkit" report tests/fixtures/reports/sweep-pass.json tests/fixtures/reports/check-lab1.json \
    "$work/fabric/fabric-errors.json" --format all --output "$work/fabric/merged" >"$work/fabric/merged.txt" 2>&1
  status=$?
  [ "$status" = 1 ] || { fail "$name" "ibkit report with the fabric's errors exited $status, not 1: $(head -c 300 "$work/fabric/merged.txt")"; return; }
  if ! grep -q "^fabric as discovered from .*:$" "$work/fabric/merged.txt" ||
    ! grep -q "failed fabric reports 1 of 1" "$work/fabric/merged.txt" ||
    ! grep -q "<h2>Fabric</h2>" "$work/fabric/merged/report.html"; then
    fail "$name" "the merged report has no fabric section: $(head -c 300 "$work/fabric/merged.txt")"
    return
  fi
  echo "      $(head -n 1 "$work/fabric/merged.txt")"
  printf '[limits]\nsymbol_error = 2000\n' >"$work/fabric/limits.toml"
  fabric_run degraded prometheus fabric-errors-allowed --config "$work/fabric/limits.toml" || { fail "$name" "ibkit fabric: $why"; return; }
  expect_fabric fabric-errors-allowed fabric.counters fail "link_downed 255" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-errors-allowed fabric.counters pass "11 ports within [limits] (1 with errors under them: leaf2 (0x0000000000200001) port 7 symbol_error=1200)" 1 || { fail "$name" "$why"; return; }
  fabric_run degraded prometheus fabric-degraded-qdr --link-speed QDR || { fail "$name" "ibkit fabric: $why"; return; }
  [ "$fabric_status" = 1 ] || { fail "$name" "ibkit fabric --link-speed QDR exited $fabric_status, not 1"; return; }
  expect_fabric fabric-degraded-qdr fabric.link fail "4X SDR (expected 4X QDR)" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-degraded-qdr fabric.link fail "subject:leaf1 (0x0000000000200000) port 6" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-degraded-qdr fabric.link pass "5 links ACTIVE" 1 || { fail "$name" "$why"; return; }
  # Against the topology saved at the start: unchanged, then a switch-to-switch cable pulled and
  # columbia's cable moved to another port of its leaf, each named with both ends.
  fabric_run degraded prometheus fabric-same-topology --topology "$work/fabric/topology" || { fail "$name" "ibkit fabric: $why"; return; }
  expect_fabric fabric-same-topology fabric.topology pass "5 nodes, 6 links as saved" 1 || { fail "$name" "$why"; return; }
  fabric_console degraded 'Unlink "leaf1"[8]'
  fabric_console degraded 'Unlink "columbia"[1]'
  fabric_console degraded 'Link "columbia"[1] "leaf2"[2]'
  fabric_run degraded prometheus fabric-recabled --topology "$work/fabric/topology" || { fail "$name" "ibkit fabric: $why"; return; }
  [ "$fabric_status" = 1 ] || { fail "$name" "ibkit fabric after recabling exited $fabric_status, not 1"; return; }
  expect_fabric fabric-recabled fabric.topology fail "missing: no link between these ports" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-recabled fabric.topology fail "subject:leaf1 (0x0000000000200000) port 8" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-recabled fabric.topology fail "moved: cabled to leaf2 (0x0000000000200001) port 2" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-recabled fabric.topology pass "5 nodes, 4 links as saved" 1 || { fail "$name" "$why"; return; }
  fabric_console degraded 'Unlink "columbia"[1]'
  fabric_console degraded 'Link "columbia"[1] "leaf2"[1]'
  fabric_console degraded 'Link "leaf1"[8] "leaf2"[8]'
  until_true 20 ports_are degraded Active "$(port_field degraded viper "Base lid")" columbia || { fail "$name" "columbia's port did not come back: $why"; return; }
  # columbia's HCA answers with prometheus's node GUID, as a cloned VM's or re-flashed card's would.
  fabric_console degraded "Guid \"columbia\" 0x0000000000100002"
  fabric_run degraded viper fabric-duplicate-guid || { fail "$name" "ibkit fabric: $why"; return; }
  [ "$fabric_status" = 1 ] || { fail "$name" "ibkit fabric with a GUID given twice exited $fabric_status, not 1"; return; }
  expect_fabric fabric-duplicate-guid fabric.duplicates fail "is ACTIVE but discovery found nothing at its far end" 1 || { fail "$name" "$why"; return; }
  fabric_console degraded "Guid \"columbia\" 0x0000000000100004"
  # Another port takes viper's LID, as a second SM or a LID cache from another fabric would give.
  viper_lid=$(port_field degraded viper "Base lid")
  fabric_console degraded "Baselid \"columbia\"[1] $viper_lid"
  fabric_run degraded prometheus fabric-duplicate-lid || { fail "$name" "ibkit fabric: $why"; return; }
  expect_fabric fabric-duplicate-lid fabric.duplicates fail "LID $viper_lid at " 1 || { fail "$name" "$why"; return; }
  stop_pid "${master_pid[degraded]}"
  forget_runner "${master_pid[degraded]}"
  fabric_stop degraded
  pass "$name"
}

spine_net() {
  # A spine and two leaves, a host under each, every port enabling 1X or 4X: both switch links at
  # 4X. (A netfile's w=1 on a port does not last: opensm's first PortInfo Set on the far end,
  # which enables 4X, retrains ibsim's link at 4X. ibportstate narrows it after the SM's sweep.)
  printf 'speed=4\nwidth=3\n\nSwitch 8 "spine"\n[1] "leaf1"[8]\n[2] "leaf2"[8]\n\n'
  printf 'Switch 8 "leaf1"\n[1] "viper"[1]\n[8] "spine"[1]\n\n'
  printf 'Switch 8 "leaf2"\n[1] "prometheus"[1]\n[8] "spine"[2]\n\n'
  printf 'Hca 1 "viper"\n[1] "leaf1"[1]\n\nHca 1 "prometheus"\n[1] "leaf2"[1]\n'
}

case_narrowed_link() {
  local name="a spine and two leaves, the spine's port to leaf1 narrowed to 1X (ibportstate width 1): ibkit fabric warns on that link naming the spine's port and the ibportstate that enables the rest, and exits 0; with that port's widths set back, the link passes"
  local command
  master_up spine || { fail "$name" "no master"; return; }
  until_true 10 ports_are spine Active "$(port_field spine viper "Base lid")" viper prometheus || { fail "$name" "$why"; return; }
  # From prometheus: out of its port 1 to leaf2, out of leaf2's port 8 to the spine. ibsim
  # trains the link again at once.
  sim spine prometheus 10 ibportstate -D 0,1,8 1 width 1 >"$work/spine/narrow.txt" 2>&1 || { fail "$name" "ibportstate width 1 failed: $(tail -n 3 "$work/spine/narrow.txt")"; return; }
  fabric_run spine prometheus fabric-narrowed || { fail "$name" "ibkit fabric: $why"; return; }
  [ "$fabric_status" = 0 ] || { fail "$name" "ibkit fabric with a link narrowed to 1X exited $fabric_status, not 0"; return; }
  expect_fabric fabric-narrowed fabric.link warn "1X QDR (both ends support 4X QDR)" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-narrowed fabric.link warn "subject:spine (0x0000000000200000) port 1" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-narrowed fabric.link warn "hint:spine (0x0000000000200000) port 1 enables widths up to 1X of the 12X it supports" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-narrowed fabric.link pass "3 links ACTIVE" 1 || { fail "$name" "$why"; return; }
  grep -q "^PASS: .* 0 failed, 1 warnings" "$work/fabric/fabric-narrowed.txt" || { fail "$name" "the text report's verdict is not PASS with 1 warning: $(tail -n 1 "$work/fabric/fabric-narrowed.txt")"; return; }
  # The hint's command enables all the port supports: ibsim's claim 1X to 12X whatever they
  # enable, so leaf1's port, which enables 4X, would then hold the link back in its turn. The
  # spine's port gets the widths every other port of this fabric enables instead, at the LID and
  # port the hint names.
  command=$("$py" -c 'import json, re, sys
rows = [r for r in json.load(open(sys.argv[1]))["results"] if r["status"] == "warn"]
print(re.search(r"ibportstate \d+ \d+ width 31", rows[0]["hint"]).group(0)[:-2] + "3")' "$work/fabric/fabric-narrowed.json") ||
    { fail "$name" "the hint gives no ibportstate LID PORT width 31"; return; }
  echo "      $command"
  # shellcheck disable=SC2086  # the command's words
  sim spine prometheus 10 $command >"$work/spine/widen.txt" 2>&1 || { fail "$name" "$command failed: $(tail -n 3 "$work/spine/widen.txt")"; return; }
  fabric_run spine prometheus fabric-widened || { fail "$name" "ibkit fabric: $why"; return; }
  expect_fabric fabric-widened fabric.link pass "4 links ACTIVE" 1 || { fail "$name" "$why"; return; }
  stop_pid "${master_pid[spine]}"
  forget_runner "${master_pid[spine]}"
  fabric_stop spine
  pass "$name"
}

joined_net() {
  # Two leaves, a host on each and one more on leaf1, joined by one switch-to-switch cable.
  printf 'Switch 8 "leaf1"\n[1] "viper"[1]\n[2] "prometheus"[1]\n[6] "leaf2"[6]\n\n'
  printf 'Switch 8 "leaf2"\n[1] "columbia"[1]\n[6] "leaf1"[6]\n\n'
  printf 'Hca 1 "viper"\n[1] "leaf1"[1]\n\nHca 1 "prometheus"\n[1] "leaf1"[2]\n\nHca 1 "columbia"\n[1] "leaf2"[1]\n'
}

# plain_opensm FABRIC NODE PRIORITY [ARGS...]: opensm on NODE at PRIORITY with ARGS; sets opensm_pid.
plain_opensm() {
  local fabric=$1 node=$2 priority=$3 out="$work/$1/opensm-$2"
  shift 3
  mkdir -p "$out"
  printf '%s\n' opensm -f "$out/opensm.log" -p "$priority" "$@" >"$out/opensm.argv"
  opensm_start "$fabric" "$node"
}

# same_master FABRIC NODE...: sminfo from every NODE names one MASTER.
same_master() {
  local fabric=$1 node seen="" out
  shift
  for node in "$@"; do
    out=$(sim "$fabric" "$node" 5 sminfo -t 300 2>&1) || return 1
    [[ "$out" == *SMINFO_MASTER* ]] || return 1
    out=${out#*sm guid }
    seen+=" ${out%%,*}"
  done
  # shellcheck disable=SC2086  # one GUID per word
  [ "$(printf '%s\n' $seen | sort -u | wc -l)" = 1 ]
}

case_two_masters() {
  local name="two subnets, each with its own MASTER, cabled together: ibkit fabric fails naming both MASTERs, the LIDs each gave out again and the switch-to-switch link no SM brought up; with one SM restarted at a higher priority and the other STANDBY, it passes"
  local viper_sm columbia_sm sm
  up joined || { fail "$name" "the fabric did not start"; return; }
  fabric_console joined 'Unlink "leaf1"[6]'
  # Each SM sweeps once at its start and never on a trap, so the cable joined later leaves both
  # MASTERs as they were, as two subnets cabled together between sweeps are.
  printf 'sweep_on_trap FALSE\n' >"$work/joined/no-trap-sweeps.conf"
  plain_opensm joined viper 10 -s 0 -F "$work/joined/no-trap-sweeps.conf"
  viper_sm=$opensm_pid
  plain_opensm joined columbia 10 -s 0 -F "$work/joined/no-trap-sweeps.conf"
  columbia_sm=$opensm_pid
  until_true 20 sm_is joined prometheus "" SMINFO_MASTER || { fail "$name" "no MASTER on viper's side"; return; }
  until_true 20 sm_is joined columbia "" SMINFO_MASTER || { fail "$name" "no MASTER on columbia's side"; return; }
  fabric_console joined 'Link "leaf1"[6] "leaf2"[6]'
  fabric_run joined prometheus fabric-two-masters || { fail "$name" "ibkit fabric: $why"; return; }
  [ "$fabric_status" = 1 ] || { fail "$name" "ibkit fabric with two MASTERs exited $fabric_status, not 1"; return; }
  expect_fabric fabric-two-masters fabric.sm fail "2 MASTERs: columbia (" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-two-masters fabric.sm fail "; viper (" 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-two-masters fabric.duplicates fail "LID 1 at " 1 || { fail "$name" "$why"; return; }
  expect_fabric fabric-two-masters fabric.link fail "LinkUp but INIT / INIT" 1 || { fail "$name" "$why"; return; }
  # The fix the hint names: both SMs stopped, viper's started again at the higher priority and
  # sweeping as usual, then columbia's, which finds it MASTER and stays STANDBY.
  for sm in "$viper_sm" "$columbia_sm"; do stop_pid "$sm"; forget_runner "$sm"; done
  plain_opensm joined viper 12
  viper_sm=$opensm_pid
  until_true 20 same_master joined prometheus columbia || { fail "$name" "viper's SM did not take the joined subnet"; return; }
  until_true 10 ports_are joined Active "$(port_field joined prometheus "SM lid")" columbia prometheus || { fail "$name" "$why"; return; }
  plain_opensm joined columbia 10
  columbia_sm=$opensm_pid
  until_true 20 sm_is joined prometheus "$(port_field joined columbia "Base lid")" SMINFO_STANDBY || { fail "$name" "columbia's SM is not STANDBY"; return; }
  fabric_run joined prometheus fabric-one-master || { fail "$name" "ibkit fabric: $why"; return; }
  expect_fabric fabric-one-master fabric.sm pass "STANDBY columbia" 1 || { fail "$name" "$why"; return; }
  [ "$fabric_status" = 0 ] || { fail "$name" "ibkit fabric with one MASTER exited $fabric_status, not 0"; return; }
  for sm in "$viper_sm" "$columbia_sm"; do stop_pid "$sm"; forget_runner "$sm"; done
  fabric_stop joined
  pass "$name"
}

case_fat_tree() {
  local name="two-level fat tree, 1,024 hosts on 64 leaves and 16 spines: opensm (as the role starts it) reaches SUBNET UP; ibnetdiscover and iblinkinfo see every host and every port Active; ibkit fabric passes all 2,048 links and 4,096 ports' counters, and sweep --pattern topo from its saved topology covers all 1,024 switch-to-switch links in one round, topo-blame crosses each both ways by three pairs apart with 3 partners a host in 3 rounds, and tests/fixtures/topology/fat-tree-1024.topology is this fabric"
  local out="$work/fattree" log="$work/fattree/opensm-viper/opensm.log" begin cas switches up_at
  mkdir -p "$out"
  "$py" tests/subnet/fat_tree.py 64 16 viper >"$work/fattree.net"
  fabric_start fattree "$work/fattree.net" || { fail "$name" "the fabric did not start"; return; }
  begin=$(now)
  master_up fattree h1024 || { fail "$name" "no master"; return; }
  # Every port once per end: 1,024 HCA ports, 64 leaves x 32 ports, 16 spines x 64 ports.
  until_true 60 fat_tree_active "$out/iblinkinfo.txt" 4096 || { fail "$name" "$why"; return; }
  echo "      iblinkinfo: 4096 of 4096 port lines Active/LinkUp $(elapsed "$begin") s after opensm started"
  sim fattree h1024 30 ibnetdiscover >"$out/ibnetdiscover.txt" 2>&1 || { fail "$name" "ibnetdiscover failed"; return; }
  cas=$(grep -c '^Ca' "$out/ibnetdiscover.txt")
  switches=$(grep -c '^Switch' "$out/ibnetdiscover.txt")
  echo "      ibnetdiscover: $cas CAs, $switches switches"
  [ "$cas" -eq 1024 ] || switches=wrong
  [ "$switches" = 80 ] || { fail "$name" "expected 1024 CAs and 80 switches"; return; }
  begin=$(now)
  fabric_run fattree h1024 fabric-fat-tree --save-topology "$out/topology" || { fail "$name" "ibkit fabric: $why"; return; }
  echo "      ibkit fabric --save-topology: $(elapsed "$begin") s for 1,104 nodes and 80 forwarding tables, exit $fabric_status"
  # sweep --pattern topo from that topology: every switch-to-switch link opensm routes over, in
  # a round or two (a dry run: no agent runs here).
  "$py" -c 'print("viper 10.1.0.1"); [print("h%04d 10.1.%d.%d" % (i, i // 250, i % 250 + 1)) for i in range(2, 1025)]' >"$out/hosts"
  "$ibkit" sweep --hosts "$out/hosts" --pattern "topo:$out/topology" --dry-run >"$out/topo.txt" 2>&1 ||
    { fail "$name" "sweep --pattern topo: $(head -c 300 "$out/topo.txt")"; return; }
  echo "      $(cat "$out/topo.txt")"
  grep -Eq " [12] rounds?.*; the rounds cover 1024 of 1024 switch-to-switch links" "$out/topo.txt" ||
    { fail "$name" "sweep --pattern topo did not cover every link in one or two rounds"; return; }
  "$ibkit" sweep --hosts "$out/hosts" --pattern "topo-blame:$out/topology" --dry-run >"$out/topo-blame.txt" 2>&1 ||
    { fail "$name" "sweep --pattern topo-blame: $(head -c 300 "$out/topo-blame.txt")"; return; }
  echo "      $(cat "$out/topo-blame.txt")"
  grep -q " 3 rounds.*; the rounds cross 1024 of 1024 switch-to-switch links both ways, by three pairs no two of which share a node; every host has 3 partners" "$out/topo-blame.txt" ||
    { fail "$name" "sweep --pattern topo-blame did not cross every link twice and give every host 3 partners in 3 rounds"; return; }
  keep_topology "$out/topology" fat-tree-1024
  # The fixture the unit tests and the fleet simulator read is this fabric's, as opensm routes it.
  fabric_run fattree h1024 fabric-fixture --topology "$PWD/tests/fixtures/topology/fat-tree-1024.topology" || { fail "$name" "ibkit fabric --topology: $why"; return; }
  expect_fabric fabric-fixture fabric.topology pass "1104 nodes, 2048 links as saved" 1 ||
    { fail "$name" "tests/fixtures/topology/fat-tree-1024.topology is not this fabric (SUBNET_FIXTURES=1 saves it anew): $why"; return; }
  expect_fabric fabric-fat-tree fabric.link pass "2048 links ACTIVE" || { fail "$name" "$why"; return; }
  expect_fabric fabric-fat-tree fabric.duplicates pass "1104 node GUIDs" || { fail "$name" "$why"; return; }
  expect_fabric fabric-fat-tree fabric.counters pass "4096 ports within [limits]" 1 || { fail "$name" "$why"; return; }
  if ! snap_judge fattree h1024 fat-tree-h1024 32; then fail "$name" "no snapshot or report"; return; fi
  expect_result fat-tree-h1024 port.state pass "ACTIVE/LinkUp" || { fail "$name" "$why"; return; }
  # opensm writes its log out when it stops (no log flush by default).
  stop_pid "${master_pid[fattree]}"
  forget_runner "${master_pid[fattree]}"
  fabric_stop fattree
  up_at=$(grep -m 1 -o '[0-9:]* [0-9]* \[[0-9A-F]*\] 0x02 -> SUBNET UP' "$log")
  echo "      opensm.log: ${up_at:-no SUBNET UP}"
  [ -n "$up_at" ] || { fail "$name" "opensm never logged SUBNET UP"; return; }
  pass "$name"
}

# A two-level fat tree of 4,096 hosts (128 leaves of 32, 32 spines), brought up only to save its
# topology for the fleet simulator (bench/fleet-sim.sh runs it): not one of the tier's cases.
case_fat_tree_4096() {
  local name="two-level fat tree, 4,096 hosts on 128 leaves and 32 spines: opensm routes it and ibkit fabric saves its topology"
  local out="$work/fattree4k"
  mkdir -p "$out"
  "$py" tests/subnet/fat_tree.py 128 32 viper >"$work/fattree4k.net"
  fabric_start fattree4k "$work/fattree4k.net" -N 4256 -P 24576 || { fail "$name" "the fabric did not start"; return; }
  master_up fattree4k h4096 || { fail "$name" "no master"; return; }
  # Every port once per end: 4,096 HCA ports, 128 leaves x 64 ports, 32 spines x 128 ports.
  FAT_TREE=fattree4k FAT_TREE_NODE=h4096 until_true 240 fat_tree_active "$out/iblinkinfo.txt" 16384 ||
    { fail "$name" "$why"; return; }
  fabric_run fattree4k h4096 fabric-fat-tree-4096 --save-topology "$out/topology" ||
    { fail "$name" "ibkit fabric: $why"; return; }
  keep_topology "$out/topology" fat-tree-4096
  stop_pid "${master_pid[fattree4k]}"
  forget_runner "${master_pid[fattree4k]}"
  fabric_stop fattree4k
  pass "$name"
}

# keep_topology FILE NAME: a saved topology into $SUBNET_TOPOLOGIES/NAME.topology when that is set
# (what the fleet simulator reads), and with SUBNET_FIXTURES=1 over
# tests/fixtures/topology/NAME.topology when that fixture exists.
keep_topology() {
  if [ -n "${SUBNET_TOPOLOGIES:-}" ]; then
    mkdir -p "$SUBNET_TOPOLOGIES" && cp "$1" "$SUBNET_TOPOLOGIES/$2.topology"
  fi
  if [ "${SUBNET_FIXTURES:-0}" = 1 ] && [ -f "tests/fixtures/topology/$2.topology" ]; then
    cp "$1" "tests/fixtures/topology/$2.topology"
  fi
}

# fat_tree_active FILE COUNT: iblinkinfo into FILE shows COUNT port lines, all Active/LinkUp
# (on $FAT_TREE from $FAT_TREE_NODE: fattree from h1024 unless set).
fat_tree_active() {
  local links active
  sim "${FAT_TREE:-fattree}" "${FAT_TREE_NODE:-h1024}" 30 iblinkinfo >"$1" 2>&1 || { why="iblinkinfo failed"; return 1; }
  links=$(grep -c '==(' "$1")
  active=$(grep -c '==(.*Active/ *LinkUp)' "$1")
  why="iblinkinfo: $active of $links port lines Active/LinkUp, not $2 of $2"
  [ "$links" -eq "$2" ] && [ "$active" -eq "$2" ]
}

all_cases=(case_b2b_before_sm case_b2b_role_guid case_b2b_master case_b2b_cable_pulled
  case_switch_master_standby case_switch_failover case_fabric_faults case_narrowed_link case_two_masters
  case_fat_tree)
# shellcheck disable=SC2206  # SUBNET_CASES is a list of function names, split on purpose
cases=(${SUBNET_CASES:-${all_cases[*]}})
run_cases "${cases[@]}"
echo "subnet tier took $(($(date +%s) - started)) s"
cases_summary
