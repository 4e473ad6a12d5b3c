#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "run_ibkit.hpp"
#include "scratch_path.hpp"
#include "skip_test.hpp"

using ibkit::test::machine_has_rdma_devices;
using ibkit::test::one_line;
using ibkit::test::run_ibkit;
using ibkit::test::skip_test;

TEST_CASE("a --root that does not exist is a usage error naming the flag", "[cli]") {
  auto outcome = run_ibkit("check --root /nonexistent/tree");
  CHECK(outcome.exit_code == 2);
  CHECK(one_line(outcome.err));
  CHECK_THAT(outcome.err, Catch::Contains("--root /nonexistent/tree: not a directory"));
  CHECK(run_ibkit("devices --root /nonexistent/tree").exit_code == 2);
}

TEST_CASE("bad flags and values are usage errors", "[cli]") {
  CHECK(run_ibkit("check --format xml").exit_code == 2);
  CHECK(run_ibkit("check --bogus").exit_code == 2);
  CHECK(run_ibkit("").exit_code == 2);
  CHECK(run_ibkit("frobnicate").exit_code == 2);
  auto help = run_ibkit("check --help");
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("--config"));
}

TEST_CASE("a bad config file stops the check with file:line:col, exit 2", "[cli]") {
  const auto file = ibkit::test::scratch_path("cli-bad.toml");
  std::ofstream(file) << "[expect]\nlink_layer = 42\n";
  auto outcome = run_ibkit("check --config " + file.string());
  CHECK(outcome.exit_code == 2);
  CHECK(one_line(outcome.err));
  CHECK_THAT(outcome.err,
             Catch::Contains(file.string() + ":2:14: expect.link_layer is an integer"));
  auto validate = run_ibkit("check --config-only --config " + file.string());
  CHECK(validate.exit_code == 2);
  std::ofstream(file) << "[expect]\nlink_layer = \"Ethernet\"\n";
  CHECK(run_ibkit("check --config-only --config " + file.string()).exit_code == 0);
  std::filesystem::remove(file);
  CHECK(run_ibkit("check --config /nonexistent.toml").exit_code == 2);
}

TEST_CASE("without an RDMA device, check says so and exits 3", "[cli]") {
  if (machine_has_rdma_devices()) {
    skip_test("this machine has RDMA devices; the no-device case cannot be observed here");
    return;
  }
  auto outcome = run_ibkit("check");
  CHECK(outcome.exit_code == 3);
  CHECK_THAT(outcome.err, Catch::Contains("no RDMA device under /sys/class/infiniband"));
  CHECK(one_line(outcome.err));
  CHECK(run_ibkit("devices").exit_code == 3);
}

TEST_CASE("an --output that cannot be written is reported, and the results still reach stdout",
          "[cli]") {
  // /proc takes no new files: the path passes the check before the run, the write fails after.
  auto outcome = run_ibkit("check --format json --output /proc/ibkit-report.json");
  CHECK(outcome.exit_code == 2);
  CHECK_THAT(outcome.err, Catch::Contains("--output /proc/ibkit-report.json: cannot create"));
  CHECK_THAT(outcome.out, Catch::Contains("module.loaded"));
}

TEST_CASE("an --output in no directory is refused before anything runs", "[cli]") {
  for (const char* command : {"check", "pair 127.0.0.1 --port 1", "fabric"}) {
    INFO(command);
    auto outcome =
        run_ibkit(std::string(command) + " --format json --output /nonexistent/dir/report.json");
    CHECK(outcome.exit_code == 2);
    CHECK(one_line(outcome.err));
    CHECK_THAT(outcome.err, Catch::Contains("--output: no directory /nonexistent/dir; create it, "
                                            "or write the report elsewhere"));
    CHECK(outcome.out.empty());
  }
  auto directory = run_ibkit("check --output /tmp");
  CHECK(directory.exit_code == 2);
  CHECK_THAT(directory.err, Catch::Contains("--output: /tmp is a directory; name a file in it"));
}

TEST_CASE("a report to --output - goes to stdout, and no file named - is made", "[cli]") {
  auto outcome = run_ibkit("check --format json --output -");
  CHECK_THAT(outcome.out, Catch::Contains("ibkit.check/1"));
  CHECK_FALSE(std::filesystem::exists("-"));
}
