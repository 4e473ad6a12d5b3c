// Why `ibkit fabric` cannot discover a fabric on this machine, from sysfs alone
// (fabric/umad_ports.hpp): said in ibkit's words where libibmad's ibwarn and a source line were.
#include "fabric/umad_ports.hpp"

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "scratch_path.hpp"

using ibkit::missing_umad_port;

TEST_CASE("fabric: no RDMA device, or no umad port, is named, and a umad port is enough",
          "[fabric]") {
  const auto root = ibkit::test::scratch_path("umad-root");
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root);
  CHECK(missing_umad_port(root) == "no RDMA device under " +
                                       (root / "sys/class/infiniband").string() +
                                       "; ibkit fabric needs an InfiniBand HCA with its driver "
                                       "loaded");

  // A Soft-RoCE device, as on this project's lab: RDMA, but no management port.
  std::filesystem::create_directories(root / "sys/class/infiniband/rxe0");
  const auto no_umad = missing_umad_port(root);
  REQUIRE(no_umad);
  CHECK_THAT(*no_umad, Catch::StartsWith("no InfiniBand management port (no umad device under ") &&
                           Catch::Contains("modprobe ib_umad") &&
                           Catch::EndsWith("RoCE and Soft-RoCE devices have none"));
  std::filesystem::create_directories(root / "sys/class/infiniband_mad");
  std::ofstream(root / "sys/class/infiniband_mad/abi_version") << "5\n";
  CHECK(missing_umad_port(root).has_value());

  std::filesystem::create_directories(root / "sys/class/infiniband_mad/umad0");
  CHECK_FALSE(missing_umad_port(root).has_value());
  std::filesystem::remove_all(root);
}
