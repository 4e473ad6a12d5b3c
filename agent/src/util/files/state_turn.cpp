#include "util/files/state_turn.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

#include "util/text.hpp"
#include "util/time/deadline.hpp"

namespace ibkit {
namespace {

// This user's own directory for the locks of --state files kept in shared directories:
// $XDG_RUNTIME_DIR/ibkit, /run/ibkit for root, /tmp/ibkit-UID otherwise.
std::filesystem::path private_lock_directory() {
  if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime && *runtime == '/')
    return std::filesystem::path(runtime) / "ibkit";
  if (::geteuid() == 0) return "/run/ibkit";
  return "/tmp/ibkit-" + std::to_string(::geteuid());
}

// FNV-1a: one lock name for each state file's path, the same in every run.
std::string path_key(const std::string& path) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const unsigned char c : path) hash = (hash ^ c) * 1099511628211ULL;
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace

Expected<std::string> state_lock_path(const std::string& state_path) {
  std::error_code no_cwd;
  const std::filesystem::path absolute =
      std::filesystem::absolute(state_path, no_cwd).lexically_normal();
  if (no_cwd) return Error{"--state " + state_path + ": " + no_cwd.message()};
  const std::filesystem::path directory = absolute.parent_path();
  if (check_private_directory(directory, "")) return state_path + ".lock";
  const std::filesystem::path own = private_lock_directory();
  const std::string its = "--state " + state_path + ": its directory " + directory.string() +
                          " is shared, and the lock's, " + own.string() + ",";
  if (auto made = make_private_directory(own, its); !made) return made.error();
  return (own / ("state-" + absolute.filename().string().substr(0, 64) + "-" +
                 path_key(absolute.string()) + ".lock"))
      .string();
}

StateTurn take_state_turn(const std::string& state_path, double wait_seconds,
                          const std::string& without_it) {
  const auto path = state_lock_path(state_path);
  if (!path) return {std::nullopt, path.error().message};
  LockHolder holder;
  // What to do with a lock file that is not one: it is where this run's lock must be.
  const std::string fix =
      *path == state_path + ".lock"
          ? "move it away: ibkit keeps its lock for --state FILE in FILE.lock"
          : "move it away: ibkit keeps the lock for --state " + state_path + " there";
  auto lock = wait_for_lock(*path, Deadline::after_seconds(wait_seconds), holder, fix);
  if (!lock) return {std::nullopt, lock.error().message};
  if (!*lock) {
    return {std::nullopt,
            *path + ": another run (pid " + (holder.pid.empty() ? "unknown" : holder.pid) +
                ") held it for all of " + format_number(wait_seconds, 2) + " s; this run " +
                without_it + " and left " + state_path + " as it was"};
  }
  return {std::move(*lock), ""};
}

}  // namespace ibkit
