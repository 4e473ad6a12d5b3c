# Simulated InfiniBand fabrics for the subnet tier and the fabric bench: Debian's ibsim in a network
# namespace per fabric (its socket names are fixed), the real opensm and infiniband-diags run as
# simulated nodes through umad2sim, every process bounded by `timeout -k` and stopped by its pid;
# the namespaces and the work directory are removed whatever happens (EXIT, INT, TERM). Sourced
# from the repository's top, after setting subnet_who (the name messages start with); sourcing
# checks for root and the packages, installs what is missing, and makes $work.
# shellcheck shell=bash
# shellcheck source-path=SCRIPTDIR/../.. source=tests/host/lib.sh
source tests/host/lib.sh
: "${subnet_who:?set subnet_who before sourcing tests/subnet/lib.sh}"
host_require_agent "$subnet_who"
# The installer adds only what is missing (quiet and quick when nothing is).
scripts/install-deps.sh subnet || { echo "$subnet_who: scripts/install-deps.sh subnet failed"; exit 1; }
# Debian's python3 (not a pyenv or venv one first in PATH): jinja2, yaml and ansible come from apt.
py=/usr/bin/python3
missing=""
for tool in ip ibsim ibstat sminfo smpquery ibnetdiscover iblinkinfo apt-get dpkg-deb "$py"; do
  command -v "$tool" >/dev/null || missing+=" $tool"
done
"$py" -c "import jinja2, yaml, ansible" 2>/dev/null || missing+=" python3-jinja2/python3-yaml/ansible-core"
preload=$(dpkg -L libumad2sim0 2>/dev/null | grep '/libumad2sim\.so$' | head -n 1)
[ -n "$preload" ] || missing+=" libumad2sim0"
if [ "$(id -u)" -ne 0 ] || [ -n "$missing" ]; then
  echo "$subnet_who: needs root and${missing:- nothing else}; run scripts/install-deps.sh subnet"
  exit 1
fi

# Debian's opensm, unpacked into a cache instead of installed (its libraries are: install-deps.sh
# subnet). An installed opensm brings its service unit to this machine, and the ansible tier's
# check-mode run of the opensm role here would then ask systemd about it, which a CI sandbox
# does not run.
# shellcheck source=scripts/unpacked-program.sh
source scripts/unpacked-program.sh
opensm_bin=$(unpacked_program opensm usr/sbin/opensm "${IBKIT_SUBNET_CACHE:-$HOME/.cache/ibkit-subnet}") || { echo "$subnet_who: cannot unpack Debian's opensm"; exit 1; }

work=$(mktemp -d /tmp/ibkit-subnet.XXXXXX)
runners=""      # pids of `timeout` wrappers of long-running processes (ibsim, opensm)
namespaces=""
declare -A console  # fabric -> fd of its ibsim console FIFO (held open read-write)
declare -A simulator  # fabric -> pid of its ibsim's timeout

# How long a simulator and a subnet manager may live (a caller that needs longer sets them first).
subnet_sim_seconds=${subnet_sim_seconds:-150}
subnet_sm_seconds=${subnet_sm_seconds:-120}

# forget_runner PID: PID leaves the list cleanup stops (a whole word: 312 never takes 3120 along).
forget_runner() {
  local kept="" pid
  for pid in $runners; do [ "$pid" = "$1" ] || kept+=" $pid"; done
  runners=$kept
}

# stop_pid PID: SIGTERM to a `timeout` wrapper (it passes the signal on and, 2 s later, SIGKILL);
# waits at most 5 s, then SIGKILL to the wrapper's child and the wrapper.
stop_pid() {
  local pid=$1 child
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    child=$(pgrep -P "$pid")
    [ -n "$child" ] && kill -KILL "$child" 2>/dev/null
    kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null
}

# cleanup: everything at once and fast (a Ctrl-C, or a caller's `timeout -k`, must not outlast
# it): SIGTERM to every wrapper (each SIGKILLs its child 2 s later), 3 s to go, then SIGKILL.
cleanup() {
  trap '' INT TERM
  local pid="" ns fabric fd child
  for pid in $runners; do kill -TERM "$pid" 2>/dev/null; done
  for _ in $(seq 30); do
    for pid in $runners; do kill -0 "$pid" 2>/dev/null && break; done
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  for pid in $runners; do
    kill -0 "$pid" 2>/dev/null || continue
    for child in $(pgrep -P "$pid"); do kill -KILL "$child" 2>/dev/null; done
    kill -KILL "$pid" 2>/dev/null
  done
  for pid in $runners; do wait "$pid" 2>/dev/null; done
  for fabric in "${!console[@]}"; do fd=${console[$fabric]}; exec {fd}>&-; done
  for ns in $namespaces; do ip netns del "$ns" 2>/dev/null; done
  [ -n "${SUBNET_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# fabric_start FABRIC NETFILE [IBSIM_ARGS...]: ibsim on NETFILE in namespace ibkit-s<pid>-FABRIC,
# its console a FIFO this shell holds open; false (saying why) unless it is ready within 10 s.
fabric_start() {
  local fabric=$1 netfile=$2 ns="ibkit-s$$-$1" dir="$work/$1"
  shift 2
  mkdir -p "$dir/cwd"
  ip netns add "$ns" || return 1
  namespaces+=" $ns"
  ip netns exec "$ns" ip link set lo up
  mkfifo "$dir/console"
  local fd
  exec {fd}<>"$dir/console"
  console[$fabric]=$fd
  (cd "$dir/cwd" && exec timeout -k 2 "$subnet_sim_seconds" ip netns exec "$ns" ibsim -s "$@" "$netfile") \
    <"$dir/console" >"$dir/ibsim.log" 2>&1 &
  simulator[$fabric]=$!
  runners+=" $!"
  wait_for_text "$dir/ibsim.log" "Network simulator ready." 10 && return 0
  echo "      ibsim did not start:"; indent 8 <"$dir/ibsim.log"
  return 1
}

# fabric_console FABRIC LINE: a command to ibsim's console.
fabric_console() { echo "$2" >&"${console[$1]}"; }

# fabric_reap FABRIC: ibsim drops the clients whose process has gone. umad2sim detaches a client
# in its exit handler, which a process that leaves by _exit (ibkit fabric's discovery child)
# never runs, and ibsim has 10 client slots: without this the tenth ibkit fabric of a fabric
# finds none free ("sim_init: connect failed").
fabric_reap() {
  local fabric=$1 log="$work/$1/ibsim.log" before id pid
  before=$(stat -c %s "$log")
  fabric_console "$fabric" Attached
  for _ in $(seq 40); do
    tail -c +$((before + 1)) "$log" | grep -q 'sim> $' && break
    sleep 0.05
  done
  while read -r id pid; do
    kill -0 "$pid" 2>/dev/null || fabric_console "$fabric" "X $id"
  done < <(tail -c +$((before + 1)) "$log" | sed -n 's/^Client \([0-9]*\): pid \([0-9]*\) .*/\1 \2/p')
}

# fabric_stop FABRIC: Quit on the console, 5 s for ibsim to leave, then by its pid.
fabric_stop() {
  local fabric=$1 pid=${simulator[$1]} fd=${console[$1]}
  fabric_console "$fabric" Quit
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  stop_pid "$pid"
  forget_runner "$pid"
  exec {fd}>&-
  unset "console[$fabric]" "simulator[$fabric]"
  ip netns del "ibkit-s$$-$fabric"
  namespaces=${namespaces/ ibkit-s$$-$fabric/}
}

# sim FABRIC NODE SECONDS COMMAND...: COMMAND as simulated node NODE (umad2sim), at most SECONDS.
# It runs in the fabric's scratch directory, where umad2sim writes its sysfs snapshots.
sim() {
  local fabric=$1 node=$2 seconds=$3
  shift 3
  (cd "$work/$fabric/cwd" && timeout -k 1 "$seconds" ip netns exec "ibkit-s$$-$fabric" \
    env SIM_HOST="$node" LD_PRELOAD="$preload" "$@")
}

# port_field FABRIC NODE FIELD: a line of ibstat's port 1 ("State", "SM lid", "Base lid", ...).
port_field() { sim "$1" "$2" 10 ibstat ibsim0 1 | sed -n "s/^$3: *//p"; }

# render_opensm FABRIC NODE ROOT [--standby NODE]: the opensm role's files for inventory host NODE
# with its sysfs at ROOT, into $work/FABRIC/opensm-NODE; prints "guid priority role".
render_opensm() {
  local fabric=$1 node=$2 root=$3
  shift 3
  "$py" tests/subnet/render_opensm.py --host "$node" --root "$root" --out "$work/$fabric/opensm-$node" "$@"
}

# opensm_start FABRIC NODE [ARGS...]: opensm as rendered for NODE (its unit's ExecStart, files
# moved into the work directory) plus ARGS, as simulated node NODE; sets opensm_pid.
opensm_start() {
  local fabric=$1 node=$2 out="$work/$1/opensm-$2" argv
  shift 2
  mapfile -t argv <"$out/opensm.argv"
  # The unit's /usr/sbin/opensm is the same program, unpacked (unpacked_opensm).
  [ "$(basename "${argv[0]}")" = opensm ] && argv[0]=$opensm_bin
  mkdir -p "$out/var"
  (cd "$work/$fabric/cwd" && exec timeout -k 2 "$subnet_sm_seconds" ip netns exec "ibkit-s$$-$fabric" \
    env SIM_HOST="$node" OSM_TMP_DIR="$out/var" OSM_CACHE_DIR="$out/var" LD_PRELOAD="$preload" \
    "${argv[@]}" "$@") >"$out/opensm.out" 2>&1 &
  # shellcheck disable=SC2034  # the caller keeps it
  opensm_pid=$!
  runners+=" $!"
}

# opensm_kill PID: SIGKILL to the opensm under that timeout (a crash, not a clean stop).
opensm_kill() {
  local child
  child=$(pgrep -P "$1")
  [ -n "$child" ] && kill -KILL "$child"
  wait "$1" 2>/dev/null
  forget_runner "$1"
}

# until_true SECONDS COMMAND...: runs COMMAND every 0.2 s until it succeeds; false after SECONDS.
until_true() {
  local end
  end=$(($(date +%s) + $1))
  shift
  while [ "$(date +%s)" -le "$end" ]; do
    "$@" && return 0
    sleep 0.2
  done
  return 1
}

