// The sweep's node lists on any text. The input is up to four sections, split by lines that
// are exactly "----": a hosts file (`--hosts FILE`), a pairs file (`--pattern pairs:FILE`,
// against the hosts read, or lab1..lab4 when they are refused), a `--hosts` list, and a
// `--pattern`. Whatever is accepted must be what the headers promise: at least two distinct
// nodes, and schedules of disjoint pairs of known nodes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_input.hpp"
#include "schedule/hosts.hpp"
#include "schedule/pattern.hpp"
#include "schedule/schedule.hpp"

namespace {

using ibkit::fuzz::broken_promise;

constexpr std::uint16_t kDefaultPort = 18515;

void check_hosts(const char* source, const std::vector<ibkit::SweepHost>& hosts) {
  if (hosts.size() < 2) broken_promise(source, "accepted fewer than two nodes");
  std::set<std::string> names;
  std::set<std::pair<std::string, std::uint16_t>> endpoints;
  for (const auto& host : hosts) {
    if (!ibkit::is_host_text(host.address))
      broken_promise(source, "accepted address " + host.address);
    if (host.port == 0) broken_promise(source, "accepted port 0 for " + host.address);
    if (!names.insert(host.name).second) broken_promise(source, "node listed twice: " + host.name);
    if (!endpoints.insert({host.address, host.port}).second) {
      broken_promise(source, "address listed twice: " + host.address);
    }
  }
}

// Every pair names two different known nodes, no node is in two pairs of a round, and no
// pair is scheduled twice (either way round).
void check_schedule(const char* source, const ibkit::Schedule& schedule, int nodes) {
  std::set<std::pair<int, int>> seen;
  for (const auto& round : schedule) {
    std::set<int> busy;
    for (const auto& pair : round) {
      if (pair.a < 0 || pair.b < 0 || pair.a >= nodes || pair.b >= nodes || pair.a == pair.b) {
        broken_promise(source, "a pair " + std::to_string(pair.a) + "-" + std::to_string(pair.b) +
                                   " of " + std::to_string(nodes) + " nodes");
      }
      if (!busy.insert(pair.a).second || !busy.insert(pair.b).second) {
        broken_promise(source, "a node in two pairs of one round");
      }
      if (!seen.insert(std::minmax(pair.a, pair.b)).second) {
        broken_promise(source, "a pair scheduled twice");
      }
    }
  }
}

std::vector<ibkit::SweepHost> lab_hosts() {
  std::vector<ibkit::SweepHost> hosts;
  for (int i = 1; i <= 4; ++i) {
    const std::string name = "lab" + std::to_string(i);
    hosts.push_back({name, "10.0.0." + std::to_string(i), kDefaultPort});
  }
  return hosts;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ibkit::fuzz::MemoryFile hosts_file("hosts");
  static ibkit::fuzz::MemoryFile pairs_file("pairs");
  const auto parts = ibkit::fuzz::sections(ibkit::fuzz::as_text(data, size), "----");

  hosts_file.write(parts[0]);
  auto read = ibkit::read_hosts_file(hosts_file.path(), kDefaultPort);
  if (read) {
    check_hosts("hosts file", *read);
  } else if (read.error().message.rfind(hosts_file.path() + ":", 0) != 0) {
    broken_promise("a hosts file error that does not name the file", read.error().message);
  }
  const auto hosts = read ? *read : lab_hosts();
  const int nodes = static_cast<int>(hosts.size());

  if (parts.size() > 1) {
    pairs_file.write(parts[1]);
    if (auto schedule = ibkit::read_pairs_file(pairs_file.path(), hosts)) {
      check_schedule("pairs file", *schedule, nodes);
    }
  }
  if (parts.size() > 2) {
    if (auto list = ibkit::parse_hosts_list(std::string(parts[2]), kDefaultPort)) {
      check_hosts("--hosts list", *list);
    }
  }
  // A pattern from the input; "pairs:" always reads the pairs section, never another file.
  if (parts.size() > 3 && nodes <= 64) {
    std::string pattern(parts[3].substr(0, parts[3].find('\n')));
    if (pattern.rfind("pairs:", 0) == 0) pattern = "pairs:" + pairs_file.path();
    if (auto schedule = ibkit::schedule_for_pattern(pattern, hosts, size)) {
      check_schedule("--pattern", *schedule, nodes);
    }
  }
  return 0;
}
