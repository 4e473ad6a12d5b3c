#include "fixture_tree.hpp"

#include <fstream>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "build_paths.hpp"
#include "config/config_loader.hpp"
#include "verbs/port_mtus.hpp"

namespace ibkit::test {
namespace fs = std::filesystem;

FixtureTree::FixtureTree(const std::string& name) {
  const fs::path source = fs::path(ibkit::test::fixtures_dir()) / name;
  REQUIRE(fs::is_directory(source));
  std::random_device random;
  path_ = fs::temp_directory_path() / ("ibkit-fixture-" + name + "-" + std::to_string(getpid()) +
                                       "-" + std::to_string(random()));
  fs::copy(source, path_, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
}

FixtureTree::~FixtureTree() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

SysfsRoot FixtureTree::root() const {
  auto root = SysfsRoot::open(path_);
  REQUIRE(root.ok());
  return *root;
}

void FixtureTree::write(std::string_view relative, std::string_view content) {
  fs::path file = path_ / relative;
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::trunc);
  out << content << "\n";
  REQUIRE(out.good());
}

void FixtureTree::remove(std::string_view relative) { fs::remove_all(path_ / relative); }

void FixtureTree::make_directory(std::string_view relative) {
  remove(relative);
  fs::create_directories(path_ / relative);
}

void FixtureTree::make_fifo(std::string_view relative) {
  remove(relative);
  REQUIRE(::mkfifo((path_ / relative).c_str(), 0644) == 0);
}

void FixtureTree::make_symlink(std::string_view relative, const fs::path& target) {
  remove(relative);
  fs::create_symlink(target, path_ / relative);
}

Config config_from(std::string_view toml) {
  auto config = parse_config(toml, "test.toml");
  INFO((config.ok() ? std::string("parsed") : config.error().message));
  REQUIRE(config.ok());
  return *config;
}

CheckRun check(const FixtureTree& tree, std::string_view toml) {
  Config config = config_from(toml);
  // As ibkit check does: a fixture's MTUs come from its ibv_devinfo.txt.
  return run_checks(tree.root(), config, read_active_mtus(tree.root()));
}

const CheckResult& find_result(const CheckRun& run, std::string_view id, std::string_view subject) {
  for (const auto& result : run.results) {
    if (result.id == id && result.subject.rfind(subject, 0) == 0) return result;
  }
  std::string seen;
  for (const auto& result : run.results) seen += result.id + "@" + result.subject + " ";
  INFO("no result " << id << " for " << subject << "; results: " << seen);
  FAIL();
  throw std::logic_error("unreachable");
}

int count_results(const CheckRun& run, std::string_view id, Status status) {
  int count = 0;
  for (const auto& result : run.results) count += result.id == id && result.status == status;
  return count;
}

}  // namespace ibkit::test
