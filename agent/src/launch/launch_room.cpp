#include "launch/launch_room.hpp"

#include <algorithm>
#include <string>

namespace ibkit {
namespace {

// A node's server launcher (stdin and stderr pipes, one end each) and the sweep's connection.
constexpr std::size_t kPerNode = 3;
// The sweep's rails queries (64 at once), the name service, TLS, the report's files, stdio.
constexpr std::size_t kAside = 96;
// A check's launcher while it starts: its stdout and stderr pipes, both ends.
constexpr std::size_t kPerCheck = 4;
constexpr std::size_t kMostChecksAtOnce = 64;

}  // namespace

std::size_t launch_descriptors(std::size_t nodes) { return nodes * kPerNode + kAside; }

Expected<Done> check_launch_room(std::size_t nodes, const DescriptorRoom& room) {
  if (launch_descriptors(nodes) <= room.free()) return Done{};
  const std::size_t fit = room.free() > kAside ? (room.free() - kAside) / kPerNode : 0;
  Error error{std::to_string(nodes) + " nodes need about " +
              std::to_string(launch_descriptors(nodes)) +
              " open files at once (each one's launcher and connection), and this process may "
              "open " +
              std::to_string(room.free()) + " more (ulimit -n: " + std::to_string(room.limit) +
              ", the hard limit " + std::to_string(room.hard_limit) +
              "): raise the hard limit (nofile in /etc/security/limits.conf, LimitNOFILE= for "
              "a service, ulimit -Hn as root) or launch at most " +
              std::to_string(fit) + " nodes at a time"};
  error.environment = true;
  return error;
}

std::size_t checks_at_once(const DescriptorRoom& room) {
  const std::size_t spare = room.free() > kAside ? room.free() - kAside : 0;
  return std::clamp<std::size_t>(spare / kPerCheck, 1, kMostChecksAtOnce);
}

}  // namespace ibkit
