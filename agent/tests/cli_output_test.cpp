// Where a command's report goes (cli/output.hpp): stdout, or a file with the text beside it on
// stdout, and a file that cannot be written turned into the usage exit code.
#include <sstream>

#include <catch2/catch.hpp>

#include "cli/output.hpp"
#include "scratch_path.hpp"
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
