// What a mistyped command line prints: one line, in the subcommand's terms, with the nearest
// real name and where to read more; exit 2.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "run_ibkit.hpp"
#include "scratch_path.hpp"
#include "util/closest_name.hpp"

using ibkit::closest_name;
using ibkit::test::one_line;
using ibkit::test::run_ibkit;

TEST_CASE("closest_name: typos find their word, other words find nothing", "[util]") {
  const std::vector<std::string> commands{"devices", "check",  "serve",  "pair",
                                          "sweep",   "report", "health", "fabric"};
  CHECK(closest_name("chek", commands) == "check");
  CHECK(closest_name("chekc", commands) == "check");  // neighbours swapped: one edit
  CHECK(closest_name("swep", commands) == "sweep");
  CHECK(closest_name("devcies", commands) == "devices");
  CHECK(closest_name("frobnicate", commands).empty());
  CHECK(closest_name("pa", commands).empty());  // 2 edits from pair: half its letters
  CHECK(closest_name("", commands).empty());
  CHECK(closest_name("formt", {"format", "output", "config"}) == "format");
  CHECK(closest_name(std::string(10'000, 'x'), commands).empty());
}

TEST_CASE("an unknown command is named, with the nearest one and the list", "[cli]") {
  auto typo = run_ibkit("chek");
  CHECK(typo.exit_code == 2);
  CHECK(one_line(typo.err));
  CHECK_THAT(typo.err, Catch::StartsWith("ibkit: no command 'chek'; did you mean check? "
                                         "(commands: devices, check, "));
  // Not the top-level help with exit 0, as if the command had run.
  auto help = run_ibkit("chek --help");
  CHECK(help.exit_code == 2);
  CHECK(help.out.empty());
  CHECK_THAT(help.err, Catch::Contains("did you mean check?"));
  auto nothing_near = run_ibkit("frobnicate");
  CHECK(nothing_near.exit_code == 2);
  CHECK_THAT(nothing_near.err, !Catch::Contains("did you mean"));
  CHECK_THAT(run_ibkit("").err, Catch::StartsWith("ibkit: name a command: devices, check, "));
}

TEST_CASE("an unknown option is named in its command, with the nearest real one", "[cli]") {
  auto typo = run_ibkit("check --formt json");
  CHECK(typo.exit_code == 2);
  CHECK(one_line(typo.err));
  CHECK(typo.err ==
        "ibkit check: no option --formt; did you mean --format? (see ibkit check --help)\n");
  CHECK(run_ibkit("sweep --hosts a,b --deadlin=5").err ==
        "ibkit sweep: no option --deadlin; did you mean --deadline? (see ibkit sweep --help)\n");
  CHECK(run_ibkit("pair --bogus").err == "ibkit pair: no option --bogus (see ibkit pair --help)\n");
}

TEST_CASE("serve --port out of range names the value and the range", "[cli]") {
  auto outcome = run_ibkit("serve --port 99999");
  CHECK(outcome.exit_code == 2);
  CHECK(one_line(outcome.err));
  CHECK(outcome.err ==
        "ibkit serve: --port 99999: out of range; expected 0 to 65535 (see ibkit serve --help)\n");
}

// CLI11 said "Value abc not in range 1 to 65535", as if a word were a number too large.
TEST_CASE("a word where a number goes is called not a number, naming the range", "[cli]") {
  const auto port = run_ibkit("sweep --hosts a=10.0.0.1,b=10.0.0.2 --port abc --dry-run");
  CHECK(port.exit_code == 2);
  CHECK(port.err ==
        "ibkit sweep: --port abc: not a number; expected 1 to 65535 (see ibkit sweep --help)\n");
  const auto qps = run_ibkit("pair peer --qps many");
  CHECK(qps.exit_code == 2);
  CHECK_THAT(qps.err, Catch::StartsWith("ibkit pair: --qps many: not a number; expected 1 to "));
}

TEST_CASE("standard input and output: - is refused in words where ibkit takes neither", "[cli]") {
  struct Case {
    const char* command;
    const char* error;
  };
  // Each said "No such file", made a folder named "-", or called "-" a one-node list.
  const Case cases[] = {
      {"report -",
       "ibkit report: -: ibkit does not read standard input here; give the file's path"},
      {"check --config -",
       "ibkit check: --config -: ibkit does not read standard input here; give the file's path"},
      {"sweep --hosts - --dry-run",
       "ibkit sweep: --hosts -: ibkit does not read the hosts from standard input; give a hosts "
       "file or a list (NODE,NODE,...)"},
      {"sweep --hosts a,b --output - --dry-run",
       "ibkit sweep: --output: - is standard output, but this writes a folder of files; give a "
       "directory (the text report goes to standard output anyway)"},
      {"report x.json --output -",
       "ibkit report: --output: - is standard output, but this writes a folder of files; give a "
       "directory (the text report goes to standard output anyway)"},
  };
  for (const auto& [command, error] : cases) {
    const auto outcome = run_ibkit(command);
    INFO(command << ": " << outcome.err);
    CHECK(outcome.exit_code == 2);
    CHECK(one_line(outcome.err));
    CHECK_THAT(outcome.err, Catch::StartsWith(error));
  }
}

TEST_CASE("version, help, --json and -q are answered as other tools' users expect", "[cli]") {
  const auto version = run_ibkit("-V");
  CHECK(version.exit_code == 0);
  CHECK_THAT(version.out, Catch::StartsWith("ibkit "));

  const auto help = run_ibkit("help");
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("SUBCOMMAND") && Catch::Contains("sweep"));
  const auto command_help = run_ibkit("help check");
  CHECK(command_help.exit_code == 0);
  CHECK_THAT(command_help.out, Catch::Contains("ibkit check [OPTIONS]"));
  CHECK(run_ibkit("help nosuch").exit_code == 2);

  const auto json = run_ibkit("check --json");
  CHECK(json.exit_code == 2);
  CHECK(json.err == "ibkit check: no option --json; use --format json (see ibkit check --help)\n");
  const auto quiet = run_ibkit("check -q");
  CHECK(quiet.exit_code == 2);
  CHECK_THAT(quiet.err, Catch::StartsWith("ibkit check: no option -q (ibkit prints the report"));
  // -q is --qps where a command has it.
  CHECK_THAT(run_ibkit("sweep --hosts a,b -q 2 -Z").err,
             Catch::StartsWith("ibkit sweep: no option -Z"));
}

TEST_CASE("pair to a name the name service does not know is a usage error, as in sweep", "[cli]") {
  // It ran the tests and reported each stopped, exit 1, where sweep's --hosts says exit 2.
  const auto key = ibkit::test::write_scratch_file("pair-unknown-key", std::string(64, 'a'));
  std::filesystem::permissions(
      key, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  const auto unknown = run_ibkit("pair nowhere.invalid --key-file " + key);
  INFO(unknown.out << unknown.err);
  CHECK(unknown.exit_code == 2);
  CHECK(one_line(unknown.err));
  CHECK_THAT(unknown.err,
             Catch::StartsWith("ibkit pair: the name service knows no nowhere.invalid ("));
  CHECK(unknown.out.empty());
  std::filesystem::remove(key);
}
