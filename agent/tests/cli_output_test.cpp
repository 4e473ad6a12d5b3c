// Where a command's report goes (cli/output.hpp): stdout, or a file with the text beside it on
// stdout, and a file that cannot be written turned into the usage exit code.
#include <cstdlib>
#include <fcntl.h>
#include <optional>
#include <sstream>
#include <sys/ioctl.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "cli/output.hpp"
#include "scratch_path.hpp"
#include "skip_test.hpp"
#include "util/exit_codes.hpp"

using namespace ibkit;

TEST_CASE("output: stdout unless a file is named, the file written whole", "[cli]") {
  CHECK(report_to_stdout(""));
  CHECK(report_to_stdout("-"));
  CHECK_FALSE(report_to_stdout("report.json"));

  std::ostringstream out;
  std::ostringstream err;
  Console console{out, err, false};
  CHECK(deliver_report(console, "check", "", "{json}", "text", kExitFail) == kExitFail);
  CHECK(out.str() == "{json}");

  out.str("");
  const std::string file = test::scratch_path("output-report.json").string();
  CHECK(deliver_report(console, "check", file, "{json}\n", "text\n", kExitPass) == kExitPass);
  CHECK(out.str() == "text\n");  // the journal still has the results
  std::ifstream written(file);
  CHECK(std::string(std::istreambuf_iterator<char>(written), {}) == "{json}\n");
  std::filesystem::remove(file);

  out.str("");
  CHECK(deliver_report(console, "check", "/nonexistent-dir/r.json", "{}", "text\n", kExitPass) ==
        kExitUsage);
  CHECK(out.str() == "text\n");
  CHECK_THAT(err.str(), Catch::StartsWith("ibkit check: --output /nonexistent-dir/r.json: "));
}

TEST_CASE("output: text that goes to a pipe or a file wraps at the report width", "[cli]") {
  int ends[2];
  REQUIRE(pipe(ends) == 0);
  CHECK(text_width(ends[1]) == kReportWidth);
  close(ends[0]);
  close(ends[1]);
}

TEST_CASE("output: text that goes to a terminal wraps at $COLUMNS, else at its width", "[cli]") {
  const int terminal = posix_openpt(O_RDWR | O_NOCTTY);
  if (terminal < 0 || grantpt(terminal) != 0 || unlockpt(terminal) != 0) {
    if (terminal >= 0) close(terminal);
    return test::skip_test("no pseudo-terminal here (posix_openpt)");
  }
  const int side = open(ptsname(terminal), O_RDWR | O_NOCTTY);
  REQUIRE(side >= 0);
  winsize size{};
  size.ws_col = 97;
  size.ws_row = 30;
  REQUIRE(ioctl(side, TIOCSWINSZ, &size) == 0);
  const char* had = std::getenv("COLUMNS");
  const std::optional<std::string> columns = had ? std::optional<std::string>(had) : std::nullopt;
  unsetenv("COLUMNS");
  CHECK(text_width(side) == 97);
  setenv("COLUMNS", "150", 1);
  CHECK(text_width(side) == 150);  // as ls and others read it: the user's word wins
  setenv("COLUMNS", "wide", 1);
  CHECK(text_width(side) == 97);
  if (columns) {
    setenv("COLUMNS", columns->c_str(), 1);
  } else {
    unsetenv("COLUMNS");
  }
  close(side);
  close(terminal);
}
