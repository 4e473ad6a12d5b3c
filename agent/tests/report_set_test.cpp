#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "model/sweep_report.hpp"
#include "report/report_formats.hpp"
#include "report/sweep_files.hpp"
#include "scratch_path.hpp"
#include "sweep_sample.hpp"

namespace ibkit {
namespace {

namespace fs = std::filesystem;

std::string read_whole(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// Every file in `dir` by name, with its content.
std::map<std::string, std::string> contents_of(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file()) files[entry.path().filename()] = read_whole(entry.path());
  }
  return files;
}

// A directory holding every report file of a passing sweep.
fs::path passing_set(const std::string& name) {
  const auto dir = test::scratch_path(name);
  fs::remove_all(dir);
  REQUIRE(write_sweep_reports(test::all_pairs_sweep(2, 1.5, 90), dir.string(), {"all"}).ok());
  REQUIRE_THAT(read_whole(dir / "summary.json"), Catch::Contains("\"verdict\":\"pass\""));
  return dir;
}

// write_sweep_reports in a child process whose files may not grow past `limit` bytes (a disk
// that fills at the first file larger than that): whether it reported the failure.
bool failed_under_file_size_limit(const SweepReport& report, const fs::path& dir,
                                  std::size_t limit) {
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);  // write(2) then fails with EFBIG instead of killing
    const rlimit cap{limit, limit};
    if (setrlimit(RLIMIT_FSIZE, &cap) != 0) _exit(2);
    _exit(write_sweep_reports(report, dir.string(), {"all"}).ok() ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status) == 1;
}

}  // namespace

TEST_CASE("report files: a disk that fills mid-set leaves the previous set whole",
          "[report][util]") {
  // Files were replaced one by one: a write that failed at report.html left report.json saying
  // fail beside the last run's summary.json saying pass, the file validate.yml trusts.
  const auto dir = passing_set("report-set-full-disk");
  const auto before = contents_of(dir);
  const SweepReport failing = test::sample_sweep();
  std::size_t largest_but_html = 0;
  std::size_t html = 0;
  for (const auto& file : report_files()) {
    const std::size_t size = file.render(failing).size();
    if (std::string(file.name) == "report.html") {
      html = size;
    } else {
      largest_but_html = std::max(largest_but_html, size);
    }
  }
  REQUIRE(html > largest_but_html + 1);
  CHECK(failed_under_file_size_limit(failing, dir, largest_but_html + 1));
  CHECK(contents_of(dir) == before);  // every old file, and no temporary left beside them
  fs::remove_all(dir);
}

TEST_CASE("report files: a set that cannot all be moved in leaves no verdict, not the last one",
          "[report][util]") {
  const auto dir = passing_set("report-set-blocked");
  fs::remove(dir / "junit.xml");
  fs::create_directories(dir / "junit.xml" / "in-the-way");  // rename(2) cannot replace it
  auto written = write_sweep_reports(test::sample_sweep(), dir.string(), {"all"});
  REQUIRE_FALSE(written.ok());
  CHECK_THAT(written.error().message, Catch::StartsWith((dir / "junit.xml").string() + ": "));
  CHECK_FALSE(fs::exists(dir / "summary.json"));
  const auto left = contents_of(dir);
  CHECK(std::none_of(left.begin(), left.end(),
                     [](const auto& file) { return file.first[0] == '.'; }));
  fs::remove_all(dir);
}

TEST_CASE("report files: formats without summary.json remove the one an earlier run left",
          "[report]") {
  const auto dir = passing_set("report-set-partial");
  auto written = write_sweep_reports(test::sample_sweep(), dir.string(), {"html"});
  REQUIRE(written.ok());
  CHECK(*written == std::vector<std::string>{(dir / "report.html").string()});
  CHECK_FALSE(fs::exists(dir / "summary.json"));
  CHECK_THAT(read_whole(dir / "report.html"), Catch::Contains("verdict fail"));
  fs::remove_all(dir);
}

}  // namespace ibkit
