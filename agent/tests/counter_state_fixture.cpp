#include "counter_state_fixture.hpp"

namespace ibkit::test {

CounterBaseline baseline_after(const FixtureTree& tree, std::int64_t elapsed_seconds) {
  auto earlier = run_checks(tree.root(), config_from(kOnePortConfig));
  return {"/var/lib/ibkit/counters.json", kEarlier + elapsed_seconds,
          take_counter_snapshot(earlier.hcas, earlier.hostname, "", kEarlier), "", false};
}

CheckRun check_against(const FixtureTree& tree, const CounterBaseline& baseline,
                       std::string_view toml) {
  return run_checks(tree.root(), config_from(toml), {}, &baseline);
}

}  // namespace ibkit::test
