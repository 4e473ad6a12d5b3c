// What the checks that compare two runs' counters say of the time between them and of a reset.
#include "checks/counter_comparison.hpp"

#include <catch2/catch.hpp>

using namespace ibkit;

TEST_CASE("counter comparison: an interval in the unit a person reads", "[checks]") {
  CHECK(interval_text(45) == "45 s");
  CHECK(interval_text(119) == "119 s");
  CHECK(interval_text(600) == "10 min");
  CHECK(interval_text(2 * 3600 - 1) == "119 min");
  CHECK(interval_text(3 * 3600 + 59) == "3 h");
}

TEST_CASE(
    "counter comparison: the first error counter that went back is a reset, traffic "
    "counters that wrap are not",
    "[checks]") {
  const auto is_error = [](const std::string& name) { return name != "port_xmit_data"; };
  const std::map<std::string, std::uint64_t> before = {
      {"link_downed", 2}, {"port_xmit_data", 900}, {"symbol_error", 5}};
  CHECK(first_counter_reset(
            before, {{"link_downed", 2}, {"port_xmit_data", 10}, {"symbol_error", 7}}, is_error)
            .empty());
  CHECK(first_counter_reset(before,
                            {{"link_downed", 2}, {"port_xmit_data", 950}, {"symbol_error", 0}},
                            is_error) == "symbol_error 5 -> 0");
  // A counter the earlier run did not have cannot have gone back.
  CHECK(first_counter_reset(before, {{"port_rcv_errors", 0}}, is_error).empty());
}
