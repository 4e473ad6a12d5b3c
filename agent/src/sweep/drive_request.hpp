#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "pair/run_pair_tests.hpp"
#include "pair/test_budget.hpp"
#include "util/expected.hpp"

namespace ibkit {

// The test a sweep coordinator asks of node A's `ibkit serve` ("test": "drive"): after the
// accept it sends one {"type": "drive", ...} message, A runs the client side of the pair tests
// against B's `ibkit serve` with its own key, and A's result carries the pair report.
inline constexpr const char* kDriveTest = "drive";

struct DriveRequest : PairWorkload {
  std::string peer;              // B's address, as A reaches it
  std::uint16_t port = 18515;    // B's control port
  double deadline_s = 60;        // the whole drive, connecting to B included
  double connect_timeout_s = 5;  // reaching and authenticating B, per test
};

struct DriveBounds {
  static constexpr double kMinDeadlineS = 1;
  static constexpr double kMaxDeadlineS = 3600;
  static constexpr double kMinConnectS = 0.1;
  static constexpr double kMaxConnectS = 600;
};

// {"type": "drive", ...every field}; "op", "sizes", "rail" and "ack_timeout" only when set.
nlohmann::json to_json(const DriveRequest& drive);

// Reads and bounds-checks a drive message; the Error names the field and its bounds. "peer",
// "port" and "tests" are required; unknown fields and wrong JSON types are refused, as are an
// "op" that one of the verbs tests cannot run, both "iters" and "duration_s", and a
// "deadline_s" shorter than the tests' planned_seconds (pair/test_budget.hpp).
Expected<DriveRequest> drive_from_json(const nlohmann::json& message);

// What A runs: the drive as a plan for run_pair_tests, bounded by `until`.
PairPlan plan_of(const DriveRequest& drive, const Deadline& until);

}  // namespace ibkit
