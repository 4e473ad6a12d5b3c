#include "fabric/counter_rises.hpp"

#include <string>

#include "model/error_counters.hpp"

namespace ibkit {
namespace {

std::string port_key(const SubnetNode& node, const SubnetPort& port) {
  return guid_text(node.guid) + "/" + std::to_string(port.number);
}

}  // namespace

CounterSnapshot fabric_counter_snapshot(const Subnet& fabric, std::int64_t taken_at) {
  CounterSnapshot snapshot{kFabricStateHost, "", taken_at, {}};
  for (const auto& node : fabric.nodes) {
    for (const auto& port : node.ports) {
      if (port.counters.empty()) continue;
      // A counter at 0 is left out: one missing from the file rose from 0 all the same, and a
      // healthy subnet's file stays a few bytes a port.
      auto& kept = snapshot.ports[port_key(node, port)];
      for (const auto& [name, value] : port.counters)
        if (value != 0) kept[name] = value;
    }
  }
  return snapshot;
}

void carry_unread_ports(CounterSnapshot& snapshot, const CounterSnapshot& previous) {
  for (const auto& [port, counters] : previous.ports) snapshot.ports.try_emplace(port, counters);
}

std::size_t subtract_previous_counters(Subnet& fabric, const CounterSnapshot& previous) {
  std::size_t compared = 0;
  for (auto& node : fabric.nodes) {
    for (auto& port : node.ports) {
      if (port.counters.empty()) continue;
      auto before = previous.ports.find(port_key(node, port));
      if (before == previous.ports.end()) continue;
      for (auto& [name, value] : port.counters) {
        if (counter_saturated(name, value, port.counters_extended)) continue;
        auto earlier = before->second.find(name);
        if (earlier != before->second.end() && earlier->second <= value) value -= earlier->second;
      }
      port.counters_since = previous.taken_at;
      ++compared;
    }
  }
  return compared;
}

}  // namespace ibkit
