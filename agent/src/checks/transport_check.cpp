#include "checks/transport_check.hpp"

#include "config/transport_counters.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

// What to do about counters over their limits, by what they count.
std::string over_limit_hint(const std::vector<TransportKind>& kinds) {
  std::vector<std::string> hints;
  for (TransportKind kind : kinds) {
    switch (kind) {
      case TransportKind::kRetryExhausted:
        hints.emplace_back(
            "queue pairs ran out of retries: a peer vanished in mid-transfer, or the path loses "
            "packets (ibkit sweep names the pair; then the cable, transceiver and switch port)");
        break;
      case TransportKind::kLinkDown:
        hints.emplace_back("the link went down: check the cable, transceiver and switch port");
        break;
      default:
        hints.emplace_back(std::string(transport_kind_name(kind)) +
                           " over their limit: the path to some peer loses packets; ibkit "
                           "sweep names the pair");
    }
  }
  return join(hints, "; ") +
         ". hw_counters count since the driver loaded and cannot be reset: after the fix, raise "
         "the limit in [limits] or reboot";
}

CheckResult judge_transport(const Port& port, const CounterLimits& limits,
                            const std::string& subject, const std::string& dir) {
  std::vector<std::string> seen;
  std::vector<std::string> over;
  std::vector<TransportKind> over_kinds;
  for (const auto& [name, count] : port.transport.values) {
    const TransportCounter* counter = find_transport_counter(name);
    auto limit = limits.find(name);
    const bool judged = limit != limits.end();
    if (judged && count > limit->second) {
      over.push_back(name + " " + std::to_string(count) + " > " + std::to_string(limit->second));
      if (counter != nullptr) over_kinds.push_back(counter->kind);
      continue;
    }
    if (count > 0 && counter != nullptr && transport_kind_is_trouble(counter->kind)) {
      seen.push_back(name + "=" + std::to_string(count));
    }
  }
  std::vector<std::string> unreadable_judged;
  std::vector<std::string> unreadable_other;
  for (const auto& [name, problem] : port.transport.problems) {
    (limits.count(name) != 0 ? unreadable_judged : unreadable_other)
        .push_back(name + ": " + problem);
  }
  CheckResult result{"port.transport", subject, Status::kPass, "", "within [limits]", ""};
  std::vector<std::string> observed = over;
  std::vector<std::string> hints;
  if (!over.empty()) {
    result.status = Status::kFail;
    hints.push_back(over_limit_hint(over_kinds));
  }
  if (!unreadable_judged.empty()) {
    result.status = Status::kFail;
    observed.insert(observed.end(), unreadable_judged.begin(), unreadable_judged.end());
    hints.push_back(
        "a transport counter with a limit that cannot be read cannot pass: check the "
        "driver and the kernel log (dmesg)");
  }
  if (!unreadable_other.empty()) {
    if (result.status == Status::kPass) result.status = Status::kWarn;
    observed.insert(observed.end(), unreadable_other.begin(), unreadable_other.end());
    hints.push_back("transport counters that cannot be read say the driver or " + dir +
                    " is not well: check the kernel log (dmesg)");
  }
  observed.insert(observed.end(), seen.begin(), seen.end());
  result.observed =
      observed.empty() ? "no retransmissions or transport errors" : join(observed, ", ");
  result.hint = join(hints, "; ");
  return result;
}

}  // namespace

void check_transport_counters(const CheckContext& context, CheckResults& results) {
  for (const auto& fabric : fabric_ports(context)) {
    const Port& port = *fabric.port;
    const std::string subject = fabric.hca->subject(port.number);
    const std::string dir = "ports/" + std::to_string(port.number) + "/hw_counters";
    if (!port.transport.present) {
      results.push_back({"port.transport", subject, Status::kSkip, "no transport counters", "",
                         "the driver keeps no " + dir +
                             " (mthca, qib and older kernels): retransmissions show only as "
                             "slow pairs"});
      continue;
    }
    if (!port.transport.problem.empty()) {
      results.push_back({"port.transport", subject, Status::kFail,
                         dir + "/: " + port.transport.problem, "a directory of counters",
                         "the port's transport counters cannot be read, so they cannot pass: "
                         "check the driver (dmesg) and sys/class/infiniband/" +
                             fabric.hca->name + "/" + dir});
      continue;
    }
    results.push_back(judge_transport(port, context.config.transport_limits, subject, dir));
  }
}

}  // namespace ibkit
