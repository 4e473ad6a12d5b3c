#include "sysfs/addresses.hpp"

#include <catch2/catch.hpp>

TEST_CASE("ip -o addr output is parsed per interface", "[sysfs]") {
  const char* text =
      "1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n"
      "1: lo    inet6 ::1/128 scope host \\       valid_lft forever preferred_lft forever\n"
      "4: ib0    inet 10.0.0.1/24 brd 10.0.0.255 scope global ib0\\       valid_lft forever\n"
      "4: ib0    inet6 fe80::202:c902:29:8e01/64 scope link \\       valid_lft forever\n"
      "5: ib0.8001@ib0    inet 10.1.0.1/24 scope global ib0.8001\n"
      "garbage line\n"
      "\n";
  auto addresses = ibkit::parse_ip_addr_output(text);
  REQUIRE(addresses.size() == 5);
  CHECK(addresses[2].interface == "ib0");
  CHECK(addresses[2].family == "inet");
  CHECK(addresses[2].address == "10.0.0.1/24");
  CHECK(addresses[4].interface == "ib0.8001");
}

TEST_CASE("the live system's addresses come from the kernel", "[sysfs]") {
  auto root = ibkit::SysfsRoot::open("/");
  REQUIRE(root.ok());
  auto addresses = ibkit::read_addresses(*root);
  REQUIRE(addresses);
  bool loopback = false;
  for (const auto& address : *addresses) loopback = loopback || address.address == "127.0.0.1/8";
  CHECK(loopback);
}
