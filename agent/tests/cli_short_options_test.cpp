// The short options perftest and ibstat users type (pair and sweep as perftest spells them:
// -d device, -s size, -a every size, -q QPs, -n iterations, -D duration, -b both ways,
// -p port, -t TX depth, -R rdma_cm, -e events, -x GID index, -u ACK timeout; fabric -d and -i
// for the HCA port
// as perftest's --ib-port), each the same option as its long name; and devices -d.
#include <string>

#include <catch2/catch.hpp>

#include "build_paths.hpp"
#include "run_ibkit.hpp"

using ibkit::test::one_line;
using ibkit::test::run_ibkit;

namespace {

const std::string kFixtures = ibkit::test::fixtures_dir();

}  // namespace

TEST_CASE("pair and sweep list perftest's short options beside the long ones", "[cli]") {
  const std::string pair = run_ibkit("pair --help").out;
  for (const char* both : {"-d,--device", "-s,--size", "-a,--sweep", "-q,--qps", "-n,--iters",
                           "-D,--duration", "-b,--bidir", "-p,--port", "-t,--tx-depth", "-R,--cm",
                           "-e,--events", "-x,--gid-index", "-u,--ack-timeout"}) {
    CHECK_THAT(pair, Catch::Contains(both));
  }
  const std::string sweep = run_ibkit("sweep --help").out;
  for (const char* both : {"-s,--size", "-a,--sweep", "-q,--qps", "-n,--iters", "-D,--duration",
                           "-b,--bidir", "-p,--port", "-u,--ack-timeout"}) {
    CHECK_THAT(sweep, Catch::Contains(both));
  }
  const std::string fabric = run_ibkit("fabric --help").out;
  CHECK_THAT(fabric, Catch::Contains("-d,--device") && Catch::Contains("-i,--port"));
}

TEST_CASE("a short option is checked as its long one and named by it", "[cli]") {
  struct Case {
    const char* arguments;
    const char* named;
  };
  for (const auto& [arguments, named] : {
           Case{"pair -s 0 192.0.2.1", "--size"},
           Case{"pair -q 0 192.0.2.1", "--qps"},
           Case{"pair -n 0 192.0.2.1", "--iters"},
           Case{"pair -D 0 192.0.2.1", "--duration"},
           Case{"pair -t 0 192.0.2.1", "--tx-depth"},
           Case{"pair -x 5000 192.0.2.1", "--gid-index"},
           Case{"pair -p 0 192.0.2.1", "--port"},
           Case{"pair -a -s 64 192.0.2.1", "--sweep"},
           Case{"pair -D 2 -n 5 192.0.2.1", "--duration"},
           Case{"pair -R -d mlx5_0 192.0.2.1", "--cm"},
           Case{"sweep --hosts a,b -s 0", "--size"},
           Case{"sweep --hosts a,b -p 0", "--port"},
           Case{"pair -u 0 192.0.2.1", "--ack-timeout"},
           Case{"pair --ack-timeout 32 192.0.2.1", "--ack-timeout"},
           Case{"sweep --hosts a,b -u 32", "--ack-timeout"},
           Case{"fabric -i 999", "--port"},
       }) {
    auto outcome = run_ibkit(arguments);
    INFO(arguments << ": " << outcome.err);
    CHECK(outcome.exit_code == 2);
    CHECK(one_line(outcome.err));
    CHECK_THAT(outcome.err, Catch::Contains(named));
  }
}

TEST_CASE("devices -d shows one device, and names the ones there are when it is not one", "[cli]") {
  const std::string root = kFixtures + "/azure-hbv3-cx6vf";
  auto one = run_ibkit("devices --root " + root + " -d mlx5_ib0");
  CHECK(one.exit_code == 0);
  CHECK_THAT(one.out, Catch::Contains("mlx5_ib0") && !Catch::Contains("mlx5_an0"));
  auto all = run_ibkit("devices --root " + root);
  CHECK_THAT(all.out, Catch::Contains("mlx5_ib0") && Catch::Contains("mlx5_an0"));
  auto json = run_ibkit("devices --root " + root + " --device mlx5_an0 --format json");
  CHECK(json.exit_code == 0);
  CHECK_THAT(json.out, Catch::Contains("mlx5_an0") && !Catch::Contains("mlx5_ib0"));
  auto missing = run_ibkit("devices --root " + root + " -d mlx5_0");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err ==
        "ibkit devices: --device mlx5_0: no such RDMA device here (mlx5_an0, mlx5_ib0)\n");
}
