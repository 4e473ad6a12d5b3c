#include "sim_fabric.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "fabric/fabric_record.hpp"

namespace ibkit::sim {
namespace {

constexpr double kLatencyUs = 1.5;  // a healthy pair's typical small-message latency
constexpr double kWayGbps = 90;     // a healthy way's bandwidth

double lognormal(double sigma, std::mt19937_64& random) {
  return std::exp(sigma * std::normal_distribution<double>(0, 1)(random));
}

}  // namespace

SimFabric::SimFabric(const std::string& topology_path) {
  auto fabric = read_topology_file(topology_path, "topology");
  if (!fabric) throw std::runtime_error(fabric.error().message);
  fabric_ = std::move(*fabric);
  for (const auto& node : fabric_.nodes) {
    if (node.type != SubnetNodeType::kChannelAdapter) continue;
    const std::string name = node.description.substr(0, node.description.find(' '));
    index_.emplace(name, hosts_.size());
    hosts_.push_back({name, "192.0.2.1", 18515});
  }
  auto placement = place_hosts(fabric_, hosts_);
  if (!placement) throw std::runtime_error(topology_path + ": " + placement.error().message);
  placement_ = std::move(*placement);
  link_set_ = switch_links(fabric_);
  ways_ = std::make_unique<LinkWays>(fabric_, placement_.placed, link_set_);
  nodes_.resize(hosts_.size());
  links_.resize(ways_->size());
}

std::string SimFabric::link_name(std::size_t link) const {
  return ibkit::link_name(fabric_, ways_->key(static_cast<std::uint32_t>(link)));
}

void SimFabric::clear_faults() {
  std::fill(nodes_.begin(), nodes_.end(), NodeState{});
  std::fill(links_.begin(), links_.end(), LinkState{});
}

bool SimFabric::answers(std::size_t host, int step) const {
  const NodeState& node = nodes_[host];
  if (node.fault == NodeFault::kDead) return false;
  if (node.fault == NodeFault::kSilentAfter) return step <= node.after_step;
  return true;
}

double SimFabric::way_factor(std::size_t from, std::size_t to, std::mt19937_64& random,
                             bool& lossy) {
  double factor = std::min(nodes_[from].factor, nodes_[to].factor);
  for (const auto& crossing : ways_->way(from, to)) {
    const LinkState& state = links_[crossing.link];
    if (state.fault == LinkFault::kSlow) factor = std::min(factor, state.factor);
    if (state.fault == LinkFault::kLossy) {
      lossy = true;
      factor = std::min(factor, std::uniform_real_distribution<double>(0.2, 0.6)(random));
    }
  }
  return factor;
}

Measured SimFabric::measure(std::size_t a, std::size_t b, double sigma, std::mt19937_64& random) {
  bool lossy = false;
  Measured measured;
  measured.a_to_b_gbps = kWayGbps * way_factor(a, b, random, lossy) * lognormal(sigma, random);
  measured.b_to_a_gbps = kWayGbps * way_factor(b, a, random, lossy) * lognormal(sigma, random);
  const double slower = std::min(nodes_[a].factor, nodes_[b].factor);
  measured.latency_us = kLatencyUs / slower * lognormal(sigma, random) *
                        (lossy ? std::uniform_real_distribution<double>(1.2, 2)(random) : 1);
  return measured;
}

}  // namespace ibkit::sim
