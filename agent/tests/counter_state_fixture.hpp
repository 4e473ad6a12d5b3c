#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "checks/run_checks.hpp"
#include "fixture_tree.hpp"
#include "schema/counter_baseline.hpp"

namespace ibkit::test {

// The mthca-ddr-2port fixture as the tests of checks between two runs (port.flaps,
// port.error_rate) use it: mthca0/1 (4X DDR, 16 Gb/s) required, its counters moved by the test.
inline constexpr const char* kOnePortConfig = R"(
[expect]
link_layer = "InfiniBand"
ports = ["mthca0/1"]
)";
inline const std::string kOnePortCounters = "sys/class/infiniband/mthca0/ports/1/counters/";
inline constexpr std::int64_t kEarlier = 1'800'000'000;

// The baseline a check `elapsed_seconds` after `tree`'s counters were kept (at kEarlier) would
// load.
CounterBaseline baseline_after(const FixtureTree& tree, std::int64_t elapsed_seconds);

// Every check of `tree` against `baseline`, with `toml` as the configuration.
CheckRun check_against(const FixtureTree& tree, const CounterBaseline& baseline,
                       std::string_view toml = kOnePortConfig);

}  // namespace ibkit::test
