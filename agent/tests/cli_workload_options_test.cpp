// The test options ibkit pair and ibkit sweep share, parsed and turned into a workload
// (cli/workload_options.hpp, cli/command_options.hpp).
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
