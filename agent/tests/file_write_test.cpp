#include "util/files/file_write.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "report/sweep_files.hpp"
#include "scratch_path.hpp"

namespace ibkit {
namespace {

namespace fs = std::filesystem;

// A fresh empty directory of this test process's own, removed when the test ends.
struct ScratchDirectory {
  fs::path path;
  explicit ScratchDirectory(const std::string& name) : path(test::scratch_path(name)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDirectory() { fs::remove_all(path); }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path)) names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }
};

std::string read_whole(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("an atomic write leaves the file, whole, and nothing beside it", "[util]") {
  ScratchDirectory directory("file-write-plain");
  const auto path = (directory.path / "state.json").string();
  REQUIRE(write_file_atomically(path, "first"));
  REQUIRE(write_file_atomically(path, "second, longer"));
  CHECK(read_whole(path) == "second, longer");
  CHECK(directory.entries() == std::vector<std::string>{"state.json"});
}

TEST_CASE("a link planted where a temporary might go redirects nothing", "[util]") {
  // The old fixed name "<path>.tmp": a link there made the write land in the link's target and
  // left the path itself a link to it.
  ScratchDirectory directory("file-write-link");
  const auto victim = directory.path / "victim";
  std::ofstream(victim) << "untouched";
  const auto path = directory.path / "state.json";
  fs::create_symlink(victim, directory.path / "state.json.tmp");
  REQUIRE(write_file_atomically(path.string(), "the state"));
  CHECK(read_whole(victim) == "untouched");
  CHECK_FALSE(fs::is_symlink(path));
  CHECK(read_whole(path) == "the state");
}

TEST_CASE("a write that cannot rename into place says so and leaves no temporary", "[util]") {
  ScratchDirectory directory("file-write-fails");
  const auto path = directory.path / "report.json";
  fs::create_directories(path / "in-the-way");  // rename(2) cannot replace a full directory
  const auto written = write_file_atomically(path.string(), "{}");
  REQUIRE_FALSE(written);
  CHECK(written.error().message.rfind(path.string() + ": cannot rename into place", 0) == 0);
  CHECK(directory.entries() == std::vector<std::string>{"report.json"});
}

TEST_CASE("a file in a missing directory is refused, naming it", "[util]") {
  const auto path = test::scratch_path("file-write-missing") / "nowhere" / "out.json";
  const auto written = write_file_atomically(path.string(), "{}");
  REQUIRE_FALSE(written);
  CHECK(written.error().message.rfind(path.string() + ": cannot create the file", 0) == 0);
  CHECK(written.error().message.find("give a writable path") != std::string::npos);
}

TEST_CASE("the file is made with the mode the umask allows", "[util]") {
  ScratchDirectory directory("file-write-mode");
  const auto path = (directory.path / "metrics.prom").string();
  const mode_t previous = ::umask(027);
  const auto written = write_file_atomically(path, "x");
  ::umask(previous);
  REQUIRE(written);
  struct stat status {};
  REQUIRE(::stat(path.c_str(), &status) == 0);
  CHECK((status.st_mode & 0777) == 0640);
}

TEST_CASE("writers racing on one file each move in a whole file of their own", "[util]") {
  // Two runs writing one state file (the timer and a manual run): with one shared temporary,
  // renames failed or moved in a file spliced from both.
  ScratchDirectory directory("file-write-race");
  const auto path = (directory.path / "state.json").string();
  constexpr int kWriters = 6;
  constexpr int kRounds = 25;
  std::vector<std::string> contents;
  for (int i = 0; i < kWriters; ++i) contents.emplace_back(256 * 1024, static_cast<char>('a' + i));
  std::vector<std::vector<std::string>> problems(kWriters);
  std::vector<std::thread> writers;
  for (int i = 0; i < kWriters; ++i) {
    writers.emplace_back([&, i] {
      for (int round = 0; round < kRounds; ++round) {
        auto written = write_file_atomically(path, contents[static_cast<std::size_t>(i)]);
        if (!written) problems[static_cast<std::size_t>(i)].push_back(written.error().message);
      }
    });
  }
  for (auto& writer : writers) writer.join();
  for (const auto& mine : problems) CHECK(mine.empty());
  const std::string final_content = read_whole(path);
  CHECK(std::find(contents.begin(), contents.end(), final_content) != contents.end());
  CHECK(directory.entries() == std::vector<std::string>{"state.json"});
}

TEST_CASE("probing a report directory truncates nothing a planted link points at",
          "[util][report]") {
  // The probe was a fixed ".ibkit-write-test" opened with truncation: a link there emptied
  // its target, whatever file that was.
  ScratchDirectory directory("file-write-probe");
  const auto victim = directory.path / "victim";
  std::ofstream(victim) << "untouched";
  const auto reports = directory.path / "reports";
  fs::create_directories(reports);
  fs::create_symlink(victim, reports / ".ibkit-write-test");
  CHECK(probe_writable_directory(reports.string()));
  CHECK(prepare_report_dir(reports.string()).ok());
  CHECK(read_whole(victim) == "untouched");
  CHECK(fs::is_symlink(reports / ".ibkit-write-test"));
  CHECK(std::distance(fs::directory_iterator(reports), fs::directory_iterator{}) == 1);
}

TEST_CASE("a directory where no file can be made fails the probe with errno's words", "[util]") {
  const auto missing = test::scratch_path("file-write-no-dir") / "absent";
  const auto probed = probe_writable_directory(missing.string());
  REQUIRE_FALSE(probed);
  CHECK(probed.error().message == "No such file or directory");
}

}  // namespace ibkit
