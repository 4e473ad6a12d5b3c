#include "checks/error_rate_check.hpp"

#include <algorithm>
#include <vector>

#include "checks/counter_comparison.hpp"
#include "checks/rate_history.hpp"
#include "model/error_counters.hpp"
#include "util/text.hpp"

namespace ibkit {
namespace {

constexpr const char* kCheck = "port.error_rate";
// The per-hour window's floor: a check a minute after the last cannot make one error 60/h.
constexpr std::int64_t kHour = 3600;
// The burst window's floor, NVSentinel's longest (link_error_recovery's 5 a minute): one retrain
// ten seconds after the last check is not 0.1 a second.
constexpr std::int64_t kMinute = 60;

// At the limit passes: 720 errors in an hour at 4X HDR must not fail by a rounding.
bool above(double rate, double limit) { return rate > limit + 1e-9 * std::max(1.0, limit); }

Status worse(Status a, Status b) { return static_cast<int>(a) >= static_cast<int>(b) ? a : b; }

std::string per_hour_text(double rate) { return format_number(rate) + "/h"; }
std::string per_second_text(double rate) { return format_number(rate, 3) + "/s"; }

struct CounterVerdict {
  Status rate = Status::kPass;    // what the rates say: what the history keeps
  Status status = Status::kPass;  // and a saturated counter's warning
  std::string observed;           // "" when the counter did not rise
};

CounterVerdict judge_counter(const std::string& name, std::uint64_t before, std::uint64_t now,
                             std::int64_t elapsed, const CounterRateLimit& limit) {
  CounterVerdict verdict;
  const std::uint64_t maximum = counter_maximum(name);
  if (now >= maximum && before >= maximum) {
    verdict.status = Status::kWarn;
    verdict.observed = name + " " + kCounterStopped + ", " + std::to_string(maximum) + ": no rate";
    return verdict;
  }
  const std::uint64_t rise = now - before;
  if (rise == 0) return verdict;
  const bool saturated = now >= maximum;
  const double per_hour =
      static_cast<double>(rise) * kHour / static_cast<double>(std::max(elapsed, kHour));
  const double per_second =
      static_cast<double>(rise) / static_cast<double>(std::max(elapsed, kMinute));
  verdict.observed = name + " +" + std::to_string(rise) + (saturated ? " or more" : "") + " in " +
                     interval_text(elapsed) + ": ";
  if (limit.per_hour && above(per_hour, *limit.per_hour)) {
    verdict.rate = Status::kFail;
    verdict.observed += per_hour_text(per_hour) + ", above " + per_hour_text(*limit.per_hour) +
                        " (" + limit.per_hour_source + ")";
  } else if (limit.per_second && above(per_second, *limit.per_second)) {
    verdict.rate = Status::kWarn;
    verdict.observed += per_second_text(per_second) + ", above " +
                        per_second_text(*limit.per_second) + " (a burst; " +
                        per_hour_text(per_hour) + " per hour is within the hourly limit)";
  } else {
    verdict.observed += per_hour_text(per_hour);
    if (limit.per_hour) verdict.observed += ", within " + per_hour_text(*limit.per_hour);
  }
  verdict.status = verdict.rate;
  if (saturated && verdict.rate == Status::kPass) {
    verdict.status = Status::kWarn;
    verdict.observed +=
        "; it reached its maximum, " + std::to_string(maximum) + ", so the rate may be higher";
  }
  return verdict;
}

std::string expected_text(const ErrorRateLimits& limits, std::optional<double> data_gbps) {
  std::vector<std::string> parts;
  for (auto counter : kRateCounters) {
    const auto limit = error_rate_limit(limits, counter, data_gbps);
    std::vector<std::string> bounds;
    if (limit.per_hour) {
      bounds.push_back(
          "<= " + per_hour_text(*limit.per_hour) +
          (limit.per_hour_source == "default" ? "" : " (" + limit.per_hour_source + ")"));
    }
    if (limit.per_second) bounds.push_back("<= " + per_second_text(*limit.per_second));
    if (!bounds.empty()) parts.push_back(std::string(counter) + " " + join(bounds, ", "));
  }
  return join(parts, "; ") + "; degraded or failed on fewer than " +
         std::to_string(kRateHistoryBadRuns) + " of the last " + std::to_string(kRateHistoryRuns) +
         " runs";
}

std::string hint_for(Status rate, Status status, bool repeated) {
  if (repeated) {
    return "the link is bad again and again: reseat or replace the cable or transceiver, compare "
           "with the switch's end of the link, then reset the port's counters (perfquery -R), "
           "which starts its history again";
  }
  if (rate == Status::kFail) {
    return "more errors than the link's budget: a marginal cable or transceiver, a dirty "
           "connector or a failing port; reseat or replace the cable (mlxlink -d DEVICE -c shows "
           "the bit error rate) and reset the port's counters (perfquery -R) once it is mended";
  }
  if (rate == Status::kWarn) {
    return "a burst of errors since the previous check: watch the next checks (degraded on " +
           std::to_string(kRateHistoryBadRuns) + " of the last " +
           std::to_string(kRateHistoryRuns) + " fails the port)";
  }
  if (status == Status::kWarn) {
    return "a counter at its maximum cannot rise, so its errors go unseen: reset the port's "
           "counters (perfquery -R) after dealing with the link";
  }
  return "";
}

bool is_rate_counter(const std::string& name) {
  return std::find(std::begin(kRateCounters), std::end(kRateCounters), name) !=
         std::end(kRateCounters);
}

}  // namespace

std::optional<double> infiniband_data_gbps(const Port& port) {
  if (port.is_ethernet() || !port.rate || !(port.rate->data_gbps > 0)) return std::nullopt;
  return port.rate->data_gbps;
}

PortRateJudgement judge_error_rates(const std::string& subject, const PortCounters& before,
                                    const PortCounters& now, std::int64_t elapsed_seconds,
                                    std::optional<double> data_gbps, const ErrorRateLimits& limits,
                                    const std::string& history) {
  PortRateJudgement judgement{
      {kCheck, subject, Status::kSkip, "not judged", expected_text(limits, data_gbps), ""},
      history};
  auto& result = judgement.result;
  Status rate = Status::kPass;
  Status status = Status::kPass;
  std::vector<std::string> rises;
  std::vector<std::string> unjudged;
  std::size_t present = 0;
  for (auto counter : kRateCounters) {
    const std::string name(counter);
    auto earlier = before.find(name);
    auto later = now.find(name);
    if (earlier == before.end() || later == now.end()) continue;
    ++present;
    const auto limit = error_rate_limit(limits, counter, data_gbps);
    if (!limit.per_hour && !limit.per_second) {
      unjudged.push_back(name);
      continue;
    }
    auto verdict = judge_counter(name, earlier->second, later->second, elapsed_seconds, limit);
    rate = worse(rate, verdict.rate);
    status = worse(status, verdict.status);
    if (!verdict.observed.empty()) rises.push_back(std::move(verdict.observed));
  }
  const std::string no_limit =
      "no limit without the port's InfiniBand data rate (the IBTA's bit error rate is "
      "InfiniBand's; an Ethernet link layer or an unreadable rate has none): set [limits] "
      "<counter>_per_hour";
  if (present == 0) {
    result.hint = "the port has none of the counters judged as rates (symbol_error, ...)";
    return judgement;
  }
  if (unjudged.size() == present) {
    result.hint = join(unjudged, ", ") + ": " + no_limit;
    return judgement;
  }
  result.observed = rises.empty() ? "no error counter rose in " + interval_text(elapsed_seconds)
                                  : join(rises, "; ");
  if (!unjudged.empty()) result.observed += "; not judged: " + join(unjudged, ", ");
  judgement.history = add_rate_verdict(history, rate);
  const auto bad = bad_rate_runs(judgement.history);
  const bool repeated = bad >= kRateHistoryBadRuns;
  result.status = repeated ? Status::kFail : status;
  if (repeated) {
    result.observed += "; degraded or failed on " + std::to_string(bad) + " of the last " +
                       std::to_string(judgement.history.size()) + " runs";
  }
  result.hint = hint_for(rate, status, repeated);
  if (!unjudged.empty())
    result.hint += (result.hint.empty() ? "" : "; ") + join(unjudged, ", ") + ": " + no_limit;
  return judgement;
}

void check_error_rates(const CheckContext& context, const CounterBaseline& baseline,
                       CheckResults& results, std::map<std::string, std::string>& history) {
  const auto& config = context.config;
  if (!baseline.previous) {
    results.push_back({kCheck, context.hostname,
                       baseline.unreadable ? Status::kWarn : Status::kSkip, "no previous counters",
                       "error counter rates since the previous check",
                       baseline.why + "; this check's counters are the baseline for the next"});
    return;
  }
  const auto& previous = *baseline.previous;
  const std::int64_t elapsed = baseline.now - previous.taken_at;
  auto is_error_counter = [&config](const std::string& name) {
    return name == "link_downed" || config.counter_limits.count(name) != 0 || is_rate_counter(name);
  };
  for (const auto& fabric : fabric_ports(context)) {
    const Port& port = *fabric.port;
    const std::string subject = fabric.hca->subject(port.number);
    CheckResult skipped{kCheck,
                        subject,
                        Status::kSkip,
                        "not judged",
                        "error counter rates since the previous check",
                        ""};
    auto before = previous.ports.find(subject);
    if (port.counters.empty()) {
      skipped.hint =
          "the port has no readable counters (soft RoCE and some virtual functions have none)";
    } else if (before == previous.ports.end()) {
      skipped.hint = "the port is not in the previous check in " + baseline.state_path +
                     "; this check's counters are the baseline for the next";
    } else if (auto reset = first_counter_reset(before->second, port.counters, is_error_counter);
               !reset.empty()) {
      skipped.hint = "the counters were reset since the previous check (" + reset +
                     "); they are the baseline for the next, and the port's rate history starts "
                     "again";
      history.erase(subject);
    } else {
      auto earlier = history.find(subject);
      auto judgement = judge_error_rates(subject, before->second, port.counters, elapsed,
                                         infiniband_data_gbps(port), config.error_rates,
                                         earlier == history.end() ? "" : earlier->second);
      if (!judgement.history.empty()) history[subject] = judgement.history;
      results.push_back(std::move(judgement.result));
      continue;
    }
    results.push_back(std::move(skipped));
  }
}

}  // namespace ibkit
