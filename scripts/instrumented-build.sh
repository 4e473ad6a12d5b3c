#!/usr/bin/env bash
# The one instrumented build the sanitize and fuzz tiers share: clang-14 with ASan+UBSan
# (-fno-sanitize-recover=all) in every object, the unit tests included, and libFuzzer's
# coverage in the library and the fuzz targets (IBKIT_FUZZ). The sanitize tier runs ctest and
# the host tier on it, the fuzz tier links its targets against the same library: one
# instrumented compile of the sources instead of two.
#   scripts/instrumented-build.sh [TARGET...]   configures once, builds TARGETs (all by default)
#   ASAN_BUILD_DIR=build-asan                   where it goes
# Prints the build's time; on failure, the first errors and where the whole log is.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build_dir=${ASAN_BUILD_DIR:-build-asan}
started=$(date +%s)

for tool in clang-14 clang++-14; do
  command -v "$tool" >/dev/null || { echo "instrumented build: $tool is not installed (scripts/install-deps.sh fuzz)"; exit 1; }
done
mkdir -p "$build_dir"
if [ ! -f "$build_dir/build.ninja" ]; then
  # cmake reads CMAKE_CXX_COMPILER_LAUNCHER from the environment (e.g. ccache).
  if ! CC=clang-14 CXX=clang++-14 cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DIBKIT_FUZZ=ON -DIBKIT_BUILD_TESTS=ON >"$build_dir/configure.log" 2>&1; then
    cat "$build_dir/configure.log"; rm -f "$build_dir/build.ninja"
    echo "instrumented build: cmake failed"; exit 1
  fi
fi
if ! cmake --build "$build_dir" -j "${JOBS:-2}" ${1:+--target "$@"} >"$build_dir/build.log" 2>&1; then
  grep -E 'error|FAILED' "$build_dir/build.log" | head -n 40
  echo "instrumented build: failed ($build_dir/build.log)"; exit 1
fi
echo "instrumented build: ${*:-all} in $(($(date +%s) - started)) s ($build_dir, clang-14, ASan+UBSan, fuzzer coverage)"
