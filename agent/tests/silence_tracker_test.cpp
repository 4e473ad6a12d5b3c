// The sweep's count of each node's silent pairs in a row, apart from the coordinator that feeds
// it (sweep_coordinator_test drives both through run_sweep).
#include "sweep/silence_tracker.hpp"

#include <catch2/catch.hpp>

using namespace ibkit;

namespace {

// A pair of nodes a-b where `a_silent` / `b_silent` did not answer; B answered unless silent.
PairSilence pair_of(std::size_t a, std::size_t b, bool a_silent, bool b_silent) {
  return {a, b, a_silent, b_silent, !a_silent && !b_silent};
}

}  // namespace

TEST_CASE(
    "silence tracker: a node silent in `limit` pairs in a row is silenced, an answer "
    "starts it again",
    "[sweep]") {
  SilenceTracker tracker(8, 2);
  CHECK_FALSE(tracker.note_step({pair_of(0, 1, true, false)}, 4));
  CHECK(tracker.silent(0));
  CHECK_FALSE(tracker.silenced(0));
  CHECK_FALSE(tracker.silent(1));
  CHECK_FALSE(tracker.note_step({pair_of(0, 2, true, false)}, 4));
  CHECK(tracker.silenced(0));
  CHECK_FALSE(tracker.silenced(2));

  SilenceTracker again(8, 2);
  again.note_step({pair_of(3, 1, true, false)}, 4);
  again.note_step({pair_of(3, 2, false, false)}, 4);  // 3 answered: back to zero
  again.note_step({pair_of(3, 4, true, false)}, 4);
  CHECK_FALSE(again.silenced(3));
}

TEST_CASE("silence tracker: B that A could not reach is not counted as having answered",
          "[sweep]") {
  SilenceTracker tracker(4, 2);
  tracker.note_step({pair_of(0, 1, false, true)}, 2);
  // A answered without a report from B: B's count is neither raised nor reset.
  tracker.note_step({{2, 1, false, false, false}}, 2);
  tracker.note_step({pair_of(0, 1, false, true)}, 2);
  CHECK(tracker.silenced(1));
  CHECK_FALSE(tracker.silenced(0));
}

TEST_CASE(
    "silence tracker: most of a step unanswered at once is the fabric, held against no "
    "node",
    "[sweep]") {
  SilenceTracker tracker(12, 1);
  const std::vector<PairSilence> storm = {pair_of(0, 1, true, false), pair_of(2, 3, true, false),
                                          pair_of(4, 5, false, true), pair_of(6, 7, true, false),
                                          pair_of(8, 9, false, false)};
  const auto note = tracker.note_step(storm, 6);
  REQUIRE(note);
  CHECK(*note ==
        "; 4 of 6 pairs of this step went unanswered at once: a fabric-wide event, held against "
        "no node");
  for (std::size_t node = 0; node < 12; ++node) CHECK_FALSE(tracker.silent(node));

  // Three dead nodes of eight pairs are three dead nodes, however many pairs that is.
  const std::vector<PairSilence> three = {pair_of(0, 1, true, false), pair_of(2, 3, true, false),
                                          pair_of(4, 5, true, false)};
  CHECK_FALSE(tracker.note_step(three, 8));
  CHECK(tracker.silenced(0));
  CHECK(tracker.silenced(2));
  CHECK(tracker.silenced(4));
  tracker.forgive_all();
  CHECK_FALSE(tracker.silent(0));
  CHECK_FALSE(tracker.silenced(4));
}

TEST_CASE(
    "silence: a node forgiven after it was silenced is silenced again by its first silent "
    "pair, unless it answers first",
    "[sweep]") {
  SilenceTracker tracker(8, 2);
  for (int step = 0; step < 2; ++step) {
    CHECK_FALSE(tracker.note_step({pair_of(0, 1, true, false)}, 4));
  }
  CHECK(tracker.silenced(0));
  CHECK(tracker.note_step({pair_of(2, 3, true, false)}, 4) == std::nullopt);  // 2: one silence
  tracker.forgive_all();
  CHECK_FALSE(tracker.silenced(0));
  CHECK_FALSE(tracker.silenced(2));

  tracker.note_step({pair_of(0, 4, true, false), pair_of(2, 5, true, false)}, 4);
  CHECK(tracker.silenced(0));        // its last chance spent: a frozen node waits out one deadline
  CHECK_FALSE(tracker.silenced(2));  // never silenced: two in a row, as always

  tracker.forgive_all();
  tracker.note_step({pair_of(0, 6, false, true)}, 4);  // back: it answered
  tracker.note_step({pair_of(0, 7, true, false)}, 4);
  CHECK_FALSE(tracker.silenced(0));
}
