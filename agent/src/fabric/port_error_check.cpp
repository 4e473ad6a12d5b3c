#include "fabric/port_error_check.hpp"

#include <string>
#include <vector>

#include "model/error_counters.hpp"
#include "util/text.hpp"
#include "util/time/utc_time.hpp"

namespace ibkit {
namespace {

constexpr std::size_t kPortsNamed = 5;

// A counter's value as the check shows it: "+12" when it is a rise since an earlier run, as read
// otherwise (and when it stopped counting at its maximum, so its rise is not known).
std::string counted(const SubnetPort& port, const std::string& name, std::uint64_t value) {
  const bool rise = port.counters_since && !counter_saturated(name, value, port.counters_extended);
  return (rise ? "+" : "") + std::to_string(value);
}

// ", rises since 2026-11-27T14:00:00Z" for counters judged on their rises, "" for those as read.
std::string since_text(const std::optional<std::int64_t>& since) {
  return since ? ", rises since " + utc_timestamp_of(*since) : "";
}

// What to do about the counters `over` at `here` (model's advice by their kind), and how to see
// whether they come back.
std::string hint_for(const Subnet& fabric, const SubnetPortRef& here,
                     const std::vector<std::string>& over) {
  const SubnetNode& node = fabric.nodes[here.node];
  const SubnetPort& port = *fabric.port_of(here);
  const std::string far = port.remote ? port_name(fabric, *port.remote) : "the far end";
  return counter_advice(over, far) + "; then clear them (perfquery -R " +
         std::to_string(performance_agent_lid(node, port)) + " " + std::to_string(here.port) +
         ") and run ibkit fabric again to see whether they come back";
}

// The failing result for a port with counters over `limits`, or nothing when none is.
std::optional<CheckResult> judge_port(const Subnet& fabric, const SubnetPortRef& here,
                                      const SubnetPort& port, const CounterLimits& limits) {
  std::vector<std::string> over;
  std::vector<std::string> names;
  for (const auto& [name, value] : port.counters) {
    auto limit = limits.find(name);
    if (limit == limits.end()) continue;
    auto failed = counter_over_limit(name, value, limit->second, port.counters_extended,
                                     counted(port, name, value));
    if (!failed) continue;
    over.push_back(std::move(*failed));
    names.push_back(name);
  }
  if (over.empty()) return std::nullopt;
  const std::string subject =
      port_name(fabric, here) +
      (port.remote ? " (link to " + port_name(fabric, *port.remote) + ")" : std::string());
  return CheckResult{"fabric.counters",
                     subject,
                     Status::kFail,
                     join(over, ", "),
                     "within [limits]" + since_text(port.counters_since),
                     hint_for(fabric, here, names)};
}

// "viper (0x...) port 1 link_downed=1": a port's errors under their limits, "" when it has none.
std::string errors_under_limits(const Subnet& fabric, const SubnetPortRef& here,
                                const SubnetPort& port, const CounterLimits& limits) {
  std::vector<std::string> errors;
  for (const auto& [name, value] : port.counters)
    if (value > 0 && limits.count(name) != 0)
      errors.push_back(name + "=" + counted(port, name, value));
  return errors.empty() ? "" : port_name(fabric, here) + " " + join(errors, " ");
}

}  // namespace

CheckResults check_port_errors(const Subnet& fabric, const CounterLimits& limits) {
  CheckResults results;
  std::size_t clean = 0;
  std::vector<std::string> under_limits;
  std::vector<std::string> unread;
  std::optional<std::int64_t> since;  // when the rises judged start, if any port has them
  std::size_t as_read = 0;            // ports read, but judged on their counters as read
  for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
    for (const auto& port : fabric.nodes[i].ports) {
      const SubnetPortRef here{i, port.number};
      if (!port.counters.empty() && port.counters_since) since = port.counters_since;
      if (!port.counters.empty() && !port.counters_since) ++as_read;
      if (!port.counters_unread.empty()) {
        unread.push_back(port_name(fabric, here) + ": " + port.counters_unread);
      } else if (port.counters.empty()) {
        continue;
      } else if (auto failed = judge_port(fabric, here, port, limits)) {
        results.push_back(std::move(*failed));
      } else if (auto errors = errors_under_limits(fabric, here, port, limits); !errors.empty()) {
        under_limits.push_back(errors);
      } else {
        ++clean;
      }
    }
  }
  if (!unread.empty()) {
    results.push_back(
        {"fabric.counters", "subnet", Status::kWarn,
         std::to_string(unread.size()) +
             " ports' counters not read: " + join_capped(unread, kPortsNamed, "; "),
         "every linked port's error counters",
         "their errors are not judged: a port that is not Active has no route to its counters "
         "(see fabric.link); an agent that does not answer may need a longer --mad-timeout"});
  }
  const std::size_t judged = clean + under_limits.size();
  if (judged > 0 || results.empty()) {
    results.push_back(
        {"fabric.counters", "subnet", judged > 0 ? Status::kPass : Status::kSkip,
         std::to_string(judged) + " port" + (judged == 1 ? "" : "s") + " within [limits]" +
             (under_limits.empty()
                  ? ""
                  : " (" + std::to_string(under_limits.size()) + " with errors under them: " +
                        join_capped(under_limits, kPortsNamed, "; ") + ")"),
         "every linked port's error counters within [limits]" + since_text(since) +
             (since && as_read > 0
                  ? " (" + std::to_string(as_read) + (as_read == 1 ? " port" : " ports") +
                        " new since then: as read)"
                  : ""),
         ""});
  }
  return results;
}

}  // namespace ibkit
