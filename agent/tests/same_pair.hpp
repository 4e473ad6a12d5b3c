#pragma once
// What a sweep pair read back from a report must keep of the pair written (sweep_json_test,
// schema_sweep_pairs_test); each test holds the figures to its own precision.

#include <catch2/catch.hpp>

#include "model/sweep_report.hpp"

namespace ibkit::test {

// The pair's ends, rail, round and outcome (status, reason, rules, attempts) are the same.
inline void check_same_pair_outcome(const SweepPair& read, const SweepPair& written) {
  CHECK(read.a == written.a);
  CHECK(read.b == written.b);
  CHECK(read.rail == written.rail);
  CHECK(read.round == written.round);
  CHECK(read.status == written.status);
  CHECK(read.reason == written.reason);
  CHECK(pair_rules_name(read.rules) == pair_rules_name(written.rules));
  CHECK(read.attempts == written.attempts);
}

}  // namespace ibkit::test
