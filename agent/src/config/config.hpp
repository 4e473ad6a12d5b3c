#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/error_rate_limits.hpp"
#include "config/transport_counters.hpp"

namespace ibkit {

// Which fabric ports must be Active: every one, at least one, or the named "device/port"s.
struct PortSelection {
  enum class Kind { kAll, kAny, kListed };
  Kind kind = Kind::kAll;
  std::vector<std::string> listed;
  bool given = false;  // the config set `ports` (the default "all" is not given)
  // `ibkit health`'s default: with `ports` not given, a port that never had a link since boot
  // (DOWN, Polling or Disabled, link_downed 0: the uncabled second port of a dual-port HCA)
  // is a warning, not a failure the node is drained for.
  bool spare_never_linked = false;
};

enum class GpuDirect { kAuto, kRequired, kOff };

// Where the node runs, for the hints that differ by platform (on Azure the fabric's own subnet
// manager activates ports and a VM can only be redeployed; nobody may run opensm there).
enum class Platform { kAny, kHomelab, kAzure, kLab };

// The [expect] table: the state this node should be in. An unset optional means "no
// expectation", and the checks that need one are skipped with a reason.
struct Expectations {
  std::optional<std::string> link_layer;  // "InfiniBand" or "Ethernet"; nullopt = any
  std::optional<double> min_rate_gbps;
  std::optional<int> port_count;
  std::optional<int> active_mtu;  // bytes (256-4096) every Active fabric port runs; nullopt = any
  PortSelection ports;
  std::vector<std::string> modules{"ib_ipoib", "ib_umad", "ib_uverbs"};
  GpuDirect gpu_direct = GpuDirect::kAuto;
  std::optional<std::uint64_t> memlock_kib;  // nullopt = unlimited
  std::string cpu_governor = "performance";  // "any" = not checked
  std::string ipoib_mode = "auto";           // "auto", "connected", "datagram", "any"
  std::uint64_t ipoib_mtu = 0;               // 0 = what the mode wants
  bool ipoib = true;
  bool pcie = true;
  Platform platform = Platform::kAny;
  bool loopback = false;  // ibkit check also runs latency and bandwidth between two QPs of each
                          // rail port (ibkit pair --loopback), judged by [thresholds]
};

// The most each port error counter may read (ports/N/counters/<name>).
using CounterLimits = std::map<std::string, std::uint64_t>;

// Limits used when the configuration names none: a few errors over a node's uptime are noise,
// more point at a cable, a transceiver or a port.
CounterLimits default_counter_limits();

// The fleet-relative rule of a sweep (docs/verdicts.md): a pair whose figure is this far from
// the fleet's typical figure for the same test, size and rail is slow, thresholds or not. The
// rule draws its line as tight as the fleet's own spread allows (rules/fleet_line.hpp); these
// factors are the loosest it draws, or the line itself where [thresholds] pins it.
struct FleetFactors {
  bool on = true;
  // Latency more than this many times the fleet's typical latency (and at least
  // kFleetMinLatencyExcessUs above it) is slow.
  double max_latency_ratio = 3.0;
  // Bandwidth (verbs or TCP) below this fraction of the fleet's typical bandwidth is slow.
  double min_bandwidth_ratio = 0.33;
  // Set in [thresholds]: that factor is the line, whatever the fleet's spread.
  bool latency_pinned = false;
  bool bandwidth_pinned = false;
};

// A latency this little above the fleet's typical one is never far from it, whatever the ratio:
// below a microsecond a ratio says more about the clock than about the link.
inline constexpr double kFleetMinLatencyExcessUs = 1.0;

// A latency tail (p99) is far only this much above the fleet's typical tail as well: a lost
// packet costs the transport's ACK timeout, milliseconds, while a healthy host's scheduling
// jitter stays below that (docs/verdicts.md has the lab's figures).
inline constexpr double kFleetMinTailExcessUs = 1000.0;

// A healthy test on the emulated lab counted up to 21 sequence errors at one end (2 QPs both ways);
// a node losing 3% of its packets made 158 and more (docs/verdicts.md has the figures).
inline constexpr std::uint64_t kDefaultMaxTransportDelta = 50;

// [thresholds]: "at least"/"at most" values for pair tests; unset = measured, not judged.
struct Thresholds {
  std::optional<double> max_latency_us;          // typical (median) latency of the smallest size
  std::optional<double> min_bandwidth_gbps;      // bandwidth at the largest size
  std::optional<double> min_bandwidth_fraction;  // of the port's data rate (0-1]
  std::optional<double> min_tcp_gbps;
  std::uint64_t max_counter_delta = 0;  // error counters may not rise during a test
  // How much the transport counters that mean loss (sequence errors, exhausted retries) may rise
  // at either end during a test.
  std::uint64_t max_transport_delta = kDefaultMaxTransportDelta;
  FleetFactors fleet;  // the sweep's fleet-relative rule
};

struct Config {
  std::string source = "defaults";  // the file it came from, or "defaults"
  Expectations expect;
  CounterLimits counter_limits = default_counter_limits();
  // The most each transport counter may read (ports/N/hw_counters/<name>), in the same [limits].
  CounterLimits transport_limits = default_transport_limits();
  // [limits] link_flaps: link_downed rises allowed between two checks that keep a state file.
  std::uint64_t max_link_flaps = 0;
  // [limits] <counter>_per_hour and _per_second: error counter rises between two such checks.
  ErrorRateLimits error_rates;
  Thresholds thresholds;
};

}  // namespace ibkit
