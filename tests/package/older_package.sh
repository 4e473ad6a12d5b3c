#!/usr/bin/env bash
# Packs the build's files once more under an older version, for the tests that upgrade over it:
# what an earlier `make package` left. Prints the package's path.
#   tests/package/older_package.sh BUILD_DIR DEB|RPM VERSION OUT_DIR
set -euo pipefail
build=$1 generator=$2 version=$3 out=$4
files=$out/files
mkdir -p "$files"
printf '%s\n' "$version" >"$files/package_version"
cp "$build/packaging/files/rpm_changelog" "$files/"
sed -i "1s/ - [^ ]*-1\$/ - $version-1/" "$files/rpm_changelog"
(cd "$build" && cpack -G "$generator" -D CPACK_IBKIT_FILES_DIR="$files" -B "$out") >"$out/cpack.log" 2>&1 ||
  { echo "older_package: cpack -G $generator failed (see $out/cpack.log)" >&2; exit 1; }
find "$out" -maxdepth 1 -name "*$version*.${generator,,}" | head -n 1
