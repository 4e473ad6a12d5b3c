#pragma once
// The fleet simulator's fabric (bench/fleet-sim.sh): the hosts and switch-to-switch links of a
// topology `ibkit fabric --save-topology` wrote, the faults injected into them, and what a pair
// test between two hosts measures there: each way's bandwidth limited by the two adapters and
// every link its route crosses, as the saved forwarding tables send it, with noise.
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "fabric/fabric_model.hpp"
#include "schedule/hosts.hpp"
#include "schedule/topology_links.hpp"

namespace ibkit::sim {

enum class NodeFault {
  kNone,
  kSlow,         // its adapter at `factor` of the bandwidth, `1 / factor` the latency
  kDead,         // never answers: the coordinator cannot reach it, a partner cannot connect
  kFrozen,       // accepts and never sends a result: every pair waits out its deadline
  kSilentAfter,  // answers for the first `after_step` steps of the sweep, then dead
};

enum class LinkFault {
  kNone,
  kSlow,   // `factor` of its bandwidth both ways
  kLossy,  // drops packets: each test through it gets 20-60% of the bandwidth, more latency
};

struct NodeState {
  NodeFault fault = NodeFault::kNone;
  double factor = 1;
  int after_step = 0;
};

struct LinkState {
  LinkFault fault = LinkFault::kNone;
  double factor = 1;
};

// One test's figures, or why there are none.
struct Measured {
  double latency_us = 0;
  double a_to_b_gbps = 0;
  double b_to_a_gbps = 0;
};

class SimFabric {
 public:
  // Fails (throws std::runtime_error) when the topology cannot be read or placed.
  explicit SimFabric(const std::string& topology_path);
  SimFabric(const SimFabric&) = delete;  // its ways hold references into it
  SimFabric& operator=(const SimFabric&) = delete;

  const std::vector<SweepHost>& hosts() const { return hosts_; }
  std::size_t links() const { return ways_->size(); }
  std::string link_name(std::size_t link) const;
  const Subnet& subnet() const { return fabric_; }

  void clear_faults();
  NodeState& node(std::size_t host) { return nodes_[host]; }
  const NodeState& node(std::size_t host) const { return nodes_[host]; }
  LinkState& link(std::size_t link) { return links_[link]; }

  // Whether the host answers during the sweep's `step` (1-based).
  bool answers(std::size_t host, int step) const;
  bool frozen(std::size_t host) const { return nodes_[host].fault == NodeFault::kFrozen; }

  // Both ways between hosts a and b at noise `sigma` (lognormal), as measured now.
  Measured measure(std::size_t a, std::size_t b, double sigma, std::mt19937_64& random);

  std::size_t index_of(const std::string& host) const { return index_.at(host); }

 private:
  double way_factor(std::size_t from, std::size_t to, std::mt19937_64& random, bool& lossy);

  Subnet fabric_;
  std::vector<SweepHost> hosts_;
  HostPlacement placement_;
  LinkSet link_set_;
  std::unique_ptr<LinkWays> ways_;  // made once the placement is known
  std::vector<NodeState> nodes_;
  std::vector<LinkState> links_;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace ibkit::sim
