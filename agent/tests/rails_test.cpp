#include "verbs/rails.hpp"

#include <catch2/catch.hpp>

TEST_CASE("rails are ordered by the numbers in their names, not as text", "[verbs]") {
  std::vector<std::string> names{"mlx5_10", "mlx5_2", "mlx5_ib1", "mlx5_0", "mlx5_1", "mlx5_ib0"};
  ibkit::sort_naturally(names);
  CHECK(names ==
        std::vector<std::string>{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_10", "mlx5_ib0", "mlx5_ib1"});
}

TEST_CASE("asking for a rail this node does not have names the rails it has", "[verbs]") {
  auto rails = ibkit::rail_devices();
  REQUIRE(rails.ok());
  auto beyond = ibkit::rail_device(static_cast<int>(rails->size()));
  REQUIRE_FALSE(beyond.ok());
  if (rails->empty()) {
    CHECK(beyond.error().environment);
    CHECK_THAT(beyond.error().message, Catch::Contains("no RDMA device with an Active port"));
  } else {
    CHECK_THAT(beyond.error().message, Catch::Contains("rail(s): " + rails->front()));
  }
}
