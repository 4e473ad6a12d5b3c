#include "schema/sweep_pair_fields.hpp"

#include <algorithm>
#include <iterator>

#include "schema/fleet_json.hpp"

namespace ibkit {
namespace {

constexpr PairStatus kPairStatuses[] = {PairStatus::kPass,        PairStatus::kSlow,
                                        PairStatus::kFailed,      PairStatus::kTimedOut,
                                        PairStatus::kUnreachable, PairStatus::kNotRun};

}  // namespace

void read_pair_outcome(JsonFields& fields, int rails, int rounds, SweepPair* pair) {
  pair->rail = fields.integer_in("rail", 0, rails - 1);
  pair->round = fields.integer_in("round", 0, rounds);
  const auto status = fields.text("status");
  pair->rules = read_pair_rules(fields);
  pair->attempts = fields.integer_in("attempts", 0, kMaxPairAttempts);
  pair->seconds = fields.number_in("seconds", 0, kMaxReportSeconds);
  if (fields.failed()) return;
  const auto* known = std::find_if(std::begin(kPairStatuses), std::end(kPairStatuses),
                                   [&](PairStatus s) { return pair_status_name(s) == status; });
  if (known == std::end(kPairStatuses)) {
    fields.fail("field " + fields.path_of("status") + " \"" + status +
                "\" is not pass, slow, failed, timed_out, unreachable or not_run");
    return;
  }
  pair->status = *known;
}

}  // namespace ibkit
