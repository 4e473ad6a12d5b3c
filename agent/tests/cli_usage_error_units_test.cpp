// The one-line usage errors built from the parser itself (cli/usage_error.hpp): an unknown
// command with the nearest real one, an unknown option in its subcommand's name.
#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>

#include "cli/usage_error.hpp"

using namespace ibkit;

TEST_CASE("usage errors: the nearest command and the nearest option, in one line", "[cli]") {
  CLI::App app{"ibkit", "ibkit"};
  auto* check = app.add_subcommand("check", "check this node");
  std::string format;
  check->add_option("--format", format, "text or json");
  app.add_subcommand("devices", "list RDMA devices");

  const char* unknown[] = {"ibkit", "chek", "--help"};
  const std::string command = unknown_command_error(app, 3, unknown);
  CHECK_THAT(command, Catch::Contains("chek") && Catch::Contains("did you mean check?"));
  const char* known[] = {"ibkit", "check"};
  CHECK(unknown_command_error(app, 2, known).empty());

  const char* misspelt[] = {"ibkit", "check", "--formt", "json"};
  try {
    app.parse(4, misspelt);
    FAIL("--formt parsed");
  } catch (const CLI::ParseError& error) {
    const std::string text = usage_error_text(app, error, 4, misspelt);
    CHECK_THAT(text, Catch::StartsWith("ibkit check: "));
    CHECK_THAT(text, Catch::Contains("--formt") && Catch::Contains("did you mean --format?"));
    CHECK(text.find('\n') == std::string::npos);
  }
}
