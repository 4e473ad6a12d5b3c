#include "sweep/network_runner.hpp"

#include <algorithm>

#include "pair/test_budget.hpp"
#include "sweep/drive_client.hpp"
#include "sweep/pair_attempt.hpp"

namespace ibkit {

PairRunner network_runner(const SweepSettings& settings, const std::optional<SharedKey>& key,
                          const Thresholds& thresholds) {
  return [settings, key, thresholds](const SweepHost& a, const SweepHost& b, int rail,
                                     const Deadline& deadline) {
    DriveRequest drive = settings.drive;
    drive.peer = b.address;
    drive.port = b.port;
    if (settings.rails > 1 || rail > 0) drive.rail = rail;
    // A must give up on B before the coordinator gives up on A, so a silent B is reported
    // by A as B's fault rather than as A timing out.
    const double left = deadline.remaining_ms() / 1000.0;
    drive.deadline_s = std::max(DriveBounds::kMinDeadlineS, std::min(drive.deadline_s, left - 1));
    drive.connect_timeout_s = settings.connect_timeout_s;
    // tcp rides the IP address, the same whatever the rail: once, on rail 0, is enough.
    if (rail > 0 && drive.tests.size() > 1) std::erase(drive.tests, "tcp");
    // Too little time left for the tests: A would refuse the drive, or the coordinator give up
    // on it, and the pair would count against a node that did nothing wrong.
    if (planned_seconds(drive) > std::min(drive.deadline_s, left)) {
      return attempt_of(PairStatus::kNotRun,
                        "not run: the sweep's --deadline left too little time");
    }
    return judge_drive(a, b, drive_pair(a, drive, key, settings.connect_timeout_s, deadline),
                       thresholds);
  };
}

}  // namespace ibkit
