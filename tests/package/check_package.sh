#!/usr/bin/env bash
# Host tier, the package: builds the .deb (make package's two steps, quick when nothing
# changed), then checks it with lintian and dpkg-deb, and runs what it installs from a copy
# extracted into a temporary directory: the agent, a man page, the bash completion, the units.
# Each case prints its name and PASS/FAIL. No root, nothing installed on this machine.
#   BUILD_DIR=build   the configured build directory (cmake -S . -B build -G Ninja)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source-path=SCRIPTDIR source=../host/lib.sh
source tests/host/lib.sh
# shellcheck source-path=SCRIPTDIR source=lib.sh
source tests/package/lib.sh
help_words=$PWD/packaging/help_words.sh

for tool in lintian dpkg-deb man bash; do
  command -v "$tool" >/dev/null || { echo "package: needs $tool (scripts/install-deps.sh build host)"; exit 1; }
done
host_require_agent "package"
package_build package
echo "    $deb: $(du -k "$deb" | cut -f1) KiB"
root=$work/root
dpkg-deb -x "$deb" "$root" || { echo "package: dpkg-deb -x $deb failed"; exit 1; }
extracted=$root/usr/bin/ibkit
completion=$root/usr/share/bash-completion/completions/ibkit
mapfile -t subcommands < <("$help_words" "$ibkit" subcommands)

case_lintian() {
  local name="lintian finds no error or warning"
  local out
  out=$(lintian --fail-on error,warning --info "$deb" 2>&1)
  local status=$?
  out=$(grep -v "running with root privileges is not recommended" <<<"$out")
  [ -z "$out" ] || indent 6 <<<"$out"
  [ $status -eq 0 ] || { fail "$name" "lintian exit $status"; return; }
  pass "$name"
}

case_contents() {
  local name="the package holds the agent, a man page per subcommand, the completion, the units, the docs and the alert rules"
  local listing wanted missing=() path sub
  listing=$(dpkg-deb -c "$deb" | awk '{ print $6 }')
  wanted=(./usr/bin/ibkit ./usr/share/man/man1/ibkit.1.gz ./usr/share/man/man5/ibkit.toml.5.gz
    ./usr/share/bash-completion/completions/ibkit
    ./lib/systemd/system/ibkit-check.service ./lib/systemd/system/ibkit-check.timer
    ./usr/share/doc/ibkit/copyright ./usr/share/doc/ibkit/changelog.gz
    ./usr/share/doc/ibkit/ibkit.toml.example ./usr/share/doc/ibkit/operations.md ./etc/ibkit/ibkit.toml
    ./usr/share/ibkit/prometheus/ibkit.rules.yml)
  for sub in "${subcommands[@]}"; do wanted+=("./usr/share/man/man1/ibkit-$sub.1.gz"); done
  for path in "${wanted[@]}"; do grep -qxF -- "$path" <<<"$listing" || missing+=("$path"); done
  [ ${#missing[@]} -eq 0 ] || { fail "$name" "missing ${missing[*]}"; return; }
  pass "$name"
}

# field NAME: the value of NAME in the package's control file ($info).
field() { awk -v f="$1:" '$1 == f { $1 = ""; sub(/^ /, ""); print; exit }' <<<"$info"; }

case_control() {
  local name="the control file names the version of the build, its libraries, a section and a long description"
  local problems=()
  info=$(dpkg-deb -I "$deb")
  [ "$(field Package)" = ibkit ] || problems+=("Package '$(field Package)'")
  [ "$(field Version)" = "$version" ] || problems+=("Version '$(field Version)', built $version")
  [[ "$(field Depends)" == *libibverbs1* ]] || problems+=("Depends '$(field Depends)' lacks libibverbs1")
  [[ "$(field Section)" =~ ^(net|admin)$ ]] || problems+=("Section '$(field Section)'")
  [ -n "$(field Maintainer)" ] || problems+=("no Maintainer")
  # The extended description: the lines after Description, each starting with a space.
  [ "$(awk '/^ Description:/ { on = 1; next } on && /^  / { n++ } END { print n + 0 }' <<<"$info")" -ge 3 ] ||
    problems+=("no extended description")
  [ ${#problems[@]} -eq 0 ] || { fail "$name" "${problems[*]}"; return; }
  pass "$name"
}

case_version() {
  local name="the extracted ibkit --version prints the version of the build"
  local built got
  built=$("$ibkit" --version)
  got=$("$extracted" --version 2>&1) || { fail "$name" "$got"; return; }
  [ "$got" = "$built" ] || { fail "$name" "package: '$got', build: '$built'"; return; }
  echo "      $got (package version $version)"
  pass "$name"
}

case_man_page() {
  local name="the extracted ibkit-check(1) renders with man -l and shows its options"
  local page=$root/usr/share/man/man1/ibkit-check.1.gz out option
  out=$(MANWIDTH=80 man -l "$page" 2>&1) || { fail "$name" "man -l: $out"; return; }
  for option in $("$help_words" "$ibkit" options check); do
    grep -qF -- "$option" <<<"$out" || { fail "$name" "the rendered page lacks $option"; return; }
  done
  pass "$name"
}

case_man_sections() {
  local name="every page has EXIT STATUS, its examples (and ibkit(1)'s) use options its --help lists, and ibkit.toml(5) has every setting"
  local sub page out word problems=() example toml=$root/usr/share/man/man5/ibkit.toml.5.gz key options
  for sub in "" "${subcommands[@]}"; do
    page=$root/usr/share/man/man1/ibkit${sub:+-$sub}.1.gz
    out=$(MANWIDTH=100 man -l "$page" 2>&1)
    grep -q '^EXIT STATUS' <<<"$out" || problems+=("ibkit${sub:+-$sub}(1) has no EXIT STATUS")
    [ -n "$sub" ] || continue
    options=$("$help_words" "$ibkit" options "$sub")
    # Each example's options, as the page's source gives them (packaging/man/ibkit-SUB.h2m).
    while read -r example; do
      for word in $example; do
        word=${word%%=*}
        [[ "$word" == -* ]] || continue
        grep -qxF -- "$word" <<<"$options" ||
          problems+=("ibkit-$sub(1)'s example '$example' uses $word, which ibkit $sub --help does not list")
      done
    done < <(sed -n 's/^\.B \(ibkit '"$sub"' .*\)$/\1/p' "packaging/man/ibkit-$sub.h2m" packaging/man/ibkit.h2m 2>/dev/null | sed 's/\\-/-/g')
  done
  grep -q '^EXAMPLES' <<<"$(man -l "$root/usr/share/man/man1/ibkit.1.gz" 2>&1)" || problems+=("ibkit(1) has no EXAMPLES")
  grep -q '^EXAMPLES' <<<"$(man -l "$root/usr/share/man/man1/ibkit-check.1.gz" 2>&1)" || problems+=("ibkit-check(1) has no EXAMPLES")
  out=$(MANWIDTH=100 man -l "$toml" 2>&1) || problems+=("ibkit.toml(5) does not render")
  while read -r key; do
    grep -qE "^ +$key = " <<<"$out" || problems+=("ibkit.toml(5) lacks $key")
  done < <(sed -n 's/^\([A-Za-z0-9_]*\) *=.*/\1/p' docs/ibkit.toml.example)
  [ ${#problems[@]} -eq 0 ] || { fail "$name" "$(printf '%s; ' "${problems[@]:0:4}")"; return; }
  pass "$name"
}

case_completion_loads() {
  local name="the extracted completion, sourced by bash, completes ibkit with _ibkit"
  local out
  out=$(bash -c 'source "$1" && complete -p ibkit' _ "$completion" 2>&1)
  [ "$out" = "complete -o default -F _ibkit ibkit" ] || { fail "$name" "complete -p: $out"; return; }
  pass "$name"
}

# completes WORD...: what the completion offers for the command line `ibkit WORD...`, one a line.
completes() {
  bash -c 'source "$1"; shift; COMP_WORDS=(ibkit "$@"); COMP_CWORD=$#; _ibkit; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$completion" "$@"
}

case_completion_matches_help() {
  local name="the completion offers every subcommand and option the binary's --help lists"
  local missing=() word sub offered
  offered=$(completes "")
  for sub in "${subcommands[@]}"; do grep -qxF -- "$sub" <<<"$offered" || missing+=("$sub"); done
  offered=$(completes -)
  for word in $("$help_words" "$ibkit" options); do grep -qxF -- "$word" <<<"$offered" || missing+=("$word"); done
  for sub in "${subcommands[@]}"; do
    offered=$(completes "$sub" -)
    for word in $("$help_words" "$ibkit" options "$sub"); do
      grep -qxF -- "$word" <<<"$offered" || missing+=("$sub $word")
    done
  done
  [ ${#missing[@]} -eq 0 ] || { fail "$name" "packaging/ibkit.bash-completion lacks: ${missing[*]}"; return; }
  pass "$name"
}

case_completion_values() {
  local name="the completion offers the values of --format, --test and --pattern, each --format one the binary takes"
  local sub listed offered value missing=()
  for sub in devices check pair fabric report; do
    # The choices --help shows, "--format text|json|junit".
    listed=$("$ibkit" "$sub" --help | awk '$1 == "--format" { gsub(/\|/, " ", $2); print $2 }')
    offered=$(completes "$sub" --format "")
    for value in $listed; do grep -qxF -- "$value" <<<"$offered" || missing+=("$sub --format $value"); done
    for value in $offered; do [[ " $listed " == *" $value "* ]] || missing+=("$sub --format $value (not in --help)"); done
  done
  grep -qxF html <<<"$(completes sweep --format "")" || missing+=("sweep --format html")
  grep -qxF bw <<<"$(completes pair --test b)" || missing+=("pair --test bw")
  grep -qxF ring <<<"$(completes sweep --pattern r)" || missing+=("sweep --pattern ring")
  [ ${#missing[@]} -eq 0 ] || { fail "$name" "packaging/ibkit.bash-completion: ${missing[*]}"; return; }
  pass "$name"
}

case_units_verify() {
  local name="systemd-analyze verify accepts the extracted units, without a warning"
  local verify=$work/verify units=lib/systemd/system out
  if ! command -v systemd-analyze >/dev/null; then fail "$name" "no systemd-analyze (scripts/install-deps.sh host)"; return; fi
  # A root of its own: the package, this machine's units (sysinit.target...) and the /bin/sh
  # of ExecStartPre, so verify finds /usr/bin/ibkit from the package and nothing is installed.
  if ! { cp -a "$root" "$verify" && mkdir -p "$verify/bin" && cp -L /bin/sh "$verify/bin/sh" &&
    cp -rn "/$units/." "$verify/$units/"; }; then
    fail "$name" "cannot assemble $verify"; return
  fi
  out=$(systemd-analyze verify --root="$verify" "$verify/$units/ibkit-check.service" \
    "$verify/$units/ibkit-check.timer" 2>&1)
  local status=$?
  [ -z "$out" ] || indent 6 <<<"$out"
  # A setting systemd cannot parse is only a warning, with exit 0: any output fails too.
  if [ $status -ne 0 ] || [ -n "$out" ]; then fail "$name" "exit $status, output above"; return; fi
  pass "$name"
}

case_conffile() {
  local name="/etc/ibkit/ibkit.toml is a conffile with every setting commented out: ibkit check judges as it does without it"
  local conffile=$root/etc/ibkit/ibkit.toml fixture=tests/fixtures/sysfs/cx4-qdr-gpu active with without
  [ "$(dpkg-deb --info "$deb" conffiles)" = /etc/ibkit/ibkit.toml ] ||
    { fail "$name" "the control archive's conffiles is not /etc/ibkit/ibkit.toml"; return; }
  active=$(grep -vE '^[[:space:]]*(#|$)' "$conffile")
  [ -z "$active" ] || { fail "$name" "lines not commented out: $(head -n 2 <<<"$active")"; return; }
  grep -q '^# \[expect\]$' "$conffile" || { fail "$name" "the example's [expect] is not in it"; return; }
  with=$("$extracted" check --root "$fixture" --config "$conffile" --format json | results_of) ||
    { fail "$name" "ibkit check --config $conffile: no report"; return; }
  without=$("$extracted" check --root "$fixture" --format json | results_of) ||
    { fail "$name" "ibkit check without --config: no report"; return; }
  [ "$with" = "$without" ] || { fail "$name" "the results differ with the conffile"; return; }
  pass "$name"
}

# results_of: a check report's results (stdin), one JSON line, without where the config came from.
results_of() { /usr/bin/python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["results"]))'; }

case_maintainer_scripts() {
  local name="the maintainer scripts reload systemd, stop the timer on removal and enable or start nothing"
  local script control=$work/control out
  dpkg-deb -e "$deb" "$control" || { fail "$name" "dpkg-deb -e failed"; return; }
  for script in postinst prerm postrm; do
    [ -x "$control/$script" ] || { fail "$name" "no executable $script"; return; }
    out=$(sh -n "$control/$script" 2>&1) || { fail "$name" "$script: $out"; return; }
  done
  grep -q 'daemon-reload' "$control/postinst" || { fail "$name" "postinst does not reload systemd"; return; }
  grep -q 'stop ibkit-check.timer' "$control/prerm" || { fail "$name" "prerm does not stop the timer"; return; }
  if grep -vhE '^[[:space:]]*#' "$control"/postinst "$control"/prerm "$control"/postrm |
    grep -E '(^|[[:space:]])(enable|start|restart)([[:space:]]|$)'; then
    fail "$name" "a maintainer script enables or starts a unit: the admin decides that"; return
  fi
  pass "$name"
}

# debian_version VERSION_TEXT COMMIT_COUNT: the package version write_package_version.cmake makes.
debian_version() {
  local dir=$work/version
  rm -rf "$dir" && mkdir -p "$dir" && printf '%s\n' "$1" >"$dir/in"
  cmake -DVERSION_TEXT="$dir/in" -DSOURCE_DIR="$PWD" -DDIR="$dir" -DMAINTAINER="test <t@t>" \
    -DCOMMIT_COUNT="$2" -P packaging/write_package_version.cmake >/dev/null 2>&1 && cat "$dir/package_version"
}

case_versions_sort() {
  local name="package versions sort by commit, not by hash, for dpkg and rpm: snapshots before their release, commits after a tag after it"
  local ordered=() i
  # A later snapshot whose hash sorts first; the release; two builds after its tag.
  ordered+=("$(debian_version 0.1.0+fffffff 498)") ordered+=("$(debian_version 0.1.0+0000000 499)")
  ordered+=("$(debian_version 0.1.0+0000000-dirty 499)") ordered+=("$(debian_version 0.1.0 0)")
  ordered+=("$(debian_version 0.1.0+v0.1.0-3-gfffffff 0)") ordered+=("$(debian_version 0.1.0+v0.1.0-4-g0000000 0)")
  echo "      ${ordered[*]}"
  [ "${ordered[0]}" = "0.1.0~git498.gfffffff" ] || { fail "$name" "a snapshot is '${ordered[0]}'"; return; }
  for i in 1 2 3 4 5; do
    dpkg --compare-versions "${ordered[i-1]}" lt "${ordered[i]}" ||
      { fail "$name" "${ordered[i-1]} does not sort before ${ordered[i]}"; return; }
    # The .rpm has the same version: rpm's order must agree (rpm.vercmp: -1 when older).
    ! command -v rpm >/dev/null ||
      [ "$(rpm --eval "%{lua: print(rpm.vercmp('${ordered[i-1]}', '${ordered[i]}'))}")" = -1 ] ||
      { fail "$name" "rpm does not sort ${ordered[i-1]} before ${ordered[i]}"; return; }
  done
  pass "$name"
}

# build_id FILE: the ELF file's GNU build ID.
build_id() { readelf -n "$1" 2>/dev/null | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p'; }

case_debug_symbols() {
  local name="the agent is stripped and its debug information is in ibkit-dbgsym, under its build ID"
  local ddeb=${deb%.deb}-dbgsym.ddeb id debug=$work/dbgsym
  [ -f "$ddeb" ] || { fail "$name" "make package wrote no $ddeb"; return; }
  if readelf -S "$extracted" | grep -q '\.debug_info'; then fail "$name" "the packaged agent has .debug_info"; return; fi
  id=$(build_id "$extracted")
  [ -n "$id" ] || { fail "$name" "the packaged agent has no build ID"; return; }
  [ "$(dpkg-deb -f "$ddeb" Package Depends | tr '\n' ' ')" = "Package: ibkit-dbgsym Depends: ibkit (= $version) " ] ||
    { fail "$name" "its control: $(dpkg-deb -f "$ddeb" Package Depends | tr '\n' ' ')"; return; }
  dpkg-deb -x "$ddeb" "$debug" || { fail "$name" "dpkg-deb -x $ddeb failed"; return; }
  local file=$debug/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
  [ -f "$file" ] || { fail "$name" "no $file"; return; }
  readelf -S "$file" 2>/dev/null | grep -q '\.debug_info' || { fail "$name" "$file has no .debug_info"; return; }
  [ "$(build_id "$file")" = "$id" ] || { fail "$name" "its build ID differs from the agent's"; return; }
  echo "      $(du -k "$ddeb" | cut -f1) KiB beside the $(du -k "$deb" | cut -f1) KiB package"
  pass "$name"
}

case_role_binary() {
  local name="the agent the ibkit_agent role copies by default is the build's, without debug information"
  local stripped=$build_dir/agent/stripped/ibkit default
  default=$(sed -n 's/^ibkit_agent_binary: *"{{ playbook_dir }}\/\.\.\/\(.*\)"$/\1/p' roles/ibkit_agent/defaults/main.yml)
  [ "$default" = build/agent/stripped/ibkit ] || { fail "$name" "the role's default is '$default'"; return; }
  [ -x "$stripped" ] || { fail "$name" "the build made no $stripped"; return; }
  if readelf -S "$stripped" | grep -q '\.debug_info'; then fail "$name" "$stripped has .debug_info"; return; fi
  [ "$("$stripped" --version)" = "$("$ibkit" --version)" ] || { fail "$name" "its --version differs"; return; }
  echo "      $(du -k "$stripped" | cut -f1) KiB, the build's agent $(du -k "$ibkit" | cut -f1) KiB"
  pass "$name"
}

run_cases case_lintian case_contents case_control case_version case_man_page case_man_sections case_completion_loads \
  case_completion_matches_help case_completion_values case_units_verify case_conffile case_maintainer_scripts case_versions_sort case_debug_symbols
  case_role_binary
cases_summary
