#include "sweep/drive_side.hpp"

#include <chrono>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "control/socket.hpp"
#include "model/pair_report.hpp"
#include "pair/pair_ends.hpp"
#include "pair/pair_verdict.hpp"
#include "pair/run_pair_tests.hpp"
#include "schema/pair_report_json.hpp"
#include "sweep/drive_request.hpp"
#include "util/hostname.hpp"
#include "util/time/utc_time.hpp"
#include "verbs/rails.hpp"

namespace ibkit {
namespace {

// The drive message follows the accept at once; a client that sends nothing is cut off.
constexpr auto kDriveMessageTimeout = std::chrono::seconds(10);

}  // namespace

Expected<nlohmann::json> serve_drive(Channel& channel, const TestRequest& /*request*/,
                                     const Deadline& session, const std::optional<SharedKey>& key) {
  auto message = receive_type(channel, "drive", Deadline::after(kDriveMessageTimeout).min(session));
  if (!message) return message.error();
  auto drive = drive_from_json(*message);
  if (!drive) return drive.error();
  const double left = session.remaining_ms() / 1000.0;
  if (drive->deadline_s > left) {
    return Error{"drive field \"deadline_s\": " + seconds_text(drive->deadline_s) +
                 " is over the " + seconds_text(left) +
                 " this session has left (--session-timeout)"};
  }
  const Deadline until = Deadline::after_seconds(drive->deadline_s).min(session);
  const PairTestsRun run = run_pair_tests(drive->peer, drive->port, key, plan_of(*drive, until));
  // Judged without thresholds here: the coordinator judges with its own configuration.
  PairReport report{local_hostname(), drive->peer,
                    utc_timestamp(),  "",
                    run.outcomes,     judge_pair(run.outcomes, Thresholds{})};
  add_pair_ends_result(report.results, report.outcomes, report.host, report.peer);
  return nlohmann::json{{"peer_answered", run.peer_answered},
                        {"report", nlohmann::json(pair_report_json(report))}};
}

Expected<nlohmann::json> serve_rails(Channel& /*channel*/, const TestRequest& /*request*/,
                                     const Deadline& session) {
  auto rails = rail_devices();
  if (!rails) return rails.error();
  // What a session has left as this one begins: a coordinator whose drives would outlast it
  // says so once, before any pair, instead of every pair being refused.
  return nlohmann::json{{"rails", *rails}, {"session_s", session.remaining_ms() / 1000.0}};
}

}  // namespace ibkit
