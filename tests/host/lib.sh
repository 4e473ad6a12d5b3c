# Sourced by the host tier's scripts, from the repository's top: the agent they test, and
# what the machine must have.
#   BUILD_DIR=build   where agent/ibkit was built

build_dir=${BUILD_DIR:-build}
ibkit=$(realpath -m "$build_dir/agent/ibkit")

# host_require_agent NAME: exits with a line saying how to build it when the agent is missing.
host_require_agent() {
  if [ ! -x "$ibkit" ]; then
    echo "$1: $ibkit is not built (cmake -S . -B $build_dir -G Ninja && ninja -C $build_dir)"
    exit 1
  fi
}

# host_require_namespaces NAME: exits unless this is root with iproute2 and python3.
host_require_namespaces() {
  if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null || ! command -v python3 >/dev/null; then
    echo "$1: needs root, iproute2 and python3 (scripts/install-deps.sh host)"
    exit 1
  fi
}
