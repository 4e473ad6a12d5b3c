// --help as a man page writes it, not CLI11's type notation.
#include <string>

#include <catch2/catch.hpp>

#include "cli/help_formatter.hpp"
#include "run_ibkit.hpp"

using ibkit::help_value_text;
using ibkit::test::run_ibkit;

TEST_CASE("an option's value is named plainly, with its bounds or choices", "[cli]") {
  CHECK(help_value_text("UINT:INT in [1 - 65535]", "--port") == " N (1-65535)");
  CHECK(help_value_text("FLOAT:FLOAT in [0.1 - 300]", "--duration") == " N (0.1-300)");
  CHECK(help_value_text("INT", "--seed") == " N");
  CHECK(help_value_text("TEXT:{lat,bw,tcp,all}", "--test") == " lat|bw|tcp|all");
  CHECK(help_value_text("TEXT", "--peer-device") == " PEER-DEVICE");
  CHECK(help_value_text("TEXT", "") == "");  // a positional: its name says it
  CHECK(help_value_text("FILE", "--config") == " FILE");
  CHECK(help_value_text("FILE:FILE", "--output") == " FILE");
  CHECK(help_value_text("FILE|LIST", "--hosts") == " FILE|LIST");
}

TEST_CASE("no subcommand's --help shows CLI11's type notation", "[cli]") {
  for (const char* command :
       {"", "devices", "check", "serve", "pair", "sweep", "report", "health", "fabric"}) {
    const auto help = run_ibkit(std::string(command) + " --help");
    INFO(command << ":\n" << help.out);
    CHECK(help.exit_code == 0);
    CHECK_THAT(help.out, !Catch::Contains("TEXT") && !Catch::Contains("INT in [") &&
                             !Catch::Contains("FLOAT") && !Catch::Contains("Excludes:") &&
                             !Catch::Contains(":{") && !Catch::Contains("FILE:FILE"));
  }
  CHECK_THAT(run_ibkit("pair --help").out, Catch::Contains("-p,--port N (1-65535)") &&
                                               Catch::Contains("--test lat|bw|tcp|all") &&
                                               Catch::Contains("-d,--device DEVICE"));
}
