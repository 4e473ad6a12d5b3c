#include "pair/pair_ends.hpp"

#include <algorithm>
#include <cmath>

#include "util/text.hpp"

namespace ibkit {
namespace {

// Both ends' figures, each the first a verbs test learnt (every verbs test of a pair runs on
// the same ports).
struct Ends {
  std::optional<int> local_mtu;
  std::optional<int> remote_mtu;
  std::optional<double> local_gbps;
  std::optional<double> remote_gbps;
  bool any = false;
};

template <class T>
void first_known(std::optional<T>& into, const std::optional<T>& value) {
  if (!into && value) into = value;
}

Ends ends_of(const std::vector<PairOutcome>& outcomes) {
  Ends ends;
  for (const auto& outcome : outcomes) {
    if (!outcome.verbs) continue;
    const VerbsMeasurement& verbs = *outcome.verbs;
    // A port in loopback against itself has one end: nothing to compare.
    if (!verbs.loopback.empty() && verbs.local_device == verbs.remote_device) continue;
    first_known(ends.local_mtu, verbs.local_mtu);
    first_known(ends.remote_mtu, verbs.remote_mtu);
    first_known(ends.local_gbps, verbs.port_data_gbps);
    first_known(ends.remote_gbps, verbs.remote_port_data_gbps);
  }
  ends.any = ends.local_mtu || ends.remote_mtu || ends.local_gbps || ends.remote_gbps;
  return ends;
}

// Data rates are computed from width x speed: equal links give equal figures, so anything
// beyond rounding is a difference.
bool rates_differ(double a, double b) { return std::abs(a - b) > 0.01 * std::max(a, b); }

std::string mtu_text(const std::optional<int>& mtu) {
  return mtu ? std::to_string(*mtu) : "unknown";
}

std::string gbps_text(const std::optional<double>& gbps) {
  return gbps ? format_number(*gbps) + " Gb/s" : "unknown";
}

}  // namespace

std::optional<CheckResult> judge_pair_ends(const std::vector<PairOutcome>& outcomes,
                                           const std::string& local_node,
                                           const std::string& remote_node) {
  const Ends ends = ends_of(outcomes);
  if (!ends.any) return std::nullopt;
  CheckResult result;
  result.id = "pair.ends";
  result.subject = local_node + " <-> " + remote_node;
  result.expected = "the same active MTU and port data rate on both ends";
  const bool mtu_known = ends.local_mtu && ends.remote_mtu;
  const bool rate_known = ends.local_gbps && ends.remote_gbps;
  const bool mtu_differs = mtu_known && *ends.local_mtu != *ends.remote_mtu;
  const bool rate_differs = rate_known && rates_differ(*ends.local_gbps, *ends.remote_gbps);

  std::vector<std::string> differences;
  std::vector<std::string> hints;
  if (mtu_differs) {
    differences.push_back("active MTU " + local_node + " " + mtu_text(ends.local_mtu) + ", " +
                          remote_node + " " + mtu_text(ends.remote_mtu) + " (the path runs at " +
                          std::to_string(std::min(*ends.local_mtu, *ends.remote_mtu)) + ")");
    hints.push_back(
        "give every node of the fabric the same MTU (ibkit check's port.mtu with [expect] "
        "active_mtu finds the odd one): on RoCE the fabric NIC's MTU (ip link set DEV mtu N; the "
        "RDMA MTU is the largest of 256-4096 that fits), on InfiniBand the max MTU of the HCA and "
        "switch port the subnet manager sets the link to (ibv_devinfo max_mtu)");
  }
  if (rate_differs) {
    differences.push_back("data rate " + local_node + " " + gbps_text(ends.local_gbps) + ", " +
                          remote_node + " " + gbps_text(ends.remote_gbps));
    hints.push_back(
        "a port trained below its peer's rate: check the cable, the switch port and ibkit "
        "check's port.rate on the slower node");
  }
  if (!differences.empty()) {
    result.status = Status::kWarn;
    result.observed = join(differences, "; ");
    result.hint = join(hints, "; ");
    return result;
  }
  if (mtu_known && rate_known) {
    result.status = Status::kPass;
    result.observed = "both ends active MTU " + std::to_string(*ends.local_mtu) + ", data rate " +
                      gbps_text(ends.local_gbps);
    return result;
  }
  result.status = Status::kSkip;
  result.observed = "active MTU " + local_node + " " + mtu_text(ends.local_mtu) + ", " +
                    remote_node + " " + mtu_text(ends.remote_mtu) + "; data rate " + local_node +
                    " " + gbps_text(ends.local_gbps) + ", " + remote_node + " " +
                    gbps_text(ends.remote_gbps);
  result.hint =
      "not compared: an end did not say (an older ibkit on the peer, or a port whose rate "
      "cannot be read)";
  return result;
}

void add_pair_ends_result(CheckResults& results, const std::vector<PairOutcome>& outcomes,
                          const std::string& local_node, const std::string& remote_node) {
  if (auto ends = judge_pair_ends(outcomes, local_node, remote_node)) {
    results.push_back(std::move(*ends));
  }
}

}  // namespace ibkit
