// ibkit fabric as a user meets it on a machine without an InfiniBand port: a bad option is a
// one-line usage error, and a failed discovery a one-line environment error that quotes what
// rdma-core said, within the deadline.
#include <chrono>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "run_ibkit.hpp"
#include "scratch_path.hpp"

using ibkit::test::one_line;
using ibkit::test::run_ibkit;

TEST_CASE("ibkit fabric: a width or speed nobody has is a usage error naming the choices",
          "[fabric][cli]") {
  auto width = run_ibkit("fabric --link-width 5X");
  CHECK(width.exit_code == 2);
  CHECK(width.err == "ibkit fabric: --link-width 5X: expected 1X, 2X, 4X, 8X or 12X\n");
  auto speed = run_ibkit("fabric --link-speed hdr");
  CHECK(speed.exit_code == 2);
  CHECK(speed.err ==
        "ibkit fabric: --link-speed hdr: expected SDR, DDR, QDR, FDR, EDR, HDR, NDR or XDR\n");
  CHECK(width.out.empty());
}

TEST_CASE("ibkit fabric without an InfiniBand port fails as the environment, saying why",
          "[fabric][cli]") {
  // No machine that runs the unit tests has a umad device (the subnet tier gives a simulated
  // one): discovery cannot start, and sysfs says why in ibkit's words, not libibmad's (ibwarn
  // and a source line, as it once printed). Exit 3, on one line.
  const auto start = std::chrono::steady_clock::now();
  auto outcome = run_ibkit("fabric --deadline 20");
  INFO(outcome.err);
  CHECK(outcome.exit_code == 3);
  CHECK(one_line(outcome.err));
  CHECK_THAT(outcome.err,
             Catch::StartsWith("ibkit fabric: no RDMA device under /sys/class/infiniband; ") ||
                 Catch::StartsWith("ibkit fabric: no InfiniBand management port (no umad device "
                                   "under /sys/class/infiniband_mad)"));
  CHECK_THAT(outcome.err, !Catch::Contains("ibwarn") && !Catch::Contains(".c:"));
  CHECK(outcome.out.empty());
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
}

TEST_CASE("ibkit fabric: a --config that cannot be read is a usage error before any discovery",
          "[fabric][cli]") {
  auto outcome = run_ibkit("fabric --config /nonexistent/limits.toml");
  CHECK(outcome.exit_code == 2);
  CHECK(one_line(outcome.err));
  CHECK_THAT(outcome.err,
             Catch::StartsWith("ibkit fabric: ") && Catch::Contains("/nonexistent/limits.toml"));
  CHECK(outcome.out.empty());
}

TEST_CASE(
    "ibkit fabric: a --topology that is not a saved topology is a usage error naming its "
    "line, before any discovery",
    "[fabric][cli]") {
  const std::string path = ibkit::test::scratch_path("not-a-topology");
  std::ofstream(path) << "ibkit-fabric 1\nnode 1 hub -\n";
  auto outcome = run_ibkit("fabric --topology " + path);
  CHECK(outcome.exit_code == 2);
  CHECK(outcome.err == "ibkit fabric: --topology " + path +
                           ": fabric record line 2: a node needs a GUID, a type (ca, switch, "
                           "router) and a hex name: give a file ibkit fabric --save-topology "
                           "wrote\n");
  auto missing = run_ibkit("fabric --topology " + path + ".gone");
  CHECK(missing.exit_code == 2);
  CHECK(one_line(missing.err));
  CHECK_THAT(missing.err, Catch::StartsWith("ibkit fabric: --topology " + path + ".gone"));
  std::filesystem::remove(path);
}
