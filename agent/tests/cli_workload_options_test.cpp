// The test options ibkit pair and ibkit sweep share, parsed and turned into a workload
// (cli/workload_options.hpp, cli/command_options.hpp).
#include <tuple>

#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>

#include "cli/command_options.hpp"
#include "cli/workload_options.hpp"

using namespace ibkit;

TEST_CASE("workload options: every test both ways by default for a sweep, flags as given",
          "[cli]") {
  const PairWorkload all = workload_of(every_test());
  CHECK(all.tests == std::vector<std::string>{"lat", "bw", "tcp"});
  CHECK(all.bidir);
  CHECK(all.sizes.empty());

  CLI::App app;
  WorkloadOptions options;
  add_workload_options(app, options);
  std::string root;
  std::string format;
  std::string output;
  add_root_option(app, root);
  add_report_options(app, format, output);
  app.parse(
      "--test bw --op read --size 4096 --qps 2 --duration 3 --ack-timeout 18 --root /r "
      "--format json --output out.json",
      false);
  const PairWorkload bw = workload_of(options);
  CHECK(bw.tests == std::vector<std::string>{"bw"});
  CHECK(bw.op == "read");
  CHECK(bw.sizes == std::vector<std::uint64_t>{4096});
  CHECK(bw.qps == 2);
  CHECK(bw.duration_s == 3);
  CHECK(bw.ack_timeout == 18);
  CHECK(root == "/r");
  CHECK(format == "json");
  CHECK(output == "out.json");

  CLI::App strict;
  WorkloadOptions bad;
  add_workload_options(strict, bad);
  CHECK_THROWS_AS(strict.parse("--test ping", false), CLI::ParseError);
  CHECK_THROWS_AS(strict.parse("--qps 0", false), CLI::ParseError);
}

TEST_CASE("workload options: sizes and seconds take their units, an unknown unit is named",
          "[cli]") {
  // --size 64K and --deadline 10m were refused ("not in range"), -D 10x too, naming no unit.
  for (const auto& [given, bytes, seconds] : {std::tuple{"--size 64K -D 1m", 65536u, 60.0},
                                              {"--size 8MiB -D 500ms", 8388608u, 0.5},
                                              {"--size 4096 -D 3", 4096u, 3.0}}) {
    INFO(given);
    CLI::App app;
    WorkloadOptions options;
    add_workload_options(app, options);
    app.parse(given, false);
    CHECK(options.size == bytes);
    CHECK(options.duration_s == Approx(seconds));
  }
  CLI::App app;
  WorkloadOptions options;
  add_workload_options(app, options);
  try {
    app.parse("-D 10x", false);
    FAIL("-D 10x was taken");
  } catch (const CLI::ParseError& error) {
    CHECK_THAT(error.what(), Catch::Contains("x unit not recognized") && Catch::Contains("m,min"));
  }
  CLI::App sized;
  WorkloadOptions too_large;
  add_workload_options(sized, too_large);
  CHECK_THROWS_AS(sized.parse("--size 9M", false), CLI::ParseError);

  CLI::App timed;
  double deadline = 0;
  timed.add_option("--deadline", deadline)->transform(seconds_with_units());
  timed.parse("--deadline 2h", false);
  CHECK(deadline == 7200);
}
