#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "control/auth.hpp"
#include "control/measurement_request.hpp"
#include "model/pair_report.hpp"
#include "pair/pair_plan.hpp"
#include "util/time/deadline.hpp"
#include "verbs/device.hpp"

namespace ibkit {

struct PairTestsRun {
  std::vector<PairOutcome> outcomes;  // one per test, each with what it measured or its error
  bool peer_answered = true;          // false when no test could reach or authenticate the peer
};

// Runs each test of the plan in its own session against the `ibkit serve` at peer:port, in
// order (a verbs test once per completion mode of the plan, polling first); whatever a test
// measured is kept even when it fails. Never throws.
PairTestsRun run_pair_tests(const std::string& peer, std::uint16_t port,
                            const std::optional<SharedKey>& key, const PairPlan& plan);

}  // namespace ibkit
