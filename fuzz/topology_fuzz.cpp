// sweep --pattern topo:FILE on any bytes: the topology file's reader and the schedule chosen from
// it. The input is up to two sections, split by lines that are exactly "----": the topology file,
// and the hosts, one name a line (at most 64; by default the first word of every channel
// adapter's description in the file, or h1..h4). A refusal names the file; an accepted schedule
// keeps every promise of topology_schedule.hpp: disjoint pairs of two hosts under different
// switches, none twice, every host in one, each with its route kept, no more links covered than
// there are, the first few not covered named, each link's name kept once. A hang (a loop walked
// forever, a cubic walk) is a crash by libFuzzer's timeout.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fabric/fabric_record.hpp"
#include "fuzz_input.hpp"
#include "schedule/topology_schedule.hpp"

namespace {

using ibkit::fuzz::broken_promise;

constexpr std::size_t kMostHosts = 64;

std::vector<ibkit::SweepHost> hosts_named(std::string_view text) {
  std::vector<ibkit::SweepHost> hosts;
  std::set<std::string> seen;
  std::size_t at = 0;
  while (at < text.size() && hosts.size() < kMostHosts) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string name(text.substr(at, end - at));
    at = end + 1;
    if (name.empty() || !seen.insert(name).second) continue;
    hosts.push_back({name, "10.0.0." + std::to_string(hosts.size() + 1), 18515});
  }
  return hosts;
}

// The first word of every channel adapter's description, as an operator would list them.
std::vector<ibkit::SweepHost> hosts_of(std::string_view record) {
  std::string names;
  if (auto fabric = ibkit::read_fabric_record(record)) {
    for (const auto& node : fabric->nodes) {
      if (node.type != ibkit::SubnetNodeType::kChannelAdapter) continue;
      names += node.description.substr(0, node.description.find(' ')) + "\n";
    }
  }
  auto hosts = hosts_named(names);
  return hosts.size() >= 2 ? hosts : hosts_named("h1\nh2\nh3\nh4\n");
}

void check_schedule(const ibkit::TopologySchedule& topo,
                    const std::vector<ibkit::SweepHost>& hosts) {
  const int n = static_cast<int>(hosts.size());
  std::set<std::pair<int, int>> seen;
  std::set<int> paired;
  for (const auto& round : topo.schedule) {
    std::set<int> busy;
    for (const auto& pair : round) {
      if (pair.a < 0 || pair.b < 0 || pair.a >= n || pair.b >= n || pair.a == pair.b)
        broken_promise("a pair of unknown hosts or a host with itself", std::to_string(pair.a));
      if (!busy.insert(pair.a).second || !busy.insert(pair.b).second)
        broken_promise("a host in two pairs of one round", hosts[pair.a].name);
      if (!seen.insert(std::minmax(pair.a, pair.b)).second)
        broken_promise("a pair scheduled twice", hosts[pair.a].name + " " + hosts[pair.b].name);
      if (topo.routes.route(hosts[pair.a].name, hosts[pair.b].name) == nullptr)
        broken_promise("a scheduled pair without its route", hosts[pair.a].name);
      paired.insert(pair.a);
      paired.insert(pair.b);
    }
  }
  if (paired.size() != hosts.size()) broken_promise("a host in no pair", "");
  if (topo.routes.pairs() != seen.size()) broken_promise("routes of pairs not scheduled", "");
  if (topo.covered > topo.links || topo.covered == 0)
    broken_promise("covered more links than there are, or none", std::to_string(topo.covered));
  if (topo.uncovered.size() > 10 || (topo.uncovered.empty() != (topo.covered == topo.links)))
    broken_promise("the links not covered misnamed", std::to_string(topo.uncovered.size()));
  if (topo.routes.names_kept() > topo.links) broken_promise("a link's name kept twice", "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ibkit::fuzz::MemoryFile topology_file("topology");
  const auto parts = ibkit::fuzz::sections(ibkit::fuzz::as_text(data, size), "----");
  topology_file.write(parts[0]);
  auto hosts = parts.size() > 1 ? hosts_named(parts[1]) : hosts_of(parts[0]);
  if (hosts.size() < 2) hosts = hosts_named("h1\nh2\n");
  auto topo = ibkit::read_topology_schedule(topology_file.path(), hosts);
  if (!topo) {
    if (topo.error().message.find(topology_file.path()) == std::string::npos)
      broken_promise("a refusal that does not name the file", topo.error().message);
    return 0;
  }
  check_schedule(*topo, hosts);
  return 0;
}
