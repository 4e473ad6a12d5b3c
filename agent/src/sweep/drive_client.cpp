#include "sweep/drive_client.hpp"

#include <nlohmann/json.hpp>

#include "control/session.hpp"
#include "control/socket.hpp"
#include "schema/pair_report_json.hpp"

namespace ibkit {
namespace {

DriveAttempt stopped(DriveStage stage, const std::string& error) {
  DriveAttempt attempt;
  attempt.stage = stage;
  attempt.error = error;
  return attempt;
}

// A failure after A took the session: a passed deadline is a time-out, anything else A's refusal.
DriveAttempt failed_after_connect(const Error& error, const Deadline& deadline) {
  return stopped(deadline.expired() ? DriveStage::kTimedOut : DriveStage::kRefused, error.message);
}

TestRequest session_request(const std::string& test) {
  TestRequest request;
  request.test = test;
  return request;
}

}  // namespace

DriveAttempt drive_pair(const SweepHost& a, const DriveRequest& drive,
                        const std::optional<SharedKey>& key, double connect_timeout_s,
                        const Deadline& deadline) {
  auto channel = connect_to_peer(a.address, a.port, key,
                                 Deadline::after_seconds(connect_timeout_s).min(deadline));
  if (!channel) return stopped(DriveStage::kUnreachable, channel.error().message);
  if (auto accepted = start_session(**channel, session_request(kDriveTest), deadline); !accepted) {
    return failed_after_connect(accepted.error(), deadline);
  }
  if (auto sent = (*channel)->send(to_json(drive), deadline); !sent) {
    return failed_after_connect(sent.error(), deadline);
  }
  auto result = receive_type(**channel, "result", deadline);
  if (!result) return failed_after_connect(result.error(), deadline);
  const std::string from = "node " + a.name + " ";
  if (!result->contains("report") || !(*result)["peer_answered"].is_boolean()) {
    return stopped(DriveStage::kRefused, from + "sent a drive result without report/peer_answered");
  }
  auto report = pair_report_from_json((*result)["report"]);
  if (!report)
    return stopped(DriveStage::kRefused, from + "sent a bad report: " + report.error().message);
  DriveAttempt attempt;
  attempt.stage = DriveStage::kFinished;
  attempt.report = std::move(*report);
  attempt.peer_answered = (*result)["peer_answered"].get<bool>();
  return attempt;
}

Expected<NodeAnswer> ask_node(const SweepHost& host, const std::optional<SharedKey>& key,
                              const Deadline& deadline) {
  auto channel = connect_to_peer(host.address, host.port, key, deadline);
  if (!channel) return channel.error();
  if (auto accepted = start_session(**channel, session_request("rails"), deadline); !accepted) {
    return accepted.error();
  }
  auto result = receive_type(**channel, "result", deadline);
  if (!result) return result.error();
  const Error bad{"node " + host.name + " sent a bad rails result"};
  const auto& rails = (*result)["rails"];
  NodeAnswer answer;
  if (!rails.is_array() || rails.size() > RequestBounds::kMaxRail + 1) return bad;
  for (const auto& name : rails) {
    if (!name.is_string()) return bad;
    answer.rails.push_back(name.get<std::string>());
  }
  // Agents before 0.1.1 do not say.
  if (const auto session = result->find("session_s"); session != result->end()) {
    if (!session->is_number() || session->get<double>() < 0) return bad;
    answer.session_s = session->get<double>();
  }
  return answer;
}

}  // namespace ibkit
