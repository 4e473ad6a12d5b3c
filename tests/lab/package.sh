#!/bin/bash
# make package's .deb on a lab node, installed as an upgrade over an older build: dpkg -i gives
# a working ibkit (the build's version, its check passing there with real verbs in the loopback
# test), a man page per subcommand and the bash completion, keeps the node's
# /etc/ibkit/ibkit.toml as its conffile and the timer as it was; dpkg -r takes it away again and
# leaves that file. Sourced (PACKAGE_SOURCED=1) it only defines package_deb (the .deb, built once
# a run) and package_installs, for tier.sh and quickstart.sh; run alone it tries the lab's last
# node.
# shellcheck source-path=SCRIPTDIR
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PACKAGE_BUILD_DIR=${BUILD_DIR:-build}
PACKAGE_DEB=

# package_deb: make package's .deb of the build (CPack's package target, as `make package` runs
# it), built once a run; sets PACKAGE_DEB (its path) and PACKAGE_VERSION. Call it in the shell
# that uses them, not in $(...).
package_deb() {
  local build=$REPO_DIR/$PACKAGE_BUILD_DIR
  [ -n "$PACKAGE_DEB" ] && return 0
  (cd "$REPO_DIR" && cmake --build "$build" --target ibkit_package_files && cmake --build "$build" --target package) \
    >"$LAB_LOGS/make-package.log" 2>&1 || { echo "make package failed:"; tail -n 20 "$LAB_LOGS/make-package.log"; return 1; }
  PACKAGE_VERSION=$(cat "$build/packaging/files/package_version") || return 1
  PACKAGE_DEB=$build/ibkit_${PACKAGE_VERSION}_$(dpkg --print-architecture).deb
  [ -s "$PACKAGE_DEB" ] || { echo "make package left no $PACKAGE_DEB"; return 1; }
}

# package_installs NODE
package_installs() {
  local node=$1 build=$REPO_DIR/$PACKAGE_BUILD_DIR version deb older wanted seen sub pages=0 status
  # shellcheck disable=SC2016  # expanded on the node
  local timer_before timer_after timer_ours="" timer_state='echo $(systemctl is-enabled ibkit-check.timer 2>/dev/null)/$(systemctl is-active ibkit-check.timer 2>/dev/null)'
  package_deb || return 1
  version=$PACKAGE_VERSION deb=$PACKAGE_DEB
  older=$("$REPO_DIR/tests/package/older_package.sh" "$build" DEB 0.1.0~git1.g0000000 "$LAB_LOGS/older-package") ||
    { echo "no older package to upgrade from"; return 1; }
  # The node's /etc/ibkit/ibkit.toml (the role's, or none) before the package: a conffile keeps
  # it, as Ansible's apt module keeps it (--force-confdef --force-confold), without a prompt.
  # The build goes on as an upgrade of an older one, as a site's next `make package` does; the
  # timer's state (the role's choice) must come through both unchanged.
  "$LABCTL" push "$node" "$deb" /tmp/ibkit.deb && "$LABCTL" push "$node" "$older" /tmp/ibkit-older.deb &&
    "$LABCTL" ssh "$node" "rm -f /tmp/ibkit.toml.before; ! test -e /etc/ibkit/ibkit.toml || cp -p /etc/ibkit/ibkit.toml /tmp/ibkit.toml.before" &&
    "$LABCTL" ssh "$node" "dpkg -i --force-confdef --force-confold /tmp/ibkit-older.deb </dev/null >/dev/null" || return 1
  # A running timer is what an upgrade could break (a prerm that stops it on upgrade as on
  # removal): where the role left it off, it runs for the upgrade and goes off again after.
  if [ "$("$LABCTL" ssh "$node" "$timer_state")" != enabled/active ]; then
    "$LABCTL" ssh "$node" "systemctl enable --now ibkit-check.timer 2>/dev/null" && timer_ours=1
  fi
  timer_before=$("$LABCTL" ssh "$node" "$timer_state") &&
    "$LABCTL" ssh "$node" "dpkg -i --force-confdef --force-confold /tmp/ibkit.deb </dev/null" || return 1
  "$LABCTL" ssh "$node" "dpkg-query -W -f='\${Version}' ibkit | grep -qxF '$version'" ||
    { echo "dpkg -i did not upgrade 0.1.0~git1.g0000000 to $version on $node"; status=1; }
  timer_after=$("$LABCTL" ssh "$node" "$timer_state")
  echo "$node: ibkit-check.timer $timer_before before, $timer_after after the upgrade"
  if [ "$timer_before" != enabled/active ] || [ "$timer_after" != "$timer_before" ]; then
    echo "the upgrade changed the timer on $node"; status=1
  fi
  [ -z "$timer_ours" ] || "$LABCTL" ssh "$node" "systemctl disable --now ibkit-check.timer 2>/dev/null"
  "$LABCTL" ssh "$node" "dpkg-query -W -f='\${Conffiles}' ibkit | grep -q '^ /etc/ibkit/ibkit.toml '" ||
    { echo "dpkg does not list /etc/ibkit/ibkit.toml as ibkit's conffile on $node"; status=1; }
  # shellcheck disable=SC2016  # expanded on the node
  "$LABCTL" ssh "$node" 'if test -e /tmp/ibkit.toml.before; then cmp -s /tmp/ibkit.toml.before /etc/ibkit/ibkit.toml; else ! grep -qvE "^[[:space:]]*(#|$)" /etc/ibkit/ibkit.toml; fi' ||
    { echo "the package changed /etc/ibkit/ibkit.toml on $node (or installed one with a setting not commented out)"; status=1; }
  wanted=$("$build/agent/ibkit" --version)
  seen=$("$LABCTL" ssh "$node" /usr/bin/ibkit --version)
  echo "$node: $seen"
  [ "$seen" = "$wanted" ] || { echo "the package's ibkit says '$seen', the build '$wanted'"; status=1; }
  "$LABCTL" ssh "$node" "/usr/bin/ibkit check --config $GUEST_CONFIG" >"$LAB_LOGS/package-check.txt" ||
    { echo "the package's ibkit check failed on $node:"; tail -n 5 "$LAB_LOGS/package-check.txt"; status=1; }
  for sub in "" $("$REPO_DIR/packaging/help_words.sh" "$build/agent/ibkit" subcommands); do
    if "$LABCTL" ssh "$node" "zcat /usr/share/man/man1/ibkit${sub:+-$sub}.1.gz | grep -q '^\.TH'"; then
      pages=$((pages + 1))
    else
      echo "no man page ibkit${sub:+-$sub}(1) on $node"; status=1
    fi
  done
  echo "$pages man pages"
  "$LABCTL" ssh "$node" "bash -c '. /usr/share/bash-completion/completions/ibkit && complete -p ibkit'" || status=1
  "$LABCTL" ssh "$node" "dpkg -r ibkit >/dev/null && ! test -e /usr/bin/ibkit" || { echo "dpkg -r left /usr/bin/ibkit"; status=1; }
  # Removal keeps a conffile (purge would take it): the role's configuration stays.
  "$LABCTL" ssh "$node" "! test -e /tmp/ibkit.toml.before || cmp -s /tmp/ibkit.toml.before /etc/ibkit/ibkit.toml" ||
    { echo "dpkg -r took or changed /etc/ibkit/ibkit.toml on $node"; status=1; }
  return "${status:-0}"
}

if [ -z "${PACKAGE_SOURCED:-}" ]; then
  lab_run_begin "package" package
  lab_step "make package's .deb installs and runs on $(lab_nodes | tail -n 1 | cut -d' ' -f1)" \
    package_installs "$(lab_nodes | tail -n 1 | cut -d' ' -f1)"
fi
