// The key a pair's routes are found by, whichever node drove it.
#include "model/pair_routes.hpp"

#include <catch2/catch.hpp>

TEST_CASE("pair routes: a pair's key is the same either way round", "[model]") {
  CHECK(ibkit::route_key("n2", "n10") == ibkit::route_key("n10", "n2"));
  CHECK(ibkit::route_key("b", "a") == std::pair<std::string, std::string>{"a", "b"});
  ibkit::PairRoutes routes;
  routes[ibkit::route_key("lab3", "lab1")] = {"leaf-1 port 3 <-> spine-1 port 1"};
  CHECK(routes.count(ibkit::route_key("lab1", "lab3")) == 1);
}
