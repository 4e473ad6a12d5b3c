// The reason a pair that could not run gives: which node did not answer, and whom.
#include "sweep/pair_attempt.hpp"

#include <catch2/catch.hpp>

#include "sweep/drive_client.hpp"

using namespace ibkit;

namespace {

const SweepHost kA{"n4", "10.0.0.4", 18515};
const SweepHost kB{"n1", "10.0.0.1", 18515};

}  // namespace

TEST_CASE("a node the coordinator cannot reach is named as not answering the sweep", "[sweep]") {
  DriveAttempt drive;
  drive.stage = DriveStage::kUnreachable;
  drive.error = "connect to 10.0.0.4:18515: Connection refused";
  const PairAttempt attempt = judge_drive(kA, kB, drive, Thresholds{});
  CHECK(attempt.status == PairStatus::kUnreachable);
  // It read "node n4: connect to ...: Connection refused", as if n4 had refused someone.
  CHECK(attempt.reason ==
        "node n4 did not answer the sweep: connect to 10.0.0.4:18515: Connection refused: no "
        "ibkit serve listens there");
}

TEST_CASE("a peer that refused node A's connection is named, with A", "[sweep]") {
  DriveAttempt drive;
  drive.stage = DriveStage::kFinished;
  drive.peer_answered = false;
  PairReport report;
  report.outcomes = {PairOutcome{"tcp", std::nullopt, std::nullopt,
                                 "connect to 10.0.0.1:18515: Connection refused"}};
  drive.report = report;
  const PairAttempt attempt = judge_drive(kA, kB, drive, Thresholds{});
  CHECK(attempt.status == PairStatus::kFailed);
  CHECK(attempt.reason ==
        "node n1 did not answer n4: connect to 10.0.0.1:18515: Connection refused: no ibkit "
        "serve listens there");
  drive.report->outcomes[0].error = "connect to 10.0.0.1:18515: no answer within 5 s";
  CHECK(judge_drive(kA, kB, drive, Thresholds{}).reason ==
        "node n1 did not answer n4: connect to 10.0.0.1:18515: no answer within 5 s");
}
