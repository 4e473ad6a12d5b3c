#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "checks/check_context.hpp"
#include "checks/run_checks.hpp"
#include "config/config.hpp"
#include "sysfs/sysfs_root.hpp"

namespace ibkit::test {

// A private copy of a fixture tree (tests/fixtures/sysfs/<name>) that a test may break: write
// a file, remove one, and the original stays as captured.
class FixtureTree {
 public:
  explicit FixtureTree(const std::string& name);
  ~FixtureTree();
  FixtureTree(const FixtureTree&) = delete;
  FixtureTree& operator=(const FixtureTree&) = delete;

  const std::filesystem::path& path() const { return path_; }
  SysfsRoot root() const;

  // Overwrites (or creates) `relative` with `content` and a newline, as sysfs shows values.
  void write(std::string_view relative, std::string_view content);
  void remove(std::string_view relative);

  // Puts something other than a file at `relative`, for the readers' error paths (the tests run
  // as root, which reads a chmod 000 file: these are what root cannot read as text).
  void make_directory(std::string_view relative);
  void make_fifo(std::string_view relative);
  void make_symlink(std::string_view relative, const std::filesystem::path& target);

 private:
  std::filesystem::path path_;
};

// Runs every readiness check on the tree with the configuration in `toml`.
CheckRun check(const FixtureTree& tree, std::string_view toml);

// Parses TOML for a test, failing the test with the loader's message when it does not parse.
Config config_from(std::string_view toml);

// The home-lab mthca card with only port 1 required (port 2 has no cable).
inline constexpr const char* kMthcaPort1Config = R"(
[expect]
link_layer = "InfiniBand"
min_rate_gbps = 16
ports = ["mthca0/1"]
)";

// Runs one check function, `check(context, results)`, on the tree's context as ibkit check
// gathers it with the configuration in `toml`.
template <class Check>
CheckResults run_one_check(const FixtureTree& tree, std::string_view toml, Check check) {
  const SysfsRoot root = tree.root();
  const Config config = config_from(toml);
  const CheckContext context = gather_context(root, config);
  CheckResults results;
  check(context, results);
  return results;
}

// The result with that id and subject (subject may be a prefix, "mthca0/1" for
// "mthca0/1 (ib0)"); fails the test when there is none.
const CheckResult& find_result(const CheckRun& run, std::string_view id, std::string_view subject);

// Counts results with that id and status.
int count_results(const CheckRun& run, std::string_view id, Status status);

}  // namespace ibkit::test
