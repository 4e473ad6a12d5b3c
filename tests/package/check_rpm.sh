#!/usr/bin/env bash
# Host tier, the .rpm: packs the build's files with CPack's RPM generator (make package does the
# same in the portable build, whose agent is the one for RHEL-like images), then checks it with
# rpmlint and rpm: the .deb's files at RHEL's paths, a conffile an upgrade keeps, scriptlets that
# enable nothing, Requires from the agent's libraries, and an upgrade over an older build in an
# rpm --root of its own. Each case prints its name and PASS/FAIL. Needs root for the rpm --root.
#   BUILD_DIR=build   the configured build directory (cmake -S . -B build -G Ninja)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source-path=SCRIPTDIR source=../host/lib.sh
source tests/host/lib.sh
# shellcheck source-path=SCRIPTDIR source=lib.sh
source tests/package/lib.sh

for tool in rpm rpmlint rpm2cpio cpio dpkg-deb; do
  command -v "$tool" >/dev/null || { echo "rpm: needs $tool (scripts/install-deps.sh host)"; exit 1; }
done
host_require_agent "rpm"
package_build rpm RPM
arch=$(uname -m)
rpm_file=$build_dir/ibkit-$version-1.$arch.rpm
[ -f "$rpm_file" ] || { echo "rpm: cpack -G RPM wrote no $rpm_file"; exit 1; }
echo "    $rpm_file: $(du -k "$rpm_file" | cut -f1) KiB"

# Debian's rpm warns on every install that alien is the way; the tests mean rpm itself.
rpm_quiet() { rpm "$@" 2> >(grep -v -e 'use Alien instead' -e 'you know what you are doing' -e 'saved as .*\.rpmsave' >&2); }
query() { rpm -qp "$@" "$rpm_file" 2>/dev/null; }

case_rpmlint() {
  local name="rpmlint (RHEL's man page compression, the filters packaging/rpm/rpmlintrc.toml explains) finds nothing"
  local out
  out=$(rpmlint -c packaging/rpm/rpmlintrc.toml "$rpm_file" 2>&1)
  local status=$?
  if [ $status -ne 0 ] || ! grep -q ' 0 errors, 0 warnings' <<<"$out"; then
    indent 6 <<<"$(grep -E ': (E|W): ' <<<"$out")"; fail "$name" "rpmlint exit $status"; return
  fi
  pass "$name"
}

case_same_files() {
  local name="the .rpm holds the .deb's files, the units in /usr/lib/systemd/system"
  local from_deb from_rpm
  from_deb=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' |
    sed 's#^/lib/systemd/#/usr/lib/systemd/#' | sort)
  # Files, not directories, in one query (it was one rpm run per file).
  from_rpm=$(query --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' |
    awk '$1 !~ /^d/ && $2 !~ /^\/usr\/lib\/\.build-id/ { print $2 }' | sort)
  [ -n "$from_deb" ] || { fail "$name" "no files in $deb"; return; }
  if [ "$from_deb" != "$from_rpm" ]; then
    indent 6 <<<"$(diff <(echo "$from_deb") <(echo "$from_rpm"))"; fail "$name" "they differ (< .deb, > .rpm)"; return
  fi
  pass "$name"
}

case_header() {
  local name="the header names the build's version, release 1, the agent's libraries, a packager and a long description"
  local problems=() requires
  [ "$(query --qf '%{NAME} %{VERSION} %{RELEASE} %{ARCH}')" = "ibkit $version 1 $arch" ] ||
    problems+=("'$(query --qf '%{NAME} %{VERSION} %{RELEASE} %{ARCH}')'")
  requires=$(query --requires)
  grep -q '^libibverbs\.so\.1()(64bit)$' <<<"$requires" || problems+=("no Requires libibverbs.so.1")
  grep -q '^librdmacm\.so\.1()(64bit)$' <<<"$requires" || problems+=("no Requires librdmacm.so.1")
  # Debian's package names mean nothing to dnf.
  ! grep -qE '^lib[a-z]+[0-9]+( |$)' <<<"$requires" || problems+=("a Debian package name in Requires")
  query --qf '%{PACKAGER}' | grep -qv '(none)' || problems+=("no Packager")
  [ "$(query --qf '%{DESCRIPTION}' | wc -l)" -ge 3 ] || problems+=("no long description")
  ! query --qf '%{DESCRIPTION}' | grep -q CPack || problems+=("CPack's placeholder description")
  [ ${#problems[@]} -eq 0 ] || { fail "$name" "${problems[*]}"; return; }
  pass "$name"
}

case_config_files() {
  local name="/etc/ibkit/ibkit.toml is %config(noreplace), and it alone is a config file"
  local flags
  flags=$(query --qf '[%{FILEFLAGS:fflags}|%{FILENAMES}\n]' | awk -F'|' '$1 ~ /c/')
  [ "$flags" = "cn|/etc/ibkit/ibkit.toml" ] || { fail "$name" "config files: ${flags:-none}"; return; }
  pass "$name"
}

case_scriptlets() {
  local name="the scriptlets reload systemd, stop the timer on removal only and enable or start nothing"
  local scripts post preun
  scripts=$(query --scripts)
  # scriptlet NAME: the lines of one scriptlet (rpm -q --scripts heads each with "NAME scriptlet").
  scriptlet() { awk -v s="$1" '/^[a-z]+ scriptlet/ { on = ($1 == s); next } on' <<<"$scripts"; }
  post=$(scriptlet postinstall) preun=$(scriptlet preuninstall)
  grep -q daemon-reload <<<"$post" || { fail "$name" "%post does not reload systemd"; return; }
  grep -q 'daemon-reload' <<<"$(scriptlet postuninstall)" || { fail "$name" "%postun does not reload systemd"; return; }
  # shellcheck disable=SC2016  # the scriptlet's own $1
  grep -q '"$1" -eq 0' <<<"$preun" || { fail "$name" "%preun does not test for removal"; return; }
  grep -q 'stop ibkit-check.timer' <<<"$preun" || { fail "$name" "%preun does not stop the timer"; return; }
  if grep -vE '^[[:space:]]*#' <<<"$scripts" | grep -E '(^|[[:space:]])(enable|start|restart)([[:space:]]|$)'; then
    fail "$name" "a scriptlet enables or starts a unit: the admin decides that"; return
  fi
  pass "$name"
}

case_agent_runs() {
  local name="the .rpm's ibkit, unpacked, prints the build's version and has no debug information"
  local got
  mkdir -p "$work/unpacked"
  (cd "$work/unpacked" && rpm2cpio "$OLDPWD/$rpm_file" | cpio -idm --quiet) || { fail "$name" "rpm2cpio failed"; return; }
  got=$("$work/unpacked/usr/bin/ibkit" --version 2>&1) || { fail "$name" "$got"; return; }
  [ "$got" = "$("$ibkit" --version)" ] || { fail "$name" "'$got'"; return; }
  if readelf -S "$work/unpacked/usr/bin/ibkit" | grep -q '\.debug_info'; then fail "$name" "not stripped"; return; fi
  pass "$name"
}

case_upgrade() {
  local name="rpm -U over an older build keeps an edited ibkit.toml; rpm -e keeps it as .rpmsave"
  local root=$work/root older
  if [ "$(id -u)" -ne 0 ]; then fail "$name" "needs root (rpm --root)"; return; fi
  older=$(tests/package/older_package.sh "$build_dir" RPM 0.1.0~git1.g0000000 "$work/older") ||
    { fail "$name" "no older package"; return; }
  mkdir -p "$root"
  # --noscripts: the root has no /bin/sh; --nodeps: nor rdma-core. What is tested is rpm's files.
  rpm_quiet --root "$root" --nodeps --noscripts -i "$older" || { fail "$name" "rpm -i $older failed"; return; }
  echo '# the admin was here' >>"$root/etc/ibkit/ibkit.toml"
  rpm_quiet --root "$root" --nodeps --noscripts -U "$rpm_file" || { fail "$name" "rpm -U failed"; return; }
  [ "$(rpm --root "$root" -q --qf '%{VERSION}' ibkit)" = "$version" ] || { fail "$name" "not upgraded"; return; }
  tail -n 1 "$root/etc/ibkit/ibkit.toml" | grep -q 'the admin was here' || { fail "$name" "the upgrade replaced the edit"; return; }
  [ -f "$root/usr/lib/systemd/system/ibkit-check.timer" ] || { fail "$name" "no timer after the upgrade"; return; }
  rpm_quiet --root "$root" --nodeps --noscripts -e ibkit || { fail "$name" "rpm -e failed"; return; }
  [ ! -e "$root/usr/bin/ibkit" ] || { fail "$name" "rpm -e left /usr/bin/ibkit"; return; }
  grep -q 'the admin was here' "$root/etc/ibkit/ibkit.toml.rpmsave" 2>/dev/null ||
    { fail "$name" "rpm -e kept no ibkit.toml.rpmsave"; return; }
  pass "$name"
}

run_cases case_rpmlint case_same_files case_header case_config_files case_scriptlets case_agent_runs case_upgrade
cases_summary
