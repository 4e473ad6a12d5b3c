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

TEST_CASE("an option's help ends with its default unless its text names one", "[cli]") {
  using ibkit::help_description;
  CHECK(help_description("outstanding work requests per QP (bw)", "128", false) ==
        "outstanding work requests per QP (bw) (default 128)");
  CHECK(help_description("both directions at once", "false", true) == "both directions at once");
  CHECK(help_description("the report file", "", false) == "the report file");
  CHECK(help_description("hosts", "[]", false) == "hosts");
  CHECK(help_description("seconds (default 2 unless --iters)", "0", false) ==
        "seconds (default 2 unless --iters)");
  for (const char* command : {"devices", "check", "serve", "pair", "sweep", "health", "fabric"}) {
    const auto help = run_ibkit(std::string(command) + " --help");
    INFO(command << ":\n" << help.out);
    // 0 stands for "not given" in these options: their text says what happens then.
    CHECK_THAT(help.out, !Catch::Contains("(default 0)") && !Catch::Contains("(default [") &&
                             !Catch::Contains("(default \"\")"));
  }
  CHECK_THAT(run_ibkit("pair --help").out,
             Catch::Contains("outstanding work requests per QP (bw) (default 128)") &&
                 Catch::Contains("the peer's control port (default 18515)"));
  CHECK_THAT(run_ibkit("fabric --help").out,
             Catch::Contains("milliseconds to wait for one management answer (default 200)"));
}
