#!/usr/bin/env bash
# Host tier: `ibkit serve` and its peers in two network namespaces joined by a veth pair
# (10.250.0.1 and 10.250.0.2, inside the namespaces only; nothing leaves this machine).
# Each case prints its name and PASS/FAIL, every command has a timeout, and the namespaces
# are removed whatever happens. Needs root (ip netns), python3 and openssl.
#   BUILD_DIR=build   where agent/ibkit was built
#   HOST_CASES="case_wrong_key case_relay_cannot_alter"   only these cases (default: all)
#   HOST_SKIP="case_package"                               all but these
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source-path=SCRIPTDIR source=lib.sh
source tests/host/lib.sh
client=(python3 "$PWD/tests/host/peer_client.py")
relay=(python3 "$PWD/tests/host/relay.py")
host_require_agent "host tier"
host_require_namespaces "host tier"
# peer_client.py speaks TLS through openssl s_client (Python's ssl has no TLS 1.3 external PSK).
command -v openssl >/dev/null || { echo "host tier: needs openssl (scripts/install-deps.sh host)"; exit 1; }

ns_a="ibkit-h$$-a"
ns_b="ibkit-h$$-b"
addr_a=10.250.0.1
addr_b=10.250.0.2
port=18515
work=$(mktemp -d /tmp/ibkit-host.XXXXXX)
server_pid=""
extra_pids=""
started=$(date +%s)

cleanup() {
  # Only the processes this script started, by their ids; then the namespaces (and the veth).
  # The server gets SIGTERM (it stops at once, and the shell reports no "Killed" line).
  for pid in $extra_pids; do kill -9 "$pid" 2>/dev/null; done
  if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
  ip netns del "$ns_a" 2>/dev/null
  ip netns del "$ns_b" 2>/dev/null
  rm -rf "$work" "/etc/netns/$ns_b"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Foreground only: a backgrounded shell function is a subshell, and its $! is not the command's
# pid; background commands below call `ip netns exec` directly (it execs, keeping the pid).
in_a() { ip netns exec "$ns_a" "$@"; }
in_b() { ip netns exec "$ns_b" "$@"; }

set -e
ip netns add "$ns_a"
ip netns add "$ns_b"
ip link add "ibkh$$a" type veth peer name "ibkh$$b"
ip link set "ibkh$$a" netns "$ns_a"
ip link set "ibkh$$b" netns "$ns_b"
in_a ip addr add "$addr_a/24" dev "ibkh$$a"
in_b ip addr add "$addr_b/24" dev "ibkh$$b"
for ns in "$ns_a" "$ns_b"; do ip netns exec "$ns" ip link set lo up; done
in_a ip link set "ibkh$$a" up
in_b ip link set "ibkh$$b" up
set +e

write_keys "$work"

# Waits up to $2 s for the server log to hold $1 (a fixed string); 0 when it does.
wait_for_log() { wait_for_text "$work/server.log" "$1" "$2"; }
sessions_logged() { grep -c "^ibkit serve: session " "$work/server.log"; }
# "1.5 < x < 1000" style checks on a number printed by a command.
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x > lo && x < hi) }'; }
# pair_at PORT ARGS...: ibkit pair from B to A's PORT; pair ARGS...: to the server's port.
pair_at() {
  local at=$1
  shift
  timeout 30 ip netns exec "$ns_b" "$ibkit" pair "$addr_a" --port "$at" "$@"
}
pair() { pair_at "$port" "$@"; }

# The long-running server of most cases, in namespace A.
# Its own --deadline bounds it (a `timeout` wrapper would hide its pid from kill and wait).
ip netns exec "$ns_a" "$ibkit" serve --bind "$addr_a" --port "$port" --key-file "$work/key" --deadline 120 \
  --session-timeout 30 2>"$work/server.log" &
server_pid=$!
if ! wait_for_log "listening on $addr_a:$port" 5; then
  echo "host tier: ibkit serve did not start:"; cat "$work/server.log"; exit 1
fi

case_tcp_between_namespaces() {
  local name="ibkit pair --test tcp from B to ibkit serve in A reports sane Gb/s"
  local out gbps
  out=$(pair --test tcp --key-file "$work/key" --qps 2 --duration 2 --deadline 10 --format json)
  local status=$?
  gbps=$(echo "$out" | json_field '["tests"][0]["tcp"]["gbps"]' 2>/dev/null)
  if [ $status -ne 0 ]; then fail "$name" "exit $status: $out"; return; fi
  if ! between "${gbps:-0}" 0.01 2000; then fail "$name" "gbps '$gbps' is not sane"; return; fi
  echo "      veth, 2 streams, 2 s: $gbps Gb/s"
  pass "$name"
}

case_documented_protocol() {
  local name="a client written from docs/protocol.md (python stdlib + openssl s_client) runs the tcp test, bidir"
  local out
  out=$(timeout 30 ip netns exec "$ns_b" "${client[@]}" tcp "$addr_a" "$port" --key-file "$work/key" \
    --qps 3 --iters 200 --size 65536 --bidir 2>&1)
  local status=$?
  local bytes
  bytes=$(echo "$out" | json_field '["bytes"]' 2>/dev/null)
  if [ $status -ne 0 ]; then fail "$name" "exit $status: $out"; return; fi
  if [ "$bytes" != $((2 * 3 * 200 * 65536)) ]; then fail "$name" "bytes $bytes"; return; fi
  pass "$name"
}

case_client_killed() {
  local name="a client killed -9 mid-test: the server logs the error and serves the next session"
  local before after
  before=$(sessions_logged)
  ip netns exec "$ns_b" "$ibkit" pair "$addr_a" --port "$port" --test tcp --key-file "$work/key" \
    --qps 2 --duration 5 --deadline 10 >/dev/null 2>&1 &
  local victim=$!
  extra_pids="$victim"
  sleep 1.5
  kill -9 "$victim"
  wait "$victim" 2>/dev/null
  extra_pids=""
  local start
  start=$(now)
  if ! wait_for_log "session $((before + 1)) from $addr_b" 5; then
    fail "$name" "no session line within 5 s of the kill"; return
  fi
  local line
  line=$(grep "session $((before + 1)) from" "$work/server.log")
  echo "      server noticed in $(elapsed "$start") s: ${line#ibkit serve: }"
  if [[ "$line" != *"failed after"* ]]; then fail "$name" "logged: $line"; return; fi
  if ! pair --test tcp --key-file "$work/key" --duration 1 --deadline 10 >/dev/null; then
    fail "$name" "the next session failed"; return
  fi
  after=$(sessions_logged)
  [ "$after" -eq $((before + 2)) ] || { fail "$name" "sessions $before -> $after"; return; }
  pass "$name"
}

case_peer_never_answers() {
  local name="a peer that accepts and never answers: the client fails within its deadline, exit 1"
  ip netns exec "$ns_a" "${client[@]}" silent-server 18600 --deadline 15 >"$work/silent.out" 2>&1 &
  local silent=$!
  extra_pids="$silent"
  wait_for_text "$work/silent.out" listening 5
  local start out status seconds
  start=$(now)
  out=$(timeout 20 ip netns exec "$ns_b" "$ibkit" pair "$addr_a" --port 18600 --test tcp \
    --key-file "$work/key" --deadline 2 2>&1)
  status=$?
  seconds=$(elapsed "$start")
  kill -9 "$silent" 2>/dev/null; wait "$silent" 2>/dev/null
  extra_pids=""
  echo "      gave up after $seconds s (deadline 2 s): $(echo "$out" | grep -m1 -o 'peer .*sent nothing[^|]*')"
  if [ $status -ne 1 ]; then fail "$name" "exit $status: $out"; return; fi
  if ! between "$seconds" 1.5 5; then fail "$name" "took $seconds s"; return; fi
  if [[ "$out" != *"sent nothing for "*"(deadline passed)"* ]]; then fail "$name" "unclear message: $out"; return; fi
  pass "$name"
}

case_name_service_silent() {
  local name="a host name the name service never answers for: the client gives up at its deadline"
  # `ip netns exec` puts /etc/netns/NS/resolv.conf in place of /etc/resolv.conf: a name server
  # on a link inside ns_b whose other end has no address, so every query goes unanswered.
  mkdir -p "/etc/netns/$ns_b"
  printf 'nameserver 10.250.9.2\noptions timeout:30 attempts:1\n' >"/etc/netns/$ns_b/resolv.conf"
  in_b ip link add ibkhd0 type veth peer name ibkhd1 2>/dev/null
  in_b ip addr add 10.250.9.1/24 dev ibkhd0 2>/dev/null
  in_b ip link set ibkhd0 up
  in_b ip link set ibkhd1 up
  local start out status seconds
  start=$(now)
  out=$(timeout 20 ip netns exec "$ns_b" "$ibkit" pair never-answered.ibkit.test --test tcp \
    --key-file "$work/key" --deadline 2 2>&1)
  status=$?
  seconds=$(elapsed "$start")
  echo "      gave up after $seconds s (deadline 2 s): $(echo "$out" | grep -m1 -o 'never-answered[^|]*answer within [0-9.]* s')"
  if [ $status -ne 1 ]; then fail "$name" "exit $status: $out"; return; fi
  if ! between "$seconds" 1.5 5; then fail "$name" "took $seconds s"; return; fi
  if [[ "$out" != *"the name service gave no answer within"* ]]; then fail "$name" "unclear message: $out"; return; fi
  pass "$name"
}

case_broken_frames() {
  local name="garbage and oversize frames are refused, logged, and the server keeps serving"
  local out
  if ! out=$(timeout 20 ip netns exec "$ns_b" "${client[@]}" frames "$addr_a" "$port" --key-file "$work/key" \
    --deadline 5 2>&1); then
    fail "$name" "$out"; return
  fi
  echo "$out" | indent 6
  wait_for_log "not a JSON object" 3 || { fail "$name" "garbage not logged"; return; }
  wait_for_log "4294967295 bytes, over the limit of 65536" 3 || { fail "$name" "oversize not logged"; return; }
  timeout 10 ip netns exec "$ns_b" "${client[@]}" tcp "$addr_a" "$port" --key-file "$work/key" --iters 10 \
    >/dev/null || { fail "$name" "the next session failed"; return; }
  pass "$name"
}

case_wrong_key() {
  local name="a wrong key fails the TLS handshake on both ends, with one clear line each"
  # A server of its own: refusals are logged once per 10 s, and this one's must be the first.
  ip netns exec "$ns_a" "$ibkit" serve --bind "$addr_a" --port 18702 --key-file "$work/key" \
    --deadline 20 2>"$work/keyed.log" &
  local keyed=$!
  extra_pids="$keyed"
  wait_for_text "$work/keyed.log" listening 5
  local out status keyless
  out=$(pair_at 18702 --test tcp --key-file "$work/wrong.key" --deadline 5 2>&1)
  status=$?
  keyless=$(pair_at 18702 --test tcp --deadline 5 2>&1)
  wait_for_text "$work/keyed.log" "the peer does not hold this key" 3
  kill -TERM "$keyed"
  wait "$keyed"
  extra_pids=""
  if [ $status -ne 1 ]; then fail "$name" "exit $status: $out"; return; fi
  if [[ "$out" != *"peer $addr_a:18702: the peer does not hold this key (TLS handshake failed)"* ]]; then
    fail "$name" "client said: $out"; return
  fi
  grep -q "connection refused: peer $addr_b:[0-9]*: the peer does not hold this key (TLS handshake failed)$" \
    "$work/keyed.log" || { fail "$name" "server did not log it: $(cat "$work/keyed.log")"; return; }
  if [[ "$keyless" != *"refused: this server requires a key"* ]]; then fail "$name" "keyless client: $keyless"; return; fi
  grep -q "1 more refused connection(s) not logged" "$work/keyed.log" ||
    { fail "$name" "the keyless client's refusal is not counted: $(cat "$work/keyed.log")"; return; }
  echo "      server: $(grep -m1 'connection refused' "$work/keyed.log")"
  pass "$name"
}

# relay_start PORT [--tamper]: the relay (tests/host/relay.py) in namespace A on PORT, in front
# of the server; it has no key. Sets relay_pid.
relay_start() {
  local port=$1
  shift
  : >"$work/relay.bytes"
  ip netns exec "$ns_a" "${relay[@]}" "$addr_a" "$port" "$addr_a" "$port_of_server" \
    --record "$work/relay.bytes" --deadline 30 "$@" >"$work/relay.out" 2>&1 &
  relay_pid=$!
  extra_pids="$relay_pid"
  wait_for_text "$work/relay.out" listening 5
}
relay_stop() { kill -9 "$relay_pid" 2>/dev/null; wait "$relay_pid" 2>/dev/null; extra_pids=""; }
port_of_server=$port

case_relay_cannot_read() {
  local name="a relay without the key carries a session but reads none of its frames"
  relay_start 18620
  local out status
  out=$(pair_at 18620 --test tcp --key-file "$work/key" --qps 2 --duration 1 --deadline 10 2>&1)
  status=$?
  relay_stop
  if [ $status -ne 0 ]; then fail "$name" "the relayed session failed ($status): $out"; return; fi
  local size seen=""
  size=$(stat -c %s "$work/relay.bytes")
  [ "$size" -gt 200 ] || { fail "$name" "the relay carried only $size bytes"; return; }
  local text
  for text in '"type"' '"request"' '"qps"' 'tcp_done' "$(cat "$work/key")"; do
    grep -a -q -F -- "$text" "$work/relay.bytes" && seen="$seen $text"
  done
  [ -z "$seen" ] || { fail "$name" "the relay read:$seen"; return; }
  echo "      $size bytes relayed from the client, none of them frame text or the key"
  pass "$name"
}

case_relay_cannot_alter() {
  local name="a relay that flips a bit in the request ends the session; no test runs"
  local before out status
  before=$(sessions_logged)
  relay_start 18621 --tamper
  out=$(pair_at 18621 --test tcp --key-file "$work/key" --qps 2 --duration 1 --deadline 10 2>&1)
  status=$?
  wait_for_log "session $((before + 1)) from" 5
  relay_stop
  grep -q tampered "$work/relay.out" || { fail "$name" "the relay never tampered: $(cat "$work/relay.out")"; return; }
  if [ $status -ne 1 ]; then fail "$name" "the client did not fail ($status): $out"; return; fi
  local line
  line=$(grep "session $((before + 1)) from" "$work/server.log")
  echo "      server: ${line#ibkit serve: }"
  if [[ "$line" != *"test -: failed"*"failed its integrity check"* ]]; then
    fail "$name" "the server did not refuse the altered frame: $line"; return
  fi
  pair --test tcp --key-file "$work/key" --duration 0.5 --deadline 10 >/dev/null ||
    { fail "$name" "the next session failed"; return; }
  pass "$name"
}

case_preauth_flood() {
  local name="silent clients reconnecting all along: 12 authenticated pairs in a row all pass"
  # Four connections that never speak, each held until the server drops it (its handshake
  # deadline, 5 s), then opened again at once.
  local refusals_before
  refusals_before=$(grep -c "connection refused" "$work/server.log")
  ip netns exec "$ns_b" "${client[@]}" silent-clients "$addr_a" "$port" --count 4 --every 30 \
    --deadline 60 >"$work/silent-clients.out" 2>&1 &
  local flood=$!
  extra_pids="$flood"
  sleep 1
  local i passed_pairs=0 failures=""
  for i in $(seq 12); do
    if out=$(pair --test tcp --key-file "$work/key" --duration 0.3 --deadline 10 2>&1); then
      passed_pairs=$((passed_pairs + 1))
    else
      failures="$failures | pair $i: $(echo "$out" | grep -m1 -o 'stopped: .*')"
    fi
    sleep 0.5  # ~10 s in all: the server cuts the silent ones (5 s) and they come back
  done
  kill "$flood" 2>/dev/null; wait "$flood" 2>/dev/null
  extra_pids=""
  local refusals
  refusals=$(($(grep -c "connection refused" "$work/server.log") - refusals_before))
  echo "      $passed_pairs of 12 pairs passed; the silent clients' refusals took $refusals log line(s)"
  [ "$passed_pairs" -eq 12 ] || { fail "$name" "$failures"; return; }
  [ "$refusals" -le 4 ] || { fail "$name" "$refusals refusal lines: the log is not rate-limited"; return; }
  pass "$name"
}

case_rails_deadline() {
  local name="sweep --rails all with a blackholed node ends at --deadline 2, not --connect-timeout 10"
  # 10.250.0.99 resolves to a MAC no one has: every packet to it vanishes, like a dead node's.
  in_b ip neigh replace 10.250.0.99 lladdr 02:00:00:00:00:99 dev "ibkh$$b" nud permanent
  local start out status seconds
  start=$(now)
  out=$(timeout 30 ip netns exec "$ns_b" "$ibkit" sweep --hosts "$addr_a:$port,10.250.0.99:$port" \
    --rails all --deadline 2 --connect-timeout 10 --key-file "$work/key" --test tcp 2>&1)
  status=$?
  seconds=$(elapsed "$start")
  echo "      ended after $seconds s, exit $status: $(echo "$out" | tail -1)"
  if [ $status -ne 3 ] && [ $status -ne 1 ]; then fail "$name" "exit $status: $out"; return; fi
  between "$seconds" 1.5 3.5 || { fail "$name" "took $seconds s"; return; }
  pass "$name"
}

case_absurd_parameters() {
  local name="absurd parameters are refused with a message naming the field"
  # Each request with the word its refusal must contain; one python run (its start is slow).
  local requests=('{"test":"tcp","qps":1000}' '"qps": 1000 is outside 1..64'
    '{"test":"tcp","sizes":[0]}' '"sizes": 0 is outside'
    '{"test":"tcp","iters":0,"duration_s":100000}' '"duration_s": 100000 is outside'
    '{"test":"tcp","iters":-1}' '"iters": -1 is outside'
    '{"test":"tcp","qps":"4"}' '"qps": expected an integer'
    '{"test":"tcp","bogus":1}' '"bogus" is not known'
    '{"test":"nope"}' 'unknown test "nope"')
  local args=() i out status
  for ((i = 0; i < ${#requests[@]}; i += 2)); do args+=(--json "${requests[i]}"); done
  out=$(timeout 30 ip netns exec "$ns_b" "${client[@]}" request "$addr_a" "$port" --key-file "$work/key" \
    "${args[@]}" 2>/dev/null)
  status=$?
  local lines=()
  mapfile -t lines <<<"$out"
  [ $status -eq 1 ] || { fail "$name" "exit $status: $out"; return; }
  for ((i = 0; i < ${#requests[@]}; i += 2)); do
    if [[ "${lines[i / 2]:-}" != "refused: "*"${requests[i + 1]}"* ]]; then
      fail "$name" "${requests[i]}: ${lines[i / 2]:-no answer}"; return
    fi
  done
  echo "      e.g. ${lines[0]}"
  out=$(pair --test tcp --key-file "$work/key" --qps 1000 2>&1)
  if [ $? -ne 2 ] || [[ "$out" != *"--qps"* ]]; then fail "$name" "ibkit pair --qps 1000: $out"; return; fi
  pass "$name"
}

case_busy() {
  local name="a second client while a session runs is told the server is busy"
  ip netns exec "$ns_b" "$ibkit" pair "$addr_a" --port "$port" --test tcp --key-file "$work/key" \
    --duration 4 --deadline 10 >/dev/null 2>&1 &
  local first=$!
  extra_pids="$first"
  sleep 1
  local out status
  out=$(pair --test tcp --key-file "$work/key" --deadline 10 2>&1)
  status=$?
  wait "$first"
  local first_status=$?
  extra_pids=""
  if [ $status -ne 1 ] || [[ "$out" != *"busy"* ]]; then fail "$name" "exit $status: $out"; return; fi
  [ $first_status -eq 0 ] || { fail "$name" "the running session failed ($first_status)"; return; }
  pass "$name"
}

case_sigterm() {
  local name="SIGTERM stops the long-running server cleanly (exit 0)"
  kill -TERM "$server_pid"
  local status
  wait "$server_pid"
  status=$?
  server_pid=""
  if [ $status -ne 0 ]; then fail "$name" "exit $status"; return; fi
  wait_for_log "stopped after" 1 || { fail "$name" "no closing line"; return; }
  pass "$name"
}

case_once_nobody() {
  local name="a --once server with nobody coming exits 1 within its deadline"
  local start out status seconds
  start=$(now)
  out=$(timeout 10 ip netns exec "$ns_a" "$ibkit" serve --once --deadline 1 --port 18700 --bind 127.0.0.1 2>&1)
  status=$?
  seconds=$(elapsed "$start")
  if [ $status -ne 1 ] || [[ "$out" != *"no peer came within 1 s"* ]]; then
    fail "$name" "exit $status after $seconds s: $out"; return
  fi
  between "$seconds" 0.9 3 || { fail "$name" "took $seconds s"; return; }
  pass "$name"
}

case_once_serves_one() {
  local name="a --once server without a key serves one session on loopback, and nowhere else"
  local out status
  out=$(timeout 10 ip netns exec "$ns_a" "$ibkit" serve --once --deadline 5 --port 18701 --bind "$addr_a" 2>&1)
  status=$?
  if [ $status -ne 2 ] || [[ "$out" != *"listens on loopback only"* ]]; then
    fail "$name" "without a key on $addr_a: exit $status: $out"; return
  fi
  ip netns exec "$ns_a" "$ibkit" serve --once --deadline 10 --port 18701 --bind 127.0.0.1 2>"$work/once.log" &
  local once=$!
  extra_pids="$once"
  wait_for_text "$work/once.log" listening 5
  out=$(timeout 20 ip netns exec "$ns_a" "$ibkit" pair 127.0.0.1 --port 18701 --test tcp \
    --duration 1 --deadline 10 2>&1) || { fail "$name" "client: $out"; return; }
  wait "$once"
  status=$?
  extra_pids=""
  [ $status -eq 0 ] || { fail "$name" "server exit $status: $(cat "$work/once.log")"; return; }
  pass "$name"
}

case_launched_server() {
  local name="a launched server reads its key from stdin, serves, and stops when stdin closes (exit 0)"
  local feed server out status start
  # What ssh or srun do: the launcher writes the key down the server's standard input and
  # keeps that pipe open for as long as the server is wanted.
  exec {feed}> >(exec ip netns exec "$ns_a" "$ibkit" serve --bind "$addr_a" --port 18702 --key-file - \
    --until-stdin-closes --session-timeout 30 2>"$work/launched.log")
  server=$!
  extra_pids="$server"
  printf '%s\n' "$(cat "$work/key")" >&"$feed"
  if ! wait_for_text "$work/launched.log" "listening on $addr_a:18702" 5; then
    exec {feed}>&-; fail "$name" "did not start: $(cat "$work/launched.log")"; return
  fi
  grep -qF "key from standard input, until standard input closes" "$work/launched.log" ||
    { exec {feed}>&-; fail "$name" "its first line: $(head -n 1 "$work/launched.log")"; return; }
  if tr '\0' ' ' <"/proc/$server/cmdline" | grep -qF "$(cat "$work/key")"; then
    exec {feed}>&-; fail "$name" "the key is on its command line"; return
  fi
  out=$(pair_at 18702 --test tcp --duration 1 --deadline 10 --key-file "$work/key" 2>&1) ||
    { exec {feed}>&-; fail "$name" "pair: $out"; return; }
  start=$(now)
  exec {feed}>&-
  # Gone within 3 s of its input closing; a server that stays is killed, not waited on.
  while kill -0 "$server" 2>/dev/null && between "$(elapsed "$start")" -1 3; do sleep 0.1; done
  if kill -0 "$server" 2>/dev/null; then
    fail "$name" "still running $(elapsed "$start") s after its standard input closed"; return
  fi
  wait "$server"
  status=$?
  extra_pids=""
  [ $status -eq 0 ] || { fail "$name" "exit $status: $(tail -n 2 "$work/launched.log")"; return; }
  grep -qF "stopped (standard input closed) after 1 session(s)" "$work/launched.log" ||
    { fail "$name" "its last line: $(tail -n 1 "$work/launched.log")"; return; }
  pass "$name"
}

case_report_page() {
  local name="ibkit report's HTML page renders in headless Chromium (tests/host/report_html.sh)"
  if BUILD_DIR="$build_dir" tests/host/report_html.sh | indent 6; then pass "$name"; else fail "$name" "its cases above"; fi
}

case_sweep() {
  local name="ibkit sweep: 16 agents in namespaces on a bridge (tests/host/sweep.sh)"
  if BUILD_DIR="$build_dir" tests/host/sweep.sh | indent 4; then pass "$name"; else fail "$name" "see its cases above"; fi
}

case_package() {
  local name="make package's .deb: lintian, its files, and what it installs runs (tests/package/check_package.sh)"
  if BUILD_DIR="$build_dir" tests/package/check_package.sh | indent 4; then pass "$name"; else fail "$name" "see its cases above"; fi
}

case_rpm() {
  local name="the .rpm: rpmlint, the .deb's files at RHEL's paths, an upgrade that keeps ibkit.toml (tests/package/check_rpm.sh)"
  if BUILD_DIR="$build_dir" tests/package/check_rpm.sh | indent 4; then pass "$name"; else fail "$name" "see its cases above"; fi
}

all_cases=(case_tcp_between_namespaces case_documented_protocol case_client_killed
  case_peer_never_answers case_name_service_silent case_broken_frames case_wrong_key
  case_absurd_parameters case_busy case_relay_cannot_read case_relay_cannot_alter
  case_preauth_flood case_rails_deadline case_sigterm case_once_nobody case_once_serves_one
  case_launched_server case_report_page case_sweep case_package case_rpm)
# shellcheck disable=SC2206  # HOST_CASES is a list of function names, split on purpose
cases=(${HOST_CASES:-${all_cases[*]}})
for skip in ${HOST_SKIP:-}; do
  for i in "${!cases[@]}"; do [ "${cases[i]}" != "$skip" ] || unset 'cases[i]'; done
done
run_cases "${cases[@]}"
echo "host tier took $(($(date +%s) - started)) s; server log:"
indent 4 <"$work/server.log"
cases_summary
