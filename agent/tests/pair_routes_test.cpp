// The key a pair's routes are found by, whichever node drove it.
#include "model/pair_routes.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

TEST_CASE("pair routes: a pair's key is the same either way round", "[model]") {
  CHECK(ibkit::route_key("n2", "n10") == ibkit::route_key("n10", "n2"));
  CHECK(ibkit::route_key("b", "a") == std::pair<std::string, std::string>{"a", "b"});
  ibkit::PairRoutes routes;
  routes.set_route("lab3", "lab1", std::vector<std::string>{"leaf-1 port 3 <-> spine-1 port 1"});
  CHECK(routes.route("lab1", "lab3") != nullptr);
  CHECK(routes.route("lab1", "lab2") == nullptr);
}

TEST_CASE("pair routes: a link's name is kept once however many pairs cross it", "[model]") {
  ibkit::PairRoutes routes;
  const std::vector<std::string> line = {"sw0 port 3 <-> sw1 port 2", "sw1 port 3 <-> sw2 port 2"};
  routes.set_route("h1", "h3", line);
  routes.set_route("h2", "h3", std::vector<std::string>{line[1], line[1]});
  routes.set_route("h1", "h2", std::vector<std::string>{line[0]});
  CHECK(routes.names_kept() == 2);
  CHECK(routes.numbers_kept() == 4);  // a repeat counts once
  CHECK(routes.route_names("h3", "h1") == line);
  CHECK(*routes.route("h2", "h3") == std::vector<std::uint32_t>{routes.link(line[1])});
  routes.set_route("h1", "h3", std::vector<std::string>{line[0]});  // replaced, not added
  CHECK(routes.numbers_kept() == 3);
  CHECK(routes.pairs() == 3);
}
