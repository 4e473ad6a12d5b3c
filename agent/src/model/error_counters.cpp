#include "model/error_counters.hpp"

#include <algorithm>

namespace ibkit {

const std::vector<ErrorCounter>& error_counters() {
  static const std::vector<ErrorCounter> counters{
      {"symbol_error", 16, CounterKind::kWire},
      {"link_error_recovery", 8, CounterKind::kWire},
      {"link_downed", 8, CounterKind::kLinkDown},
      {"port_rcv_errors", 16, CounterKind::kWire},
      {"port_rcv_remote_physical_errors", 16, CounterKind::kMarkedUpstream},
      {"port_rcv_switch_relay_errors", 16, CounterKind::kDrop},
      {"port_xmit_discards", 16, CounterKind::kDrop},
      {"port_xmit_constraint_errors", 8, CounterKind::kDrop},
      {"port_rcv_constraint_errors", 8, CounterKind::kDrop},
      {"local_link_integrity_errors", 4, CounterKind::kWire},
      {"excessive_buffer_overrun_errors", 4, CounterKind::kWire},
      {"VL15_dropped", 16, CounterKind::kDrop},
  };
  return counters;
}

const ErrorCounter* error_counter_named(std::string_view name) {
  for (const auto& counter : error_counters())
    if (counter.name == name) return &counter;
  return nullptr;
}

std::uint64_t counter_maximum(std::string_view name) {
  const ErrorCounter* counter = error_counter_named(name);
  return counter == nullptr ? 0 : (std::uint64_t{1} << counter->bits) - 1;
}

bool counter_saturated(std::string_view name, std::uint64_t value, bool extended) {
  if (error_counter_named(name) == nullptr) return false;
  return value == (extended ? ~std::uint64_t{0} : counter_maximum(name));
}

const char* const kCounterStopped = "stopped counting at its maximum";

std::optional<std::string> counter_over_limit(std::string_view name, std::uint64_t value,
                                              std::uint64_t limit, bool extended,
                                              const std::string& shown) {
  const bool saturated = counter_saturated(name, value, extended);
  if (value <= limit && !saturated) return std::nullopt;
  return std::string(name) + " " + shown + (value > limit ? " > " : " <= ") +
         std::to_string(limit) + (saturated ? std::string(" (") + kCounterStopped + ")" : "");
}

std::string counter_advice(const std::vector<std::string>& names, const std::string& far) {
  const auto any_of_kind = [&](CounterKind kind) {
    return std::any_of(names.begin(), names.end(), [&](const std::string& name) {
      const ErrorCounter* counter = error_counter_named(name);
      return counter != nullptr && counter->kind == kind;
    });
  };
  if (any_of_kind(CounterKind::kWire)) {
    const bool symbol = std::find(names.begin(), names.end(), "symbol_error") != names.end();
    return "errors on the wire: reseat or replace the cable to " + far + ", or its transceivers" +
           (symbol ? " (symbol errors counted here can come from the far end's transmitter)" : "");
  }
  if (any_of_kind(CounterKind::kMarkedUpstream)) {
    return "packets that arrived already marked bad by a link further up their path, not this "
           "one: look for symbol or receive errors on the links that feed this port";
  }
  if (any_of_kind(CounterKind::kLinkDown)) {
    return "the link to " + far +
           " went down that often: a reboot or a reset of the far end counts too; if it did not "
           "restart, the cable or a transceiver is dropping the link";
  }
  return "packets dropped at this port: congestion, a path that went down while traffic ran, or "
         "a partition or constraint mismatch with " +
         far + ": check the SM's log and routing";
}

}  // namespace ibkit
