# shellcheck shell=bash
# Sourced by tests/package/check_*.sh after tests/host/lib.sh.
# package_build NAME [GENERATOR]: builds what make package builds from $build_dir (the .deb; with
# GENERATOR, cpack -G GENERATOR packs that too) and sets version, deb and work, a temporary
# directory removed on exit. Exits with the build's last lines when it fails.
package_build() {
  local name=$1 log
  : "${build_dir:?tests/host/lib.sh sets it}"
  log=$(mktemp "/tmp/ibkit-$name-build.XXXXXX")
  if ! { cmake --build "$build_dir" --target ibkit_package_files && cmake --build "$build_dir" --target package &&
    { [ -z "${2:-}" ] || (cd "$build_dir" && cpack -G "$2"); }; } >"$log" 2>&1; then
    echo "$name: make package failed:"; tail -n 20 "$log"; rm -f "$log"; exit 1
  fi
  rm -f "$log"
  version=$(cat "$build_dir/packaging/files/package_version")
  deb=$build_dir/ibkit_${version}_$(dpkg --print-architecture).deb
  [ -f "$deb" ] || { echo "$name: make package wrote no $deb"; exit 1; }
  work=$(mktemp -d "/tmp/ibkit-$name.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  trap 'exit 130' INT TERM
}
