#include "sweep/host_lookup.hpp"

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "control/socket.hpp"
#include "util/process/bounded_threads.hpp"

namespace ibkit {
namespace {

// Lookups at once: a thread each, so 4,096 hosts do not ask for 4,096 threads.
constexpr std::size_t kLookupsAtOnce = 64;

std::string endpoint_text(const std::string& address, std::uint16_t port) {
  return TcpEndpoint{address, port}.label();
}

}  // namespace

Expected<Done> look_up_hosts(const std::vector<SweepHost>& hosts, const Deadline& deadline) {
  std::vector<std::optional<Expected<std::vector<std::string>>>> found(hosts.size());
  std::mutex mutex;
  run_on_bounded_threads(hosts.size(), kLookupsAtOnce, [&](std::size_t i) {
    auto addresses = resolve_addresses(hosts[i].address, deadline);
    std::lock_guard lock(mutex);
    found[i].emplace(std::move(addresses));
  });
  std::map<std::string, std::size_t> agents;  // address:port -> the first host that reaches it
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    const auto& addresses = *found[i];
    if (!addresses) {
      return Error{"node " + hosts[i].name + ": " + addresses.error().message,
                   addresses.error().environment};
    }
    for (const auto& address : *addresses) {
      if (auto checked = check_node_address(address); !checked)
        return Error{"node " + host_description(hosts[i]) + ": its address " + address + " " +
                     checked.error().message};
      const std::string agent = endpoint_text(address, hosts[i].port);
      auto [first, added] = agents.emplace(agent, i);
      if (!added && first->second != i) {
        return Error{"nodes " + host_description(hosts[first->second]) + " and " +
                     host_description(hosts[i]) + " reach the same agent, " + agent +
                     "; list each node once"};
      }
    }
  }
  return Done{};
}

}  // namespace ibkit
