#include "checks/link_flap_check.hpp"

#include <string>
#include <vector>

#include "checks/counter_comparison.hpp"
#include "model/error_counters.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr const char* kFlapCounter = "link_downed";

std::string expected_text(std::uint64_t limit) {
  return "at most " + std::to_string(limit) + " link_downed rise(s) between checks ([limits] " +
         "link_flaps)";
}

// The error counters with a limit, other than link_downed, that rose since `before`.
std::vector<std::string> other_rises(const std::map<std::string, std::uint64_t>& before,
                                     const std::map<std::string, std::uint64_t>& now,
                                     const CounterLimits& limits) {
  std::vector<std::string> rises;
  for (const auto& [name, value] : now) {
    auto earlier = before.find(name);
    if (name == kFlapCounter || limits.count(name) == 0 || earlier == before.end()) continue;
    if (value > earlier->second)
      rises.push_back(name + " +" + std::to_string(value - earlier->second));
  }
  return rises;
}

CheckResult judge_port(const Port& port, const std::string& subject,
                       const CounterSnapshot& previous, const CounterBaseline& baseline,
                       const Config& config) {
  const std::string baseline_note = "; this check's counters are the baseline for the next";
  CheckResult result{
      "port.flaps", subject, Status::kSkip, "not judged", expected_text(config.max_link_flaps), ""};
  auto now = port.counters.find(kFlapCounter);
  if (now == port.counters.end()) {
    result.hint = "the port has no readable counters/" + std::string(kFlapCounter) +
                  " (soft RoCE and some virtual functions have no counters)";
    return result;
  }
  auto before = previous.ports.find(subject);
  if (before == previous.ports.end() || before->second.count(kFlapCounter) == 0) {
    result.hint = "the port is not in the previous check in " + baseline.state_path + baseline_note;
    return result;
  }
  auto is_error_counter = [&config](const std::string& name) {
    return name == kFlapCounter || config.counter_limits.count(name) != 0;
  };
  if (auto reset = first_counter_reset(before->second, port.counters, is_error_counter);
      !reset.empty()) {
    result.hint =
        "the counters were reset since the previous check (" + reset + ")" + baseline_note;
    return result;
  }
  // LinkDownedCounter stops at its maximum (8 bits) instead of wrapping: there it cannot rise any
  // more, and a flap would go unseen.
  const std::uint64_t maximum = counter_maximum(kFlapCounter);
  if (now->second >= maximum && before->second.at(kFlapCounter) >= maximum) {
    result.status = Status::kWarn;
    result.observed =
        std::string(kFlapCounter) + " " + kCounterStopped + ", " + std::to_string(maximum);
    result.hint =
        "the counter cannot rise any more, so flaps go unseen: reset the port's "
        "counters (perfquery -R) after dealing with the link";
    return result;
  }
  const std::uint64_t flaps = now->second - before->second.at(kFlapCounter);
  const bool saturated = now->second >= maximum;
  result.observed = std::string(kFlapCounter) + " +" + std::to_string(flaps) +
                    (saturated ? " or more (it reached its maximum)" : "") + " in " +
                    interval_text(baseline.now - previous.taken_at);
  auto rises = other_rises(before->second, port.counters, config.counter_limits);
  if (!rises.empty()) result.observed += "; also rose: " + join(rises, ", ");
  result.status = flaps > config.max_link_flaps ? Status::kFail : Status::kPass;
  if (result.status == Status::kFail) {
    result.hint =
        "the link went down and came back since the previous check: a marginal cable or "
        "transceiver, or the switch or peer port reset; check the switch's log, reseat or replace "
        "the cable, and watch link_downed and symbol_error";
  }
  return result;
}

}  // namespace

void check_link_flaps(const CheckContext& context, const CounterBaseline& baseline,
                      CheckResults& results) {
  if (!baseline.previous) {
    results.push_back({"port.flaps", context.hostname,
                       baseline.unreadable ? Status::kWarn : Status::kSkip, "no previous counters",
                       expected_text(context.config.max_link_flaps),
                       baseline.why + "; this check's counters are the baseline for the next"});
    return;
  }
  for (const auto& fabric : fabric_ports(context)) {
    results.push_back(judge_port(*fabric.port, fabric.hca->subject(fabric.port->number),
                                 *baseline.previous, baseline, context.config));
  }
}

}  // namespace ibkit
