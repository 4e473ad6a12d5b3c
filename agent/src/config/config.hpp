#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ibkit {

// Which fabric ports must be Active: every one, at least one, or the named "device/port"s.
struct PortSelection {
  enum class Kind { kAll, kAny, kListed };
  Kind kind = Kind::kAll;
  std::vector<std::string> listed;
};

enum class GpuDirect { kAuto, kRequired, kOff };

// The [expect] table: the state this node should be in. An unset optional means "no
// expectation", and the checks that need one are skipped with a reason.
struct Expectations {
  std::optional<std::string> link_layer;  // "InfiniBand" or "Ethernet"; nullopt = any
  std::optional<double> min_rate_gbps;
  std::optional<int> port_count;
  PortSelection ports;
  std::vector<std::string> modules{"ib_ipoib", "ib_umad", "ib_uverbs"};
  GpuDirect gpu_direct = GpuDirect::kAuto;
  std::optional<std::uint64_t> memlock_kib;  // nullopt = unlimited
  std::string cpu_governor = "performance";  // "any" = not checked
  std::string ipoib_mode = "auto";           // "auto", "connected", "datagram", "any"
  std::uint64_t ipoib_mtu = 0;               // 0 = what the mode wants
  bool ipoib = true;
  bool pcie = true;
  bool loopback = false;  // ibkit check also runs latency and bandwidth between two QPs of each
                          // rail port (ibkit pair --loopback), judged by [thresholds]
};

// The most each port error counter may read (ports/N/counters/<name>).
using CounterLimits = std::map<std::string, std::uint64_t>;

// Limits used when the configuration names none: a few errors over a node's uptime are noise,
// more point at a cable, a transceiver or a port.
CounterLimits default_counter_limits();

// [thresholds]: "at least"/"at most" values for pair tests; unset = measured, not judged.
struct Thresholds {
  std::optional<double> max_latency_us;          // typical (median) latency of the smallest size
  std::optional<double> min_bandwidth_gbps;      // bandwidth at the largest size
  std::optional<double> min_bandwidth_fraction;  // of the port's data rate (0-1]
  std::optional<double> min_tcp_gbps;
  std::uint64_t max_counter_delta = 0;  // error counters may not rise during a test
};

struct Config {
  std::string source = "defaults";  // the file it came from, or "defaults"
  Expectations expect;
  CounterLimits counter_limits = default_counter_limits();
  Thresholds thresholds;
};

}  // namespace ibkit
